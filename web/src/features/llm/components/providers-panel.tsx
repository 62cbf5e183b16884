import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { KeyRound, Plus, Server, Trash2 } from 'lucide-react';
import type { LlmProvider, LlmProviderHealthEntry, LlmProviderKind } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import {
  providerHealthQueryOptions,
  providersQueryOptions,
  useCreateProvider,
  useDeleteProvider,
  useUpdateProvider,
} from '@/data/llm';
import { ConfirmButton } from '@/components/ui/confirm';
import { LoadError, RefreshError, RowsSkeleton, Section } from './section';
import { StatusBadge } from '@/components/status-badge';

export function HealthBadge({ health }: { health: LlmProviderHealthEntry | undefined }) {
  if (!health) return <StatusBadge word="checking">Checking…</StatusBadge>;
  return <StatusBadge word={health.status} title={health.error ?? undefined} />;
}

/** The providers (admins): health and latency, add, enable, key, remove. API keys are never shown. */
export function ProvidersPanel() {
  const providers = useQuery(providersQueryOptions());
  const health = useQuery(providerHealthQueryOptions());
  const update = useUpdateProvider();
  const remove = useDeleteProvider();
  const healthOf = (id: number) => health.data?.find((h) => h.providerId === id);
  const failed = (what: string) => (error: Error) =>
    toast({ title: what, description: errorMessage(error), variant: 'destructive' });

  return (
    <Section
      title="Providers"
      icon={Server}
      description="Where models run: this hub's Ollama, other hubs' Ollama, and OpenAI-compatible APIs (cloud or local)."
      actions={<AddProviderDialog />}
    >
      <RefreshError what="the providers" query={providers} />
      {providers.isPending ? (
        <RowsSkeleton rows={3} />
      ) : providers.isLoadingError ? (
        <LoadError what="the providers" query={providers} />
      ) : (
        <div className="overflow-x-auto">
          <Table label="Providers table">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Kind</TableHead>
                <TableHead>Address</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="text-right">Latency</TableHead>
                <TableHead>API key</TableHead>
                <TableHead>Enabled</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {providers.data.map((p) => {
                const h = healthOf(p.id);
                return (
                  <TableRow key={p.id} data-provider={p.name}>
                    <TableCell className="font-medium">
                      {p.name}
                      {p.builtIn ? (
                        <Badge variant="outline" className="ml-2">
                          This hub
                        </Badge>
                      ) : null}
                    </TableCell>
                    <TableCell>
                      {p.kind === 'ollama' ? 'Ollama' : 'OpenAI-compatible'}
                      <span className="ml-1 text-xs text-muted-foreground">
                        ({p.local ? 'local' : 'cloud'})
                      </span>
                    </TableCell>
                    <TableCell className="max-w-56 truncate font-mono text-xs" title={p.baseUrl}>
                      {p.baseUrl}
                    </TableCell>
                    <TableCell>
                      <HealthBadge health={h} />
                      {h?.version ? (
                        <span className="ml-2 text-xs text-muted-foreground">v{h.version}</span>
                      ) : null}
                      {h?.status === 'offline' && h.error ? (
                        <p className="mt-1 max-w-64 text-xs text-destructive">{h.error}</p>
                      ) : null}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {h?.latencyMs != null ? `${h.latencyMs} ms` : '—'}
                    </TableCell>
                    <TableCell>
                      {p.hasApiKey ? (
                        <Badge variant="secondary">Stored</Badge>
                      ) : (
                        <span className="text-muted-foreground">None</span>
                      )}
                    </TableCell>
                    <TableCell>
                      <Switch
                        checked={p.enabled}
                        aria-label={`${p.enabled ? 'Disable' : 'Enable'} ${p.name}`}
                        onCheckedChange={(enabled) =>
                          update.mutate(
                            { id: p.id, changes: { enabled } },
                            { onError: failed(`Could not change ${p.name}`) },
                          )
                        }
                      />
                    </TableCell>
                    <TableCell className="text-right whitespace-nowrap">
                      {!p.builtIn ? <ApiKeyDialog provider={p} /> : null}
                      {!p.builtIn ? (
                        <ConfirmButton
                          destructive
                          variant="ghost"
                          size="icon"
                          aria-label={`Remove ${p.name}`}
                          question={`Remove ${p.name}?`}
                          description="Its stored API key is deleted and router rules that use it stop finding it."
                          confirmLabel="Remove"
                          onConfirm={() =>
                            remove.mutate(p.id, { onError: failed(`Could not remove ${p.name}`) })
                          }
                        >
                          <Trash2 aria-hidden="true" />
                        </ConfirmButton>
                      ) : null}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
      )}
    </Section>
  );
}

function AddProviderDialog() {
  const create = useCreateProvider();
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<LlmProviderKind>('openai');
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [local, setLocal] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    create.mutate(
      { kind, name, baseUrl, apiKey: apiKey || undefined, local: kind === 'ollama' ? true : local },
      {
        onSuccess: (p) => {
          toast({ title: `${p.name} added` });
          setOpen(false);
          setName('');
          setBaseUrl('');
          setApiKey('');
        },
        onError: (err) => setError(errorMessage(err) ?? 'Could not add the provider'),
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm">
          <Plus aria-hidden="true" />
          Add provider
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add a provider</DialogTitle>
          <DialogDescription>
            The API key is stored encrypted on the hub and never shown again.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4">
          <div className="grid gap-1.5">
            <Label htmlFor="provider-kind">Kind</Label>
            <Select value={kind} onValueChange={(v) => setKind(v as LlmProviderKind)}>
              <SelectTrigger id="provider-kind">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="openai">OpenAI-compatible API</SelectItem>
                <SelectItem value="ollama">Ollama on another hub</SelectItem>
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="provider-name">Name</Label>
            <Input
              id="provider-name"
              required
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. openai"
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="provider-url">Address</Label>
            <Input
              id="provider-url"
              type="url"
              required
              value={baseUrl}
              onChange={(e) => setBaseUrl(e.target.value)}
              placeholder={kind === 'ollama' ? 'http://192.168.1.20:11434' : 'https://api.openai.com/v1'}
            />
          </div>
          {kind === 'openai' ? (
            <>
              <div className="grid gap-1.5">
                <Label htmlFor="provider-key">API key</Label>
                <Input
                  id="provider-key"
                  type="password"
                  autoComplete="off"
                  value={apiKey}
                  onChange={(e) => setApiKey(e.target.value)}
                  placeholder="Optional for local servers"
                />
              </div>
              <div className="flex items-center gap-2">
                <Checkbox id="provider-local" checked={local} onCheckedChange={(v) => setLocal(v === true)} />
                <Label htmlFor="provider-local">
                  Runs on hardware in this home (counts as local, not cloud)
                </Label>
              </div>
            </>
          ) : null}
          {error ? (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="submit" disabled={create.isPending}>
              Add
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function ApiKeyDialog({ provider }: { provider: LlmProvider }) {
  const update = useUpdateProvider();
  const [open, setOpen] = useState(false);
  const [apiKey, setApiKey] = useState('');
  function save(next: string | null) {
    update.mutate(
      { id: provider.id, changes: { apiKey: next } },
      {
        onSuccess: () => {
          toast({
            title: next ? `New key stored for ${provider.name}` : `Key removed from ${provider.name}`,
          });
          setOpen(false);
          setApiKey('');
        },
        onError: (error) =>
          toast({
            title: 'Could not change the key',
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );
  }
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`API key of ${provider.name}`}>
          <KeyRound aria-hidden="true" />
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>API key of {provider.name}</DialogTitle>
          <DialogDescription>
            {provider.hasApiKey
              ? 'A key is stored. It cannot be shown; enter a new one to replace it.'
              : 'No key is stored.'}
          </DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (apiKey.trim()) save(apiKey.trim());
          }}
        >
          <div className="grid gap-1.5">
            <Label htmlFor={`key-${provider.id}`}>New API key</Label>
            <Input
              id={`key-${provider.id}`}
              type="password"
              autoComplete="off"
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
            />
          </div>
          <DialogFooter className="gap-2">
            {provider.hasApiKey ? (
              <Button type="button" variant="outline" onClick={() => save(null)}>
                Remove key
              </Button>
            ) : null}
            <Button type="submit" disabled={!apiKey.trim() || update.isPending}>
              Save key
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
