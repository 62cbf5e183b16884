import { Fact } from '@/components/fact-list';
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Boxes, Download, Info, Trash2, X } from 'lucide-react';
import { type LlmModelInfo, type PullJob } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/features/auth';
import { formatBytes } from '@/lib/format-bytes';
import { errorMessage } from '@/lib/request';
import {
  modelDetailsQueryOptions,
  modelsQueryOptions,
  providersQueryOptions,
  pullsQueryOptions,
  useCancelPull,
  useDeleteModel,
  useStartPull,
  usePullsLive,
} from '@/data/llm';
import { ConfirmButton } from '@/components/ui/confirm';
import { EmptyState, LoadError, RefreshError, RowsSkeleton, Section } from './section';

/**
 * Models across providers (size, family, quantisation, loaded, VRAM), their details, and for
 * admins pulls with live per-layer progress and deletes. `ollamaOnly` shows Ollama's models only.
 */
export function ModelsPanel({ ollamaOnly = false }: { ollamaOnly?: boolean }) {
  const { isAdmin } = useAuth();
  const models = useQuery(modelsQueryOptions());
  const deleteModel = useDeleteModel();
  const [details, setDetails] = useState<LlmModelInfo | null>(null);
  const list = (models.data?.models ?? []).filter((m) => !ollamaOnly || m.providerKind === 'ollama');

  return (
    <div className="grid gap-4">
      {isAdmin ? <PullsSection /> : null}
      <Section
        title="Models"
        icon={Boxes}
        description="Every model the providers offer. Loaded models are in memory and answer at once."
      >
        <RefreshError what="the models" query={models} />
        {models.isPending ? (
          <RowsSkeleton rows={4} />
        ) : models.isLoadingError ? (
          <LoadError what="the models" query={models} />
        ) : list.length === 0 ? (
          <EmptyState icon={Boxes} title="No models yet">
            {isAdmin
              ? 'Pull one above, for example llama3.2:3b, or add a provider.'
              : 'Ask an admin of this hub to pull a model.'}
          </EmptyState>
        ) : (
          <div className="overflow-x-auto">
            <Table label="Models table">
              <TableHeader>
                <TableRow>
                  <TableHead>Model</TableHead>
                  <TableHead>Provider</TableHead>
                  <TableHead className="text-right">Size</TableHead>
                  <TableHead>Family</TableHead>
                  <TableHead>Parameters</TableHead>
                  <TableHead>Quantisation</TableHead>
                  <TableHead>Loaded</TableHead>
                  {isAdmin ? <TableHead className="text-right">Actions</TableHead> : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((m) => (
                  <TableRow key={`${m.providerId}/${m.name}`} data-model={m.name}>
                    <TableCell className="font-medium">
                      {m.name}
                      {!m.allowed ? (
                        <Badge variant="outline" className="ml-2">
                          Pro plan
                        </Badge>
                      ) : null}
                    </TableCell>
                    <TableCell>
                      {m.providerName}
                      <span className="ml-1 text-xs text-muted-foreground">({m.modelClass})</span>
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {m.size === null ? '—' : formatBytes(m.size)}
                    </TableCell>
                    <TableCell>{m.family ?? '—'}</TableCell>
                    <TableCell>{m.parameterSize ?? '—'}</TableCell>
                    <TableCell>{m.quantization ?? '—'}</TableCell>
                    <TableCell>
                      {m.loaded ? (
                        <Badge variant="success">
                          Loaded{m.sizeVram !== null ? ` · ${formatBytes(m.sizeVram)} VRAM` : ''}
                        </Badge>
                      ) : (
                        <span className="text-muted-foreground">No</span>
                      )}
                    </TableCell>
                    {isAdmin ? (
                      <TableCell className="text-right whitespace-nowrap">
                        {m.providerKind === 'ollama' ? (
                          <>
                            <Button
                              variant="ghost"
                              size="icon"
                              aria-label={`Details of ${m.name}`}
                              onClick={() => setDetails(m)}
                            >
                              <Info aria-hidden="true" />
                            </Button>
                            <ConfirmButton
                              destructive
                              variant="ghost"
                              size="icon"
                              aria-label={`Delete ${m.name}`}
                              question={`Delete ${m.name}?`}
                              description={`Its files are removed from ${m.providerName}. You can pull it again later.`}
                              confirmLabel="Delete"
                              onConfirm={() =>
                                deleteModel.mutate(
                                  { providerId: m.providerId, name: m.name },
                                  {
                                    onSuccess: () => toast({ title: `${m.name} deleted` }),
                                    onError: (error) =>
                                      toast({
                                        title: `Could not delete ${m.name}`,
                                        description: errorMessage(error),
                                        variant: 'destructive',
                                      }),
                                  },
                                )
                              }
                            >
                              <Trash2 aria-hidden="true" />
                            </ConfirmButton>
                          </>
                        ) : null}
                      </TableCell>
                    ) : null}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
        {models.data?.unreachable.length ? (
          <p className="text-sm text-warning">
            Not answering, so their models are missing:{' '}
            {models.data.unreachable.map((u) => `${u.name} (${u.error})`).join('; ')}
          </p>
        ) : null}
      </Section>
      <ModelDetailsDialog model={details} onClose={() => setDetails(null)} />
    </div>
  );
}

function ModelDetailsDialog({ model, onClose }: { model: LlmModelInfo | null; onClose: () => void }) {
  const details = useQuery(modelDetailsQueryOptions(model));
  return (
    <Dialog open={model !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{model?.name}</DialogTitle>
          <DialogDescription>As {model?.providerName} describes it.</DialogDescription>
        </DialogHeader>
        <RefreshError what="the details" query={details} />
        {details.isPending ? (
          <RowsSkeleton rows={5} />
        ) : details.isLoadingError ? (
          <LoadError what="the details" error={details.error} />
        ) : (
          <div className="grid max-h-[60vh] gap-4 overflow-y-auto text-sm">
            <dl className="grid grid-cols-2 gap-x-6 gap-y-2 sm:grid-cols-3">
              <Fact layout="stacked" label="Context length">
                {details.data.contextLength?.toLocaleString() ?? '—'} tokens
              </Fact>
              <Fact layout="stacked" label="Family">
                {details.data.family ?? '—'}
              </Fact>
              <Fact layout="stacked" label="Parameters">
                {details.data.parameterSize ?? '—'}
                {details.data.parameterCount ? ` (${details.data.parameterCount.toLocaleString()})` : ''}
              </Fact>
              <Fact layout="stacked" label="Quantisation">
                {details.data.quantization ?? '—'}
              </Fact>
              <Fact layout="stacked" label="Format">
                {details.data.format ?? '—'}
              </Fact>
            </dl>
            <Block title="Template" text={details.data.template} />
            <Block title="Parameters" text={details.data.parameters} />
            <Block title="System prompt" text={details.data.system} />
            <Block title="License" text={details.data.license?.slice(0, 2000) ?? null} />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

function Block({ title, text }: { title: string; text: string | null }) {
  if (!text) return null;
  return (
    <div>
      <h3 className="mb-1 text-xs font-semibold text-muted-foreground uppercase">{title}</h3>
      <pre className="overflow-x-auto rounded-md bg-muted p-3 text-xs whitespace-pre-wrap">{text}</pre>
    </div>
  );
}

const percent = (job: PullJob) => (job.total > 0 ? Math.floor((job.completed / job.total) * 100) : 0);

/** Pull form and the pull jobs, followed live; a reload re-attaches because the jobs live in the agent. */
function PullsSection() {
  const pulls = useQuery(pullsQueryOptions());
  const providers = useQuery(providersQueryOptions());
  const startPull = useStartPull();
  const cancelPull = useCancelPull();
  const [name, setName] = useState('');
  const ollamas = (providers.data ?? []).filter((p) => p.kind === 'ollama' && p.enabled);
  const [providerId, setProviderId] = useState<string>('');
  const target = providerId || (ollamas[0] ? String(ollamas[0].id) : '');

  usePullsLive();

  function submit(e: FormEvent) {
    e.preventDefault();
    const model = name.trim();
    if (!model) return;
    startPull.mutate(
      { model, providerId: target ? Number(target) : undefined },
      {
        onSuccess: () => setName(''),
        onError: (error) =>
          toast({
            title: `Could not pull ${model}`,
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );
  }

  return (
    <Section
      title="Pull a model"
      icon={Download}
      description="Downloads from the Ollama library into an Ollama. It keeps going if you leave this page."
    >
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <div className="grid min-w-56 flex-1 gap-1.5">
          <Label htmlFor="pull-model">Model name</Label>
          <Input
            id="pull-model"
            placeholder="e.g. llama3.2:3b"
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
          />
        </div>
        {ollamas.length > 1 ? (
          <div className="grid gap-1.5">
            <Label htmlFor="pull-provider">Into</Label>
            <Select value={target} onValueChange={setProviderId}>
              <SelectTrigger id="pull-provider" className="w-44">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {ollamas.map((p) => (
                  <SelectItem key={p.id} value={String(p.id)}>
                    {p.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        ) : null}
        <Button type="submit" disabled={!name.trim() || startPull.isPending}>
          <Download aria-hidden="true" />
          Pull
        </Button>
      </form>
      {pulls.isLoadingError ? (
        <LoadError what="the pulls" query={pulls} />
      ) : (
        <RefreshError what="the pulls" query={pulls} />
      )}
      {pulls.data?.length ? (
        <ul className="grid gap-3" aria-label="Pulls">
          {pulls.data.map((job) => (
            <li
              key={job.id}
              className="grid gap-2 rounded-lg border p-3"
              data-pull={job.model}
              data-status={job.status}
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div className="min-w-0">
                  <span className="font-medium">{job.model}</span>
                  <span className="ml-2 text-xs text-muted-foreground">into {job.providerName}</span>
                </div>
                <div className="flex items-center gap-2">
                  <PullBadge job={job} />
                  {job.status === 'running' ? (
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => cancelPull.mutate(job.id)}
                      aria-label={`Cancel pulling ${job.model}`}
                    >
                      <X aria-hidden="true" />
                      Cancel
                    </Button>
                  ) : null}
                </div>
              </div>
              {job.status === 'running' || job.status === 'success' ? (
                <>
                  <Progress value={percent(job)} aria-label={`${job.model} progress`} />
                  <div className="flex flex-wrap justify-between gap-2 text-xs text-muted-foreground tabular-nums">
                    <span>{job.phase}</span>
                    <span>
                      {formatBytes(job.completed)} of {job.total ? formatBytes(job.total) : '…'} (
                      {percent(job)}%)
                    </span>
                  </div>
                  {job.layers.length > 1 && job.status === 'running' ? (
                    <ul className="grid gap-1 text-xs text-muted-foreground tabular-nums">
                      {job.layers.map((l) => (
                        <li key={l.digest} className="flex justify-between gap-2">
                          <span className="truncate font-mono">
                            {l.digest.replace('sha256:', '').slice(0, 12)}
                          </span>
                          <span>
                            {formatBytes(l.completed)} / {formatBytes(l.total)}
                          </span>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </>
              ) : null}
              {job.error ? (
                <p role="alert" className="text-sm text-destructive">
                  {job.error}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}

function PullBadge({ job }: { job: PullJob }) {
  switch (job.status) {
    case 'running':
      return <Badge variant="secondary">Pulling</Badge>;
    case 'success':
      return <Badge variant="success">Done</Badge>;
    case 'cancelled':
      return <Badge variant="outline">Cancelled</Badge>;
    case 'error':
      return <Badge variant="destructive">Failed</Badge>;
  }
}
