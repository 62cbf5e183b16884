import { useQuery } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, Download, Plus, Radio, Trash2, Upload } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import {
  STAGE_KIND_LABELS,
  STAGE_KINDS,
  TRIGGER_LABELS,
  TRIGGER_TYPES,
  flowDefinitionSchema,
  flowExportSchema,
  type Flow,
  type FlowDefinitionInput,
  type StageKind,
  type Trigger,
} from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { satellitesQueryOptions } from '@/data/satellites';
import {
  exportFlow,
  flowQueryOptions,
  flowsQueryOptions,
  schedulePreviewQueryOptions,
  useDeleteFlow,
  useImportFlow,
  useListen,
  useSaveFlow,
  useSetFlowStatus,
} from '@/data/flows';
import { builderPath } from './gallery-page';
import { RunsPanel, VersionsPanel } from './run-panel';
import { StageConfigForm, configErrors, type Config } from './stage-form';
import { pageContainer } from '@/components/page-container';

interface DraftStage {
  /** Stable React key; the stage's id may be edited. */
  key: string;
  id: string;
  name: string;
  kind: StageKind;
  config: Config;
}

interface Draft {
  name: string;
  description: string;
  trigger: Trigger;
  stages: DraftStage[];
  /** Named secrets: a value typed here replaces the stored one; empty keeps it. */
  secrets: { name: string; value: string; hasValue: boolean }[];
}

const DEFAULT_CONFIG: Record<StageKind, Config> = {
  vad: { minSpeechMs: 200 },
  stt: {},
  llm: { prompt: '{{trigger.text}}' },
  ha_call: { domain: 'light', service: 'turn_on' },
  http_request: { method: 'POST', url: 'https://', headers: [], timeoutMs: 10_000 },
  notify: { title: 'Flow finished', level: 'info' },
  tts: { text: '' },
  condition: {
    value: '',
    operator: 'contains',
    compareTo: '',
    ignoreCase: true,
    otherwise: { action: 'stop' },
  },
};

let keySeq = 0;
const nextKey = () => `s${++keySeq}`;

function toDraft(flow: Flow): Draft {
  return {
    name: flow.name,
    description: flow.description,
    trigger: flow.trigger,
    stages: flow.stages.map((s) => ({
      key: nextKey(),
      id: s.id,
      name: s.name,
      kind: s.kind,
      config: s.config as Config,
    })),
    secrets: flow.secrets.map((s) => ({ name: s.name, value: '', hasValue: s.hasValue ?? false })),
  };
}

function toDefinition(draft: Draft): FlowDefinitionInput {
  return {
    name: draft.name,
    description: draft.description,
    trigger: draft.trigger,
    stages: draft.stages.map(
      ({ id, name, kind, config }) => ({ id, name, kind, config }) as FlowDefinitionInput['stages'][number],
    ),
    secrets: draft.secrets.map(({ name, value }) => ({ name, value })),
  };
}

function uniqueId(kind: StageKind, taken: string[]): string {
  let id: string = kind;
  for (let n = 2; taken.includes(id); n++) id = `${kind}_${n}`;
  return id;
}

const selectClass =
  'h-9 w-full rounded-md border border-input bg-background px-3 text-sm shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

/** The builder (/advanced-pipeline, /pipeline-builder): one flow's trigger and stages, its runs and versions. */
export function BuilderPage() {
  const search = useSearch();
  const flowId = Number(new URLSearchParams(search).get('flow')) || null;
  if (flowId === null) return <PickFlow />;
  return <BuilderLoader flowId={flowId} />;
}

function PickFlow() {
  const flows = useQuery(flowsQueryOptions());
  return (
    <div className={pageContainer('grid gap-4')}>
      <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Pipeline Builder</h1>
      <p className="text-muted-foreground">Choose a flow to edit, or start a new one from the gallery.</p>
      <RefreshError what="your flows" query={flows} />
      {flows.isPending ? (
        <Skeleton className="h-24" />
      ) : flows.isLoadingError ? (
        <p className="text-sm text-destructive">Could not load your flows: {flows.error.message}</p>
      ) : flows.data.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-sm text-muted-foreground">
          You have no flows yet.{' '}
          <Link href="/flowforge" className="text-primary underline underline-offset-4">
            Open the gallery
          </Link>{' '}
          to create one from a template.
        </p>
      ) : (
        <ul className="grid gap-2">
          {flows.data.map((f) => (
            <li key={f.id}>
              <Link
                href={builderPath(f.id)}
                className="block rounded-md border bg-card px-4 py-3 hover:bg-accent"
              >
                <span className="font-medium">{f.name}</span>{' '}
                <span className="text-sm text-muted-foreground">
                  {TRIGGER_LABELS[f.trigger.type]} · {f.stageKinds.length} stages · {f.status}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Link href="/flowforge" className="text-sm text-primary underline underline-offset-4">
        Back to the gallery
      </Link>
    </div>
  );
}

function BuilderLoader({ flowId }: { flowId: number }) {
  const flow = useQuery(flowQueryOptions(flowId));
  if (flow.isPending) {
    return (
      <div className={pageContainer('grid gap-4')} aria-busy="true" aria-label="Loading the flow">
        <Skeleton className="h-10 w-1/3" />
        <Skeleton className="h-40" />
        <Skeleton className="h-64" />
      </div>
    );
  }
  if (flow.isLoadingError) {
    return (
      <div className={pageContainer('grid gap-2')}>
        <h1 className="text-2xl font-semibold">Pipeline Builder</h1>
        <p className="text-destructive">
          Could not load flow {flowId}: {flow.error.message}
        </p>
        <Link href="/flowforge" className="text-primary underline underline-offset-4">
          Back to the gallery
        </Link>
      </div>
    );
  }
  // A new version (saved, restored) starts a fresh draft from it.
  // A failed refresh keeps the builder, and the draft in it, with the flow as it last read.
  return (
    <Builder
      key={`${flow.data.id}:${flow.data.version}`}
      flow={flow.data}
      refreshError={<RefreshError what={`flow ${flowId}`} query={flow} />}
    />
  );
}

function Builder({ flow, refreshError }: { flow: Flow; refreshError?: ReactNode }) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(flow));
  const [newKind, setNewKind] = useState<StageKind>('llm');
  const [formError, setFormError] = useState<string | null>(null);
  const save = useSaveFlow(flow.id);
  const setStatus = useSetFlowStatus(flow.id);
  const remove = useDeleteFlow();
  const importFlow = useImportFlow();
  const [, navigate] = useLocation();
  const fileInput = useRef<HTMLInputElement>(null);
  const stageRefs = useRef(new Map<string, HTMLElement>());
  /** After a move, focus stays on the moved stage's same button (or the stage, at either end). */
  const [focusTarget, setFocusTarget] = useState<{ key: string; button?: 'up' | 'down' } | null>(null);

  useEffect(() => {
    if (!focusTarget) return;
    const stage = stageRefs.current.get(focusTarget.key);
    const button = focusTarget.button
      ? stage?.querySelector<HTMLButtonElement>(`[data-move="${focusTarget.button}"]:not(:disabled)`)
      : null;
    (button ?? stage)?.focus();
  }, [focusTarget, draft.stages]);

  const dirty = JSON.stringify(toDefinition(draft)) !== JSON.stringify(toDefinition(toDraft(flow)));

  function updateStage(key: string, changes: Partial<DraftStage>) {
    setDraft((d) => ({ ...d, stages: d.stages.map((s) => (s.key === key ? { ...s, ...changes } : s)) }));
  }

  function move(index: number, by: -1 | 1) {
    setDraft((d) => {
      const stages = [...d.stages];
      const [stage] = stages.splice(index, 1);
      stages.splice(index + by, 0, stage!);
      setFocusTarget({ key: stage!.key, button: by === -1 ? 'up' : 'down' });
      return { ...d, stages };
    });
  }

  function addStage() {
    setDraft((d) => {
      const stage: DraftStage = {
        key: nextKey(),
        id: uniqueId(
          newKind,
          d.stages.map((s) => s.id),
        ),
        name: STAGE_KIND_LABELS[newKind],
        kind: newKind,
        config: structuredClone(DEFAULT_CONFIG[newKind]),
      };
      setFocusTarget({ key: stage.key });
      return { ...d, stages: [...d.stages, stage] };
    });
  }

  function onSave() {
    const parsed = flowDefinitionSchema.safeParse(toDefinition(draft));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setFormError(
        `${issue?.path.join('.') ? `${issue.path.join('.')}: ` : ''}${issue?.message ?? 'Invalid flow'}`,
      );
      return;
    }
    setFormError(null);
    save.mutate(toDefinition(draft), {
      onSuccess: (saved) => toast({ title: `Saved as version ${saved.version}` }),
      onError: (error) => setFormError(error.message),
    });
  }

  async function onExport() {
    const file = await exportFlow(flow.id);
    const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${flow.name.replace(/[^A-Za-z0-9_-]+/g, '-').toLowerCase() || 'flow'}.json`;
    a.click();
    URL.revokeObjectURL(url);
  }

  async function onImport(file: File) {
    let parsed;
    try {
      parsed = flowExportSchema.safeParse(JSON.parse(await file.text()));
    } catch {
      toast({ title: 'Not a flow file', description: 'The file is not JSON.', variant: 'destructive' });
      return;
    }
    if (!parsed.success) {
      toast({
        title: 'Not a flow file',
        description: parsed.error.issues[0]?.message,
        variant: 'destructive',
      });
      return;
    }
    importFlow.mutate(parsed.data, {
      onSuccess: (created) => navigate(builderPath(created.id)),
      onError: (error) =>
        toast({ title: 'Import failed', description: error.message, variant: 'destructive' }),
    });
  }

  return (
    <div className={pageContainer('grid gap-6')}>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid content-start gap-1">
          <p className="text-sm text-muted-foreground">
            <Link href="/flowforge" className="underline underline-offset-4">
              FlowForge
            </Link>{' '}
            / Pipeline Builder
          </p>
          <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">{flow.name}</h1>
          <p className="text-sm text-muted-foreground">
            Version {flow.version} · {flow.ownerName}
            {dirty ? ' · unsaved changes' : ''}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <label className="flex items-center gap-2 text-sm">
            <Switch
              aria-label="Active"
              checked={flow.status === 'active'}
              disabled={setStatus.isPending}
              onCheckedChange={(on) =>
                setStatus.mutate(on ? 'active' : 'draft', {
                  onError: (error) =>
                    toast({
                      title: 'Could not change the status',
                      description: error.message,
                      variant: 'destructive',
                    }),
                })
              }
            />
            {flow.status === 'active' ? 'Active' : 'Draft'}
          </label>
          <Button variant="outline" onClick={() => void onExport()}>
            <Download aria-hidden="true" /> Export
          </Button>
          <Button variant="outline" onClick={() => fileInput.current?.click()}>
            <Upload aria-hidden="true" /> Import
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept="application/json,.json"
            className="hidden"
            aria-label="Import a flow file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void onImport(file);
              e.target.value = '';
            }}
          />
          <ConfirmButton
            destructive
            variant="ghost"
            aria-label="Delete this flow"
            question={`Delete “${flow.name}”?`}
            description="The flow, its versions and its runs are deleted; its webhook and schedule stop."
            confirmLabel="Delete"
            onConfirm={() => remove.mutate(flow.id, { onSuccess: () => navigate('/flowforge') })}
          >
            <Trash2 aria-hidden="true" />
          </ConfirmButton>
          <Button onClick={onSave} disabled={save.isPending || !dirty}>
            {save.isPending ? 'Saving…' : 'Save'}
          </Button>
        </div>
      </header>
      {refreshError}
      {formError ? (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm"
        >
          {formError}
        </p>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="grid min-w-0 content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Flow</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-3 md:grid-cols-2">
              <div className="grid content-start gap-1">
                <Label htmlFor="flow-name">Name</Label>
                <Input
                  id="flow-name"
                  value={draft.name}
                  onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                />
              </div>
              <div className="grid content-start gap-1">
                <Label htmlFor="flow-trigger">Trigger</Label>
                <select
                  id="flow-trigger"
                  className={selectClass}
                  value={draft.trigger.type}
                  onChange={(e) => {
                    const type = e.target.value as Trigger['type'];
                    setDraft({
                      ...draft,
                      trigger:
                        type === 'schedule'
                          ? { type, cron: '0 7 * * *', timezone: 'UTC' }
                          : type === 'voice'
                            ? { type, satellites: [] }
                            : { type },
                    });
                  }}
                >
                  {TRIGGER_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {TRIGGER_LABELS[t]}
                    </option>
                  ))}
                </select>
              </div>
              <div className="grid gap-1 md:col-span-2">
                <Label htmlFor="flow-description">Description</Label>
                <Textarea
                  id="flow-description"
                  rows={2}
                  value={draft.description}
                  onChange={(e) => setDraft({ ...draft, description: e.target.value })}
                />
              </div>
              <TriggerDetails
                flow={flow}
                trigger={draft.trigger}
                onChange={(trigger) => setDraft({ ...draft, trigger })}
              />
            </CardContent>
          </Card>

          <SecretsCard secrets={draft.secrets} onChange={(secrets) => setDraft({ ...draft, secrets })} />

          <section aria-labelledby="stages-heading" className="grid gap-3">
            <h2 id="stages-heading" className="text-lg font-semibold">
              Stages
            </h2>
            {draft.stages.length === 0 ? (
              <p className="rounded-lg border border-dashed p-6 text-sm text-muted-foreground">
                No stages yet. Add the first one below: a language model, a Home Assistant call, a
                notification…
              </p>
            ) : null}
            <ol className="grid gap-3">
              {draft.stages.map((stage, index) => {
                const errors = configErrors(stage.kind, stage.config);
                const idError = /^[a-z][a-z0-9_]*$/.test(stage.id)
                  ? draft.stages.findIndex((s) => s.id === stage.id) !== index
                    ? 'Two stages have this id'
                    : null
                  : 'Start with a letter; use lower-case letters, digits and underscores';
                return (
                  <li
                    key={stage.key}
                    ref={(el) => {
                      if (el) stageRefs.current.set(stage.key, el);
                      else stageRefs.current.delete(stage.key);
                    }}
                    tabIndex={-1}
                    aria-label={`Stage ${index + 1}: ${stage.name}`}
                    className="rounded-lg border bg-card p-4 outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    <div className="mb-3 flex flex-wrap items-center gap-2">
                      <span className="rounded bg-secondary px-2 py-0.5 text-xs font-medium">
                        {index + 1}. {STAGE_KIND_LABELS[stage.kind]}
                      </span>
                      {Object.keys(errors).length || idError ? (
                        <span className="text-xs text-destructive">Needs attention</span>
                      ) : null}
                      <div className="ml-auto flex gap-1">
                        <Button
                          variant="ghost"
                          size="icon"
                          aria-label={`Move ${stage.name} up`}
                          data-move="up"
                          disabled={index === 0}
                          onClick={() => move(index, -1)}
                        >
                          <ArrowUp aria-hidden="true" />
                        </Button>
                        <Button
                          variant="ghost"
                          size="icon"
                          aria-label={`Move ${stage.name} down`}
                          data-move="down"
                          disabled={index === draft.stages.length - 1}
                          onClick={() => move(index, 1)}
                        >
                          <ArrowDown aria-hidden="true" />
                        </Button>
                        <Button
                          variant="ghost"
                          size="icon"
                          aria-label={`Remove ${stage.name}`}
                          onClick={() =>
                            setDraft((d) => ({ ...d, stages: d.stages.filter((s) => s.key !== stage.key) }))
                          }
                        >
                          <Trash2 aria-hidden="true" />
                        </Button>
                      </div>
                    </div>
                    <div className="mb-3 grid gap-3 md:grid-cols-2">
                      <div className="grid content-start gap-1">
                        <Label htmlFor={`${stage.key}-name`}>Stage name</Label>
                        <Input
                          id={`${stage.key}-name`}
                          value={stage.name}
                          onChange={(e) => updateStage(stage.key, { name: e.target.value })}
                        />
                      </div>
                      <div className="grid content-start gap-1">
                        <Label htmlFor={`${stage.key}-id`}>Id (used as {`{{stages.${stage.id}.…}}`})</Label>
                        <Input
                          id={`${stage.key}-id`}
                          value={stage.id}
                          aria-invalid={idError ? true : undefined}
                          onChange={(e) => updateStage(stage.key, { id: e.target.value })}
                        />
                        {idError ? <p className="text-xs text-destructive">{idError}</p> : null}
                      </div>
                    </div>
                    <StageConfigForm
                      stageKey={stage.key}
                      kind={stage.kind}
                      config={stage.config}
                      onChange={(config) => updateStage(stage.key, { config })}
                      laterStages={draft.stages.slice(index + 1).map((s) => ({ id: s.id, name: s.name }))}
                    />
                  </li>
                );
              })}
            </ol>
            <div className="flex flex-wrap items-end gap-2">
              <div className="grid content-start gap-1">
                <Label htmlFor="new-stage-kind">Stage kind</Label>
                <select
                  id="new-stage-kind"
                  className={selectClass}
                  value={newKind}
                  onChange={(e) => setNewKind(e.target.value as StageKind)}
                >
                  {STAGE_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {STAGE_KIND_LABELS[k]}
                    </option>
                  ))}
                </select>
              </div>
              <Button variant="outline" onClick={addStage}>
                <Plus aria-hidden="true" /> Add stage
              </Button>
            </div>
          </section>
        </div>
        <aside className="grid min-w-0 grid-cols-1 content-start gap-6">
          <RunsPanel flow={flow} unsaved={dirty} />
          <VersionsPanel flow={flow} />
        </aside>
      </div>
    </div>
  );
}

function TriggerDetails({
  flow,
  trigger,
  onChange,
}: {
  flow: Flow;
  trigger: Trigger;
  onChange: (trigger: Trigger) => void;
}) {
  const listen = useListen(flow.id);
  const cron = trigger.type === 'schedule' ? trigger.cron : '';
  const timezone = trigger.type === 'schedule' ? trigger.timezone : 'UTC';
  const preview = useQuery(schedulePreviewQueryOptions(cron, timezone));
  const origin = typeof window === 'undefined' ? '' : window.location.origin;

  if (trigger.type === 'schedule') {
    return (
      <>
        <div className="grid content-start gap-1">
          <Label htmlFor="flow-cron">Cron expression</Label>
          <Input
            id="flow-cron"
            value={trigger.cron}
            aria-describedby="flow-cron-hint"
            onChange={(e) => onChange({ ...trigger, cron: e.target.value })}
          />
          <p id="flow-cron-hint" className="text-xs text-muted-foreground">
            minute hour day month weekday, e.g. 0 7 * * 1-5 (a sixth leading field counts seconds)
          </p>
        </div>
        <div className="grid content-start gap-1">
          <Label htmlFor="flow-tz">Time zone</Label>
          <Input
            id="flow-tz"
            value={trigger.timezone}
            onChange={(e) => onChange({ ...trigger, timezone: e.target.value })}
          />
        </div>
        <div className="grid gap-1 md:col-span-2">
          <h3 className="text-sm font-medium">Next five runs</h3>
          <RefreshError what="the next runs" query={preview} />
          {preview.isPending && cron ? (
            <Skeleton className="h-20" />
          ) : preview.isLoadingError ? (
            <p className="text-sm text-destructive">{preview.error.message.replace(/^\d+: /, '')}</p>
          ) : (
            <ol className="grid gap-0.5 text-sm tabular-nums">
              {(preview.data ?? []).map((when) => (
                <li key={when}>
                  {new Date(when).toLocaleString(undefined, {
                    timeZone: timezone,
                    dateStyle: 'medium',
                    timeStyle: 'medium',
                  })}{' '}
                  <span className="text-muted-foreground">({timezone})</span>
                </li>
              ))}
            </ol>
          )}
          {flow.status !== 'active' ? (
            <p className="text-xs text-muted-foreground">The schedule runs only while the flow is active.</p>
          ) : null}
        </div>
      </>
    );
  }
  if (trigger.type === 'webhook') {
    if (!flow.webhook) {
      return (
        <p className="text-sm text-muted-foreground md:col-span-2">Save the flow to get its webhook URLs.</p>
      );
    }
    // The agent clears it once the test event came or the time ran out.
    const listening = flow.webhook.listeningUntil !== null;
    return (
      <div className="grid gap-2 text-sm md:col-span-2">
        <div className="grid content-start gap-1">
          <span className="font-medium">Production URL</span>
          <code className="overflow-x-auto rounded bg-muted px-2 py-1 text-xs">
            POST {origin + flow.webhook.productionPath}
          </code>
          <span className="text-xs text-muted-foreground">
            Works while the flow is active. The request body goes to the first stage.
          </span>
        </div>
        <div className="grid content-start gap-1">
          <span className="font-medium">Test URL</span>
          <code className="overflow-x-auto rounded bg-muted px-2 py-1 text-xs">
            POST {origin + flow.webhook.testPath}
          </code>
          <div className="flex flex-wrap items-center gap-2">
            <Button
              size="sm"
              variant={listening ? 'secondary' : 'outline'}
              onClick={() => listen.mutate(!listening)}
            >
              <Radio aria-hidden="true" /> {listening ? 'Stop listening' : 'Listen for test event'}
            </Button>
            <span className="text-xs text-muted-foreground">
              {listening
                ? 'Listening: the next call to the test URL runs the flow once.'
                : 'The test URL answers only while listening.'}
            </span>
          </div>
        </div>
      </div>
    );
  }
  if (trigger.type === 'api') {
    return (
      <div className="grid gap-1 text-sm md:col-span-2">
        <code className="overflow-x-auto rounded bg-muted px-2 py-1 text-xs">
          curl -X POST -H &quot;Authorization: Bearer &lt;key&gt;&quot; -H &quot;Content-Type:
          application/json&quot; -d &apos;{'{"input": {"text": "…"}}'}&apos; {origin}/api/flows/{flow.id}
          /run?wait=true
        </code>
        <span className="text-xs text-muted-foreground">
          Create a key for this flow on the{' '}
          <Link href="/flowforge/api-keys" className="text-primary underline underline-offset-4">
            API keys
          </Link>{' '}
          screen. API runs need the flow to be active.
        </span>
      </div>
    );
  }
  if (trigger.type === 'voice')
    return <VoiceTriggerDetails flow={flow} trigger={trigger} onChange={onChange} />;
  return null;
}

/** Which satellites may send what they hear to this flow, and how a clip reaches it. */
function VoiceTriggerDetails({
  flow,
  trigger,
  onChange,
}: {
  flow: Flow;
  trigger: Extract<Trigger, { type: 'voice' }>;
  onChange: (trigger: Trigger) => void;
}) {
  const satellites = useQuery(satellitesQueryOptions());
  const chosen = trigger.satellites ?? [];
  const toggle = (id: number, on: boolean) =>
    onChange({ ...trigger, satellites: on ? [...chosen, id] : chosen.filter((s) => s !== id) });
  return (
    <div className="grid gap-2 text-sm md:col-span-2">
      <p className="text-muted-foreground">
        A WAV clip (Content-Type: audio/wav) sent to /api/flows/{flow.id}/run starts the flow: from the
        Session Simulations screen, with an API key, or from a satellite below with its device token
        (…/run?satellite=&lt;id&gt;). The voice activity detection and speech-to-text stages take it from
        there; the satellite is {'{{trigger.satellite.name}}'}.
      </p>
      <fieldset className="grid gap-1.5">
        <legend className="mb-1 font-medium">Satellites that may start this flow</legend>
        {satellites.isLoading ? (
          <Skeleton className="h-6 w-48" />
        ) : !satellites.data?.length ? (
          <span className="text-muted-foreground">
            No satellites on this hub yet. Once one is added, choose it here.
          </span>
        ) : (
          satellites.data.map((satellite) => (
            <label key={satellite.id} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={chosen.includes(satellite.id)}
                onChange={(e) => toggle(satellite.id, e.target.checked)}
              />
              {satellite.name} <span className="text-xs text-muted-foreground">(id {satellite.id})</span>
            </label>
          ))
        )}
      </fieldset>
    </div>
  );
}

const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The flow's named secrets: typed once, stored encrypted, used as {{secrets.NAME}}, never shown again. */
function SecretsCard({
  secrets,
  onChange,
}: {
  secrets: Draft['secrets'];
  onChange: (secrets: Draft['secrets']) => void;
}) {
  const change = (index: number, patch: Partial<Draft['secrets'][number]>) =>
    onChange(secrets.map((s, i) => (i === index ? { ...s, ...patch } : s)));
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Secrets</h2>
        </CardTitle>
        <p className="text-sm text-muted-foreground">
          Tokens and passwords the stages need. Use one in any text field as{' '}
          <code className="rounded bg-muted px-1">{'{{secrets.NAME}}'}</code>: it is stored encrypted, never
          shown again, left out of exports and masked in the runs.
        </p>
      </CardHeader>
      <CardContent className="grid gap-3">
        {secrets.length === 0 ? (
          <p className="text-sm text-muted-foreground">No secrets. Add one when a stage needs a token.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Secrets">
            {secrets.map((secret, index) => {
              const nameError =
                secret.name === ''
                  ? 'Name the secret'
                  : !SECRET_NAME.test(secret.name)
                    ? 'Letters, digits and _, not starting with a digit'
                    : secrets.findIndex((s) => s.name === secret.name) !== index
                      ? 'Two secrets have this name'
                      : null;
              const valueError =
                secret.value !== '' && secret.value.length < 4
                  ? 'A secret has at least 4 characters'
                  : secret.value === '' && !secret.hasValue
                    ? 'Type the value: runs that use it fail until then'
                    : null;
              return (
                <li key={index} className="grid gap-2 sm:grid-cols-[1fr_1.5fr_auto] sm:items-start">
                  <div className="grid gap-1">
                    <Label htmlFor={`secret-name-${index}`}>Name</Label>
                    <Input
                      id={`secret-name-${index}`}
                      value={secret.name}
                      aria-invalid={nameError !== null}
                      onChange={(e) => change(index, { name: e.target.value })}
                    />
                    {nameError ? <span className="text-xs text-destructive">{nameError}</span> : null}
                  </div>
                  <div className="grid gap-1">
                    <Label htmlFor={`secret-value-${index}`}>Value</Label>
                    <Input
                      id={`secret-value-${index}`}
                      type="password"
                      autoComplete="off"
                      value={secret.value}
                      placeholder={secret.hasValue ? 'Stored — type to replace' : ''}
                      aria-invalid={valueError !== null && secret.value !== ''}
                      onChange={(e) => change(index, { value: e.target.value })}
                    />
                    {valueError ? <span className="text-xs text-muted-foreground">{valueError}</span> : null}
                  </div>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="sm:mt-6"
                    aria-label={`Remove the secret ${secret.name || index + 1}`}
                    onClick={() => onChange(secrets.filter((_, i) => i !== index))}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
        <div>
          <Button
            variant="outline"
            size="sm"
            onClick={() => onChange([...secrets, { name: '', value: '', hasValue: false }])}
          >
            <Plus aria-hidden="true" /> Add a secret
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
