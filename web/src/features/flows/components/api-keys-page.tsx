import { useQuery } from '@tanstack/react-query';
import { Copy, KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { createApiKeyInputSchema } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { StatusPill } from '@/components/ui/status-pill';
import { toast } from '@/components/ui/use-toast';
import { apiKeysQueryOptions, flowsQueryOptions, useCreateApiKey, useRevokeApiKey } from '@/data/flows';
import { pageContainer } from '@/components/page-container';

/** /flowforge/api-keys: keys that let other programs run chosen flows. */
export function ApiKeysPage() {
  const keys = useQuery(apiKeysQueryOptions());
  const flows = useQuery(flowsQueryOptions());
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [flowIds, setFlowIds] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [shownKey, setShownKey] = useState<string | null>(null);
  const mine = flows.data ?? [];
  const flowName = (id: number) => flows.data?.find((f) => f.id === id)?.name ?? `Flow ${id}`;

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const parsed = createApiKeyInputSchema.safeParse({ name, flowIds });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid key');
      return;
    }
    setError(null);
    create.mutate(parsed.data, {
      onSuccess: (created) => {
        setShownKey(created.key);
        setName('');
        setFlowIds([]);
      },
      onError: (err) => setError(err.message),
    });
  }

  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="grid gap-1">
        <p className="text-sm text-muted-foreground">
          <Link href="/flowforge" className="underline underline-offset-4">
            FlowForge
          </Link>{' '}
          / API keys
        </p>
        <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">FlowForge API Keys</h1>
        <p className="text-muted-foreground">
          Keys let other programs start your active flows with POST /api/flows/&lt;id&gt;/run and the header
          Authorization: Bearer &lt;key&gt;. Each key runs only the flows you choose.
        </p>
      </header>

      {shownKey ? (
        <div role="status" className="grid gap-2 rounded-lg border border-success/40 bg-success/10 p-4">
          <p className="font-medium">Copy the key now: it is shown only this once.</p>
          <div className="flex items-center gap-2">
            <code
              className="flex-1 overflow-x-auto rounded bg-background px-2 py-1 text-xs"
              data-testid="new-api-key"
            >
              {shownKey}
            </code>
            <Button
              size="icon"
              variant="outline"
              aria-label="Copy the key"
              onClick={() =>
                void navigator.clipboard?.writeText(shownKey).then(() => toast({ title: 'Key copied' }))
              }
            >
              <Copy aria-hidden="true" />
            </Button>
          </div>
          <Button size="sm" variant="ghost" className="justify-self-start" onClick={() => setShownKey(null)}>
            I have stored it
          </Button>
        </div>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle>New key</CardTitle>
          <CardDescription>Keys are stored hashed; revoke one to stop it at once.</CardDescription>
        </CardHeader>
        <CardContent>
          <form className="grid gap-4" onSubmit={submit}>
            <div className="grid max-w-sm gap-1">
              <Label htmlFor="key-name">Name</Label>
              <Input
                id="key-name"
                value={name}
                placeholder="e.g. Kitchen tablet"
                onChange={(e) => setName(e.target.value)}
              />
            </div>
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">Flows this key may run</legend>
              {flows.isPending ? (
                <Skeleton className="h-12" />
              ) : mine.length === 0 ? (
                <p className="text-sm text-muted-foreground">
                  You have no flows yet.{' '}
                  <Link href="/flowforge" className="text-primary underline underline-offset-4">
                    Create one in the gallery
                  </Link>{' '}
                  first.
                </p>
              ) : (
                mine.map((flow) => (
                  <label key={flow.id} className="flex items-center gap-2 text-sm">
                    <Checkbox
                      checked={flowIds.includes(flow.id)}
                      onCheckedChange={(on) =>
                        setFlowIds((ids) => (on ? [...ids, flow.id] : ids.filter((id) => id !== flow.id)))
                      }
                    />
                    {flow.name}
                    <span className="text-xs text-muted-foreground">({flow.status})</span>
                  </label>
                ))
              )}
            </fieldset>
            {error ? (
              <p role="alert" className="text-sm text-destructive">
                {error}
              </p>
            ) : null}
            <Button type="submit" className="justify-self-start" disabled={create.isPending}>
              <KeyRound aria-hidden="true" /> Create key
            </Button>
          </form>
        </CardContent>
      </Card>

      <section aria-labelledby="keys-heading" className="grid gap-2">
        <h2 id="keys-heading" className="text-lg font-semibold">
          Your keys
        </h2>
        <RefreshError what="your keys" query={keys} />
        {keys.isPending ? (
          <Skeleton className="h-20" />
        ) : keys.isLoadingError ? (
          <p className="text-sm text-destructive">Could not load your keys: {keys.error.message}</p>
        ) : keys.data.length === 0 ? (
          <p className="rounded-lg border border-dashed p-6 text-sm text-muted-foreground">
            No keys yet. Create one above to run flows from scripts, other apps or Home Assistant.
          </p>
        ) : (
          <ul className="grid gap-2">
            {keys.data.map((key) => (
              <li
                key={key.id}
                className="flex flex-wrap items-center gap-3 rounded-md border bg-card px-4 py-3 text-sm"
              >
                <span className="font-medium">{key.name}</span>
                <code className="text-xs text-muted-foreground">{key.prefix}…</code>
                <StatusPill tone={key.revokedAt ? 'neutral' : 'good'}>
                  {key.revokedAt ? 'Revoked' : 'Active'}
                </StatusPill>
                <span className="text-xs text-muted-foreground">
                  {key.flowIds.map(flowName).join(', ')} · created{' '}
                  {new Date(key.createdAt).toLocaleDateString()} ·{' '}
                  {key.lastUsedAt ? `last used ${new Date(key.lastUsedAt).toLocaleString()}` : 'never used'}
                </span>
                {key.revokedAt ? null : (
                  <Button
                    size="sm"
                    variant="outline"
                    className="ml-auto"
                    aria-label={`Revoke ${key.name}`}
                    onClick={() => revoke.mutate(key.id)}
                  >
                    Revoke
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
