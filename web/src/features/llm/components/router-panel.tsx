import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ArrowDown, Plus, Route, Server, Trash2, X } from 'lucide-react';
import {
  DEFAULT_ROUTER_TIMEOUT_MS,
  LLM_TASKS,
  type LlmModelInfo,
  type LlmProvider,
  type LlmTask,
  type RouterRule,
  type RouterTarget,
} from '@nexus/agent/contract';
import { StatusBadge } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import {
  endpointsQueryOptions,
  modelsQueryOptions,
  providersQueryOptions,
  routerQueryOptions,
  useDeleteRule,
  useSaveRule,
} from '@/data/llm';
import { HealthBadge } from './providers-panel';
import { LoadError, RefreshError, RowsSkeleton, Section } from './section';

const TASK_LABELS: Record<LlmTask, { title: string; description: string }> = {
  chat: { title: 'Chat', description: 'People chatting on /llm and /ollama.' },
  pipeline: { title: 'Pipeline', description: 'The language-model stage of voice and FlowForge pipelines.' },
  summarise: { title: 'Summarise', description: 'Summaries of conversations, logs and documents.' },
};

/**
 * The router (admins): per task, the providers and models to ask in order, with fallback when
 * one is down or slower than the timeout, or the load spread over several hubs. Below, each
 * provider's share: chats streaming now, answered and failed since the agent started.
 */
export function RouterPanel() {
  const router = useQuery(routerQueryOptions());
  const providers = useQuery(providersQueryOptions());
  const models = useQuery(modelsQueryOptions());

  if (router.isPending || providers.isPending) return <RowsSkeleton rows={6} />;
  if (router.isLoadingError) return <LoadError what="the router" query={router} />;
  if (providers.isLoadingError) return <LoadError what="the providers" error={providers.error} />;

  return (
    <div className="grid gap-4">
      <RefreshError what="the router" query={router} />
      <RefreshError what="the providers" query={providers} />
      <div className="grid gap-4 xl:grid-cols-3">
        {LLM_TASKS.map((task) => (
          <RuleEditor
            key={task}
            task={task}
            rule={router.data.rules.find((r) => r.task === task) ?? null}
            providers={providers.data}
            models={models.data?.models ?? []}
          />
        ))}
      </div>
      <Section
        title="Load per provider"
        icon={Route}
        description="Since the agent started. The spread strategy sends new chats to the least busy hub."
      >
        <div className="overflow-x-auto">
          <Table label="Load per provider table">
            <TableHeader>
              <TableRow>
                <TableHead>Provider</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="text-right">Latency</TableHead>
                <TableHead className="text-right">Streaming now</TableHead>
                <TableHead className="text-right">Answered</TableHead>
                <TableHead className="text-right">Failed</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {router.data.providers.map((p) => (
                <TableRow key={p.providerId} data-provider={p.name}>
                  <TableCell className="font-medium">{p.name}</TableCell>
                  <TableCell>
                    <HealthBadge health={p} />
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {p.latencyMs != null ? `${p.latencyMs} ms` : '—'}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{p.activeRequests}</TableCell>
                  <TableCell className="text-right tabular-nums" data-testid="served">
                    {p.servedRequests}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{p.failedRequests}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      </Section>
      <EndpointsSection />
    </div>
  );
}

/**
 * The built-in provider's Ollama endpoints: this hub's and every fleet node running Ollama. A
 * chat goes to the one with the fewest outstanding requests that has the model; one that failed
 * rests until its retry time.
 */
function EndpointsSection() {
  const endpoints = useQuery(endpointsQueryOptions());
  return (
    <Section
      title="Ollama endpoints"
      icon={Server}
      description="The hub’s own Ollama and the fleet nodes running Ollama share the local provider’s chats."
    >
      <RefreshError what="the endpoints" query={endpoints} />
      {endpoints.isPending ? (
        <RowsSkeleton rows={2} />
      ) : endpoints.isLoadingError ? (
        <LoadError what="the endpoints" query={endpoints} />
      ) : (
        <div className="overflow-x-auto">
          <Table label="Ollama endpoints table">
            <TableHeader>
              <TableRow>
                <TableHead>Node</TableHead>
                <TableHead>Address</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="text-right">Outstanding</TableHead>
                <TableHead>Models</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {endpoints.data.map((e) => (
                <TableRow key={e.id} data-endpoint={e.node}>
                  <TableCell className="font-medium">
                    {e.node}
                    {e.id === 'hub' ? <span className="text-muted-foreground"> (this hub)</span> : null}
                  </TableCell>
                  <TableCell className="font-mono text-xs">{e.url}</TableCell>
                  <TableCell>
                    <StatusBadge word={e.healthy ? 'online' : 'offline'} title={e.lastError ?? undefined} />
                    {e.retryAt ? (
                      <span className="ml-2 text-xs text-muted-foreground">
                        retry {new Date(e.retryAt).toLocaleTimeString()}
                      </span>
                    ) : null}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{e.outstanding}</TableCell>
                  <TableCell className="text-xs">
                    {e.models === null ? '—' : e.models.length === 0 ? 'none' : e.models.join(', ')}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </Section>
  );
}

function RuleEditor({
  task,
  rule,
  providers,
  models,
}: {
  task: LlmTask;
  rule: RouterRule | null;
  providers: LlmProvider[];
  models: LlmModelInfo[];
}) {
  const save = useSaveRule();
  const remove = useDeleteRule();
  const [targets, setTargets] = useState<RouterTarget[]>(rule?.targets ?? []);
  const [strategy, setStrategy] = useState<'failover' | 'spread'>(rule?.strategy ?? 'failover');
  const [timeoutMs, setTimeoutMs] = useState(String(rule?.timeoutMs ?? DEFAULT_ROUTER_TIMEOUT_MS));
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const label = TASK_LABELS[task];
  const providerName = (id: number) => providers.find((p) => p.id === id)?.name ?? `#${id}`;
  const modelsOf = (id: number) => models.filter((m) => m.providerId === id).map((m) => m.name);
  const first = providers.find((p) => p.enabled);

  function setTarget(i: number, change: Partial<RouterTarget>) {
    setTargets((ts) => ts.map((t, j) => (j === i ? { ...t, ...change } : t)));
  }

  function submit() {
    save.mutate(
      { task, rule: { targets, strategy, timeoutMs: Number(timeoutMs), enabled } },
      {
        onSuccess: () => toast({ title: `${label.title} rule saved` }),
        onError: (error) =>
          toast({
            title: 'Could not save the rule',
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );
  }

  return (
    <Section
      title={label.title}
      icon={Route}
      description={label.description}
      actions={
        rule ? (
          <Badge variant={rule.enabled ? 'success' : 'outline'}>{rule.enabled ? 'Active' : 'Off'}</Badge>
        ) : (
          <Badge variant="outline">No rule</Badge>
        )
      }
    >
      {targets.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          Without a rule a chat goes to the providers that have the chosen model, highest priority first. Add
          targets to choose the order and a fallback.
        </p>
      ) : (
        <ol className="grid gap-2" aria-label={`${label.title} targets in order`}>
          {targets.map((t, i) => {
            const options = modelsOf(t.providerId);
            return (
              <li key={i} className="grid gap-2">
                {i > 0 ? (
                  <span className="flex items-center gap-1 text-xs text-muted-foreground">
                    <ArrowDown aria-hidden="true" className="size-3" />
                    {strategy === 'spread' && t.model === targets[0]?.model
                      ? 'or, whichever is less busy'
                      : 'if that is down or slow'}
                  </span>
                ) : null}
                <div className="flex flex-wrap items-center gap-2">
                  <Select
                    value={String(t.providerId)}
                    onValueChange={(v) => setTarget(i, { providerId: Number(v) })}
                  >
                    <SelectTrigger className="w-36" aria-label={`Provider of target ${i + 1}`}>
                      <SelectValue>{providerName(t.providerId)}</SelectValue>
                    </SelectTrigger>
                    <SelectContent>
                      {providers.map((p) => (
                        <SelectItem key={p.id} value={String(p.id)}>
                          {p.name}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <Input
                    className="w-44 flex-1"
                    aria-label={`Model of target ${i + 1}`}
                    list={`models-${task}-${i}`}
                    value={t.model}
                    onChange={(e) => setTarget(i, { model: e.target.value })}
                    placeholder="model name"
                  />
                  <datalist id={`models-${task}-${i}`}>
                    {options.map((m) => (
                      <option key={m} value={m} />
                    ))}
                  </datalist>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove target ${i + 1}`}
                    onClick={() => setTargets((ts) => ts.filter((_, j) => j !== i))}
                  >
                    <X aria-hidden="true" />
                  </Button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <Button
        variant="outline"
        size="sm"
        className="justify-self-start"
        disabled={!first}
        onClick={() =>
          first && setTargets((ts) => [...ts, { providerId: first.id, model: modelsOf(first.id)[0] ?? '' }])
        }
      >
        <Plus aria-hidden="true" />
        Add target
      </Button>
      <div className="grid grid-cols-2 gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor={`strategy-${task}`}>Strategy</Label>
          <Select value={strategy} onValueChange={(v) => setStrategy(v as 'failover' | 'spread')}>
            <SelectTrigger id={`strategy-${task}`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="failover">Failover (in order)</SelectItem>
              <SelectItem value="spread">Spread over hubs</SelectItem>
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`timeout-${task}`}>Timeout (ms)</Label>
          <Input
            id={`timeout-${task}`}
            type="number"
            min={100}
            max={600000}
            step={100}
            value={timeoutMs}
            onChange={(e) => setTimeoutMs(e.target.value)}
          />
        </div>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Switch id={`enabled-${task}`} checked={enabled} onCheckedChange={setEnabled} />
          <Label htmlFor={`enabled-${task}`}>Rule on</Label>
        </div>
        <div className="flex gap-2">
          {rule ? (
            <Button
              variant="ghost"
              size="sm"
              onClick={() =>
                remove.mutate(task, {
                  onSuccess: () => {
                    setTargets([]);
                    toast({ title: `${label.title} rule removed` });
                  },
                })
              }
            >
              <Trash2 aria-hidden="true" />
              Remove
            </Button>
          ) : null}
          <Button
            size="sm"
            onClick={submit}
            disabled={targets.length === 0 || targets.some((t) => !t.model.trim()) || save.isPending}
          >
            Save rule
          </Button>
        </div>
      </div>
    </Section>
  );
}
