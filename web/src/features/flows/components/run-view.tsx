import { CheckCircle2, ChevronRight, CircleDashed, Loader2, MinusCircle, XCircle } from 'lucide-react';
import { Link } from 'wouter';
import { FLOW_SERVICES, type FlowRun, type StageRun } from '@nexus/agent/contract';
import { StatusPill, type PillTone } from '@/components/ui/status-pill';
import { cn } from '@/lib/utils';

const RUN_TONE: Record<FlowRun['status'], PillTone> = {
  running: 'warning',
  succeeded: 'good',
  failed: 'bad',
  stopped: 'neutral',
};

const RUN_LABEL: Record<FlowRun['status'], string> = {
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  stopped: 'Stopped',
};

export const TRIGGER_WORDS: Record<FlowRun['trigger'], string> = {
  webhook: 'Webhook',
  webhook_test: 'Test webhook',
  schedule: 'Schedule',
  api: 'API',
  voice: 'Voice',
  manual: 'Manual',
  retry: 'Retry',
  replay: 'Replay',
};

export function RunStatusPill({ status }: { status: FlowRun['status'] }) {
  return (
    <StatusPill tone={RUN_TONE[status]} pulse={status === 'running'}>
      {RUN_LABEL[status]}
    </StatusPill>
  );
}

function StageIcon({ status }: { status: StageRun['status'] }) {
  const common = 'size-4 shrink-0';
  switch (status) {
    case 'succeeded':
      return <CheckCircle2 aria-hidden="true" className={cn(common, 'text-success')} />;
    case 'failed':
      return <XCircle aria-hidden="true" className={cn(common, 'text-destructive')} />;
    case 'running':
      return <Loader2 aria-hidden="true" className={cn(common, 'animate-spin text-warning')} />;
    case 'skipped':
      return <MinusCircle aria-hidden="true" className={cn(common, 'text-muted-foreground')} />;
    default:
      return <CircleDashed aria-hidden="true" className={cn(common, 'text-muted-foreground')} />;
  }
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

export function formatMs(ms: number | null): string {
  if (ms === null) return '';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** One run, stage by stage: status, duration, and what went in and came out. */
export function RunView({ run }: { run: FlowRun }) {
  return (
    <div className="grid min-w-0 grid-cols-1 gap-3" aria-live="polite">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <RunStatusPill status={run.status} />
        <span className="text-muted-foreground">
          Run #{run.id} · {TRIGGER_WORDS[run.trigger]} · version {run.flowVersion}
          {run.durationMs !== null ? ` · ${formatMs(run.durationMs)}` : ''}
        </span>
      </div>
      {run.error ? <p className="text-sm [overflow-wrap:anywhere] text-destructive">{run.error}</p> : null}
      {run.transcript !== null ? (
        <p className="text-sm">
          <span className="text-muted-foreground">Transcript: </span>“{run.transcript}”
        </p>
      ) : null}
      {run.hasClip ? (
        <audio controls src={`/api/flows/runs/${run.id}/audio`} aria-label="The clip this run started with" />
      ) : null}
      {run.hasSpeech ? (
        <audio controls src={`/api/flows/runs/${run.id}/audio?which=speech`} aria-label="What the run said" />
      ) : null}
      <ol className="grid grid-cols-1 gap-2">
        {run.stages.map((stage) => (
          <li key={stage.stageId} className="rounded-md border bg-card" data-stage-status={stage.status}>
            <details>
              <summary className="flex cursor-pointer list-none items-center gap-2 px-3 py-2 text-sm">
                <ChevronRight aria-hidden="true" className="size-4 text-muted-foreground" />
                <StageIcon status={stage.status} />
                <span className="font-medium">{stage.name}</span>
                <span className="text-muted-foreground">
                  {stage.status}
                  {stage.reused ? ' (kept from the retried run)' : ''}
                </span>
                <span className="ml-auto text-xs text-muted-foreground tabular-nums">
                  {formatMs(stage.durationMs)}
                </span>
              </summary>
              <div className="grid grid-cols-1 gap-2 border-t px-3 py-2 text-xs">
                {stage.error ? (
                  <p className="[overflow-wrap:anywhere] text-destructive">{stage.error}</p>
                ) : null}
                {stage.error ? <ServiceFix error={stage.error} /> : null}
                <div className="grid min-w-0 gap-1">
                  <span className="font-medium text-muted-foreground">Input</span>
                  <pre className="max-h-48 overflow-auto rounded bg-muted p-2 whitespace-pre-wrap [overflow-wrap:anywhere]">
                    {show(stage.input)}
                  </pre>
                </div>
                <div className="grid min-w-0 gap-1">
                  <span className="font-medium text-muted-foreground">Output</span>
                  <pre className="max-h-48 overflow-auto rounded bg-muted p-2 whitespace-pre-wrap [overflow-wrap:anywhere]">
                    {show(stage.output)}
                  </pre>
                </div>
              </div>
            </details>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** A stage that failed for want of a service names its page (the agent's hint): make it a link. */
function ServiceFix({ error }: { error: string }) {
  const service = Object.values(FLOW_SERVICES).find((s) => error.includes(s.href));
  if (!service) return null;
  return (
    <Link href={service.href} className="font-medium text-primary underline-offset-4 hover:underline">
      Set up {service.label}
    </Link>
  );
}
