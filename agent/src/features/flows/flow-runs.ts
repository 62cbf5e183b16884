import { HttpError } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { LivePublisher } from '../../live/hub.js';
import {
  flowRunTopic,
  flowRunsTopic,
  type FlowRun,
  type RunTrigger,
  type StageRun,
} from '../../contract/flows.js';
import type { EndedFlowRun } from '../alerts/index.js';
import type { ClipStore } from './flow-clips.js';
import { executeStage, pendingStage, type RunState } from './flow-runner.js';
import { namedSecretValues, type FlowSecretStore } from './flow-secret-store.js';
import { requireSecrets, secretMasker } from './flow-secrets.js';
import { parseStages, toRun, type StoredStage } from './flow-views.js';
import type { FlowPorts } from './flows.ports.js';
import type { FlowWithOwner, FlowsRepository } from './flows.repository.js';
import type { FlowRunRow } from './flows.table.js';

/*
 * A run's life, whatever started it: recorded as running, its stages executed one by one (each
 * step saved and published live), ended succeeded or failed, and its bookkeeping settled even when
 * something outside the stages breaks. The triggers (flow-triggers.ts) decide whether a run may
 * start and with what input; from there on everything happens here, so every trigger gets the
 * same records, masking, limits and alerts.
 */

/** Runs kept per flow; older ones (and their clips) are deleted as new ones finish. */
export const MAX_RUNS_PER_FLOW = 200;
/** A stage's input/output stored with the run is cut to this many characters of JSON. */
const STORED_VALUE_MAX_CHARS = 32 * 1024;
/** What a run says when it broke off outside any stage; the details are in the agent's log. */
export const RUN_BROKE_OFF = 'The run broke off on an internal error; the agent log has the details';

/** What a caller that started a run hears while it goes (a satellite waiting to answer its user). */
export interface RunHooks {
  /** The STT stage has the transcript. */
  onTranscript?: (text: string) => void;
  /** A TTS stage has spoken: its WAV. */
  onSpeech?: (wav: Buffer) => void;
}

export interface StartOptions {
  wait?: boolean;
  audio?: Buffer | null;
  /** Which definition to run; the flow's current one by default. */
  definition?: { version: number; stages: StoredStage[]; secretsSealed: string | null };
  retryOf?: FlowRunRow;
  /**
   * The clip arrives later (a satellite still streaming): the run is recorded now and its stages
   * start once this resolves; a rejection ends the run failed with the rejection's message.
   */
  audioLater?: Promise<Buffer>;
  hooks?: RunHooks;
  /** Told the new run's id as soon as it is recorded. */
  onRecorded?: (runId: number) => void;
}

type RunContext = { trigger: unknown; stages: Record<string, unknown>; run: Record<string, unknown> };

function bounded(value: unknown): unknown {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  if (text === undefined) return null;
  return text.length > STORED_VALUE_MAX_CHARS
    ? { truncated: `${text.slice(0, STORED_VALUE_MAX_CHARS)}…` }
    : value;
}

function storable(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

export function createFlowRuns(deps: {
  repo: FlowsRepository;
  secrets: FlowSecretStore;
  clips: ClipStore;
  live: LivePublisher;
  ports: FlowPorts;
  log: Logger;
  onRunEnded?: (run: EndedFlowRun) => void;
  now: () => number;
}) {
  const { repo, clips, now } = deps;
  const inFlight = new Set<Promise<unknown>>();

  const interrupted = repo.markInterrupted();
  if (interrupted)
    deps.log.warn({ runs: interrupted }, 'flows: runs interrupted by the last stop marked failed');

  /** Tells the alerts a run has ended, and the run's live topics (when watched) where it is. */
  function publishRun(run: FlowRunRow) {
    if (deps.onRunEnded && run.finishedAt && (run.status === 'failed' || run.status === 'succeeded')) {
      const flow = repo.get(run.flowId);
      deps.onRunEnded({
        flowId: run.flowId,
        flowName: flow?.name ?? `#${run.flowId}`,
        ownerId: flow?.ownerId ?? null,
        runId: run.id,
        status: run.status,
        error: run.error,
      });
    }
    const runTopic = flowRunTopic(run.id);
    const listTopic = flowRunsTopic(run.flowId);
    if (!deps.live.hasSubscribers(runTopic) && !deps.live.hasSubscribers(listTopic)) return;
    const view = toRun(run);
    deps.live.publish(runTopic, view);
    deps.live.publish(listTopic, view);
  }

  /**
   * Records a run and executes it: awaited with `wait`, otherwise answered at once as running.
   * The returned promise never rejects for the run's own failures (they are the run's record).
   */
  async function start(
    flow: FlowWithOwner,
    trigger: RunTrigger,
    input: unknown,
    opts: StartOptions = {},
  ): Promise<FlowRun> {
    const definition = opts.definition ?? {
      version: flow.version,
      stages: parseStages(flow.stages),
      secretsSealed: flow.secretsSealed,
    };
    const stages: StageRun[] = definition.stages.map(pendingStage);
    let startIndex = 0;
    const context: RunContext = {
      trigger: input,
      stages: {},
      run: {},
    };
    // A retry keeps what succeeded before the failed stage and runs again from there.
    if (opts.retryOf) {
      const previous = JSON.parse(opts.retryOf.stages) as StageRun[];
      const failedAt = previous.findIndex((s) => s.status === 'failed');
      startIndex = Math.max(0, failedAt);
      for (let i = 0; i < startIndex; i++) {
        const before = previous[i];
        const stage = stages[i];
        if (!before || !stage || before.stageId !== stage.stageId) {
          startIndex = i;
          break;
        }
        stages[i] = { ...before, reused: true };
        if (before.status === 'succeeded') context.stages[before.stageId] = before.output;
      }
    }

    const startedAt = now();
    let row = repo.insertRun({
      flowId: flow.id,
      flowVersion: definition.version,
      trigger,
      status: 'running',
      input: JSON.stringify(bounded(input ?? null)),
      stages: JSON.stringify(stages),
      clipFile: null,
      transcript: null,
      retryOf: opts.retryOf?.id ?? null,
      startedAt: new Date(startedAt),
    });
    const keepClip = (audio: Buffer) => {
      const clipFile = clips.keepClip(row.id, audio);
      repo.updateRun(row.id, { clipFile });
      row = { ...row, clipFile };
    };
    if (opts.audio) keepClip(opts.audio);
    opts.onRecorded?.(row.id);
    context.run = {
      id: row.id,
      startedAt: new Date(startedAt).toISOString(),
      date: new Date(startedAt).toDateString(),
    };
    publishRun(row);

    const started = row;
    const run = (audio: Buffer | null) =>
      execute(flow, row, definition, stages, startIndex, context, audio, opts.hooks);
    // Never rejects: nobody awaits a run started without ?wait, and a rejection nobody handles
    // would end the agent. A run that breaks outside its stages is recorded as failed.
    const execution: Promise<FlowRun> = (
      opts.audioLater
        ? opts.audioLater.then(
            (audio) => {
              keepClip(audio);
              // Now the clip's size is known: the run's input and {{trigger.audio}} say it.
              context.trigger = {
                ...(context.trigger as object),
                audio: { bytes: audio.length, format: 'wav' },
              };
              const storedInput = JSON.stringify(bounded(context.trigger));
              repo.updateRun(row.id, { input: storedInput });
              row = { ...row, input: storedInput };
              return run(audio);
            },
            (reason: unknown) =>
              abandonRun(
                flow.id,
                started,
                stages,
                reason,
                reason instanceof Error ? reason.message : String(reason),
              ),
          )
        : run(opts.audio ?? null)
    )
      .catch((error: unknown) => abandonRun(flow.id, started, stages, error))
      .finally(() => inFlight.delete(execution));
    inFlight.add(execution);
    if (opts.wait) return execution;
    return toRun(row);
  }

  /**
   * A run whose own bookkeeping failed (a record that cannot be written or serialized): marked
   * failed if the database still takes it, logged either way, and answered as failed.
   */
  function abandonRun(
    flowId: number,
    started: FlowRunRow,
    stages: StageRun[],
    error: unknown,
    /** Why the run ended before its stages, in words (e.g. its satellite went away); logged as a warning. */
    reason?: string,
  ): FlowRun {
    if (reason) deps.log.warn({ flowId, runId: started.id, reason }, 'flows: run ended before its stages');
    else deps.log.error({ flowId, runId: started.id, err: error }, 'flows: run broke off');
    const brokeOff = reason ?? RUN_BROKE_OFF;
    const finished = now();
    const changes = {
      status: 'failed' as const,
      error: brokeOff,
      stages: JSON.stringify(
        stages.map((stage): StageRun => {
          const settled: StageRun =
            stage.status === 'running'
              ? { ...stage, status: 'failed', error: brokeOff }
              : stage.status === 'pending'
                ? { ...stage, status: 'skipped' }
                : stage;
          return storable(settled) ? settled : { ...settled, input: null, output: null };
        }),
      ),
      finishedAt: new Date(finished),
      durationMs: finished - started.startedAt.getTime(),
    };
    const row = { ...started, ...changes };
    try {
      repo.updateRun(started.id, changes);
      publishRun(row);
    } catch (err) {
      deps.log.error({ flowId, runId: started.id, err }, 'flows: could not record the failed run');
    }
    return toRun(row);
  }

  /** Runs the stages from startIndex on, saving and publishing the run after every step. */
  async function execute(
    flow: FlowWithOwner,
    initial: FlowRunRow,
    definition: { stages: StoredStage[]; secretsSealed: string | null },
    stages: StageRun[],
    startIndex: number,
    context: RunContext,
    audio: Buffer | null,
    hooks: RunHooks = {},
  ): Promise<FlowRun> {
    const state: RunState = { audio, speech: null, transcript: null };
    // A hook is the caller's (e.g. a satellite connection): its failure is not the run's.
    const tell = (fn: () => void) => {
      try {
        fn();
      } catch (err) {
        deps.log.warn({ flowId: flow.id, runId: initial.id, err }, 'flows: a run hook failed');
      }
    };
    const secrets = deps.secrets.open(definition.secretsSealed);
    const named = namedSecretValues(secrets);
    // Templates read {{secrets.NAME}}; the run's records never show a value (masked below).
    const runContext = { ...context, secrets: named };
    const mask = secretMasker([...secrets.values()]);
    // What a stage took and gave, as the run keeps it: masked and cut to size. A value that cannot
    // be serialized (nested thousands deep, e.g. a hostile HTTP answer) is left out, not fatal.
    const recorded = (value: unknown): unknown => {
      try {
        return bounded(mask(value));
      } catch {
        return { omitted: 'This value could not be stored (it is nested too deeply)' };
      }
    };
    const owner = { id: flow.ownerId, role: flow.ownerRole };
    let row = initial;
    let runError: string | null = null;
    const save = (changes: Partial<FlowRunRow>) => {
      row = { ...row, ...changes, stages: JSON.stringify(stages) };
      repo.updateRun(row.id, { ...changes, stages: row.stages });
      publishRun(row);
    };

    let i = startIndex;
    while (i < definition.stages.length) {
      const stage = definition.stages[i]!;
      const started = now();
      const t0 = performance.now();
      stages[i] = { ...stages[i]!, status: 'running', startedAt: new Date(started).toISOString() };
      save({});
      const heardBefore = state.transcript;
      const saidBefore = state.speech;
      try {
        requireSecrets(stage, named);
        const at = i;
        const outcome = await executeStage(stage, runContext, {
          ports: deps.ports,
          owner,
          trigger: initial.trigger,
          secrets,
          state,
          // The run's stage shows it waits (e.g. its place in the cloud queue) while it runs.
          progress: (output) => {
            if (stages[at]?.status !== 'running') return;
            stages[at] = { ...stages[at], output: recorded(output) };
            save({});
          },
        });
        if (hooks.onTranscript && state.transcript !== null && state.transcript !== heardBefore)
          tell(() => hooks.onTranscript!(state.transcript!));
        if (hooks.onSpeech && state.speech && state.speech !== saidBefore)
          tell(() => hooks.onSpeech!(state.speech!));
        stages[i] = {
          ...stages[i]!,
          status: 'succeeded',
          input: recorded(outcome.input),
          output: recorded(outcome.output),
          durationMs: Math.round(performance.now() - t0),
        };
        context.stages[stage.id] = outcome.output;
        if (outcome.next && 'stop' in outcome.next) {
          for (let j = i + 1; j < stages.length; j++) stages[j] = { ...stages[j]!, status: 'skipped' };
          break;
        }
        if (outcome.next && 'goto' in outcome.next) {
          const target = definition.stages.findIndex((s) => s.id === (outcome.next as { goto: string }).goto);
          for (let j = i + 1; j < target; j++) stages[j] = { ...stages[j]!, status: 'skipped' };
          i = target > i ? target : definition.stages.length;
          save(state.transcript !== null ? { transcript: state.transcript } : {});
          continue;
        }
      } catch (error) {
        // Anything can be thrown; a stage failure is recorded from whatever it was.
        const detail = (error instanceof Error ? error : new Error(String(error))) as Error & {
          input?: unknown;
          output?: unknown;
        };
        const message = String(mask(detail.message));
        runError = `${stage.name}: ${message}`;
        stages[i] = {
          ...stages[i]!,
          status: 'failed',
          error: message,
          input: recorded(detail.input ?? null),
          output: recorded(detail.output ?? null),
          durationMs: Math.round(performance.now() - t0),
        };
        for (let j = i + 1; j < stages.length; j++) stages[j] = { ...stages[j]!, status: 'skipped' };
        if (!(error instanceof HttpError))
          deps.log.warn({ flowId: flow.id, runId: row.id, err: detail }, 'flows: stage crashed');
        break;
      }
      save(state.transcript !== null ? { transcript: state.transcript } : {});
      i++;
    }

    if (state.speech) clips.keepSpeech(row.id, state.speech);
    const finished = now();
    save({
      status: runError ? 'failed' : 'succeeded',
      error: runError,
      transcript: state.transcript,
      finishedAt: new Date(finished),
      durationMs: finished - row.startedAt.getTime(),
    });
    clips.removeAudio(repo.pruneRuns(flow.id, MAX_RUNS_PER_FLOW));
    return toRun(row);
  }

  return {
    start,

    /** Resolves when no run is in progress (tests and shutdown). */
    async idle() {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
  };
}

export type FlowRuns = ReturnType<typeof createFlowRuns>;
