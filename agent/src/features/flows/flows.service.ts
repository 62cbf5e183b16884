import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  API_KEY_PREFIX,
  FLOWS_TOPIC,
  WEBHOOK_TEST_LISTEN_MS,
  flowDefinitionSchema,
  flowRunTopic,
  flowRunsTopic,
  type ApiKey,
  type CreateApiKeyInput,
  type CreatedApiKey,
  type Flow,
  type FlowDefinition,
  type FlowExport,
  type FlowRun,
  type FlowSummary,
  type FlowVersion,
  type RunTrigger,
  type Stage,
  type StageRun,
  triggerSchema,
  type FlowSecret,
  type Trigger,
} from '../../contract/flows.js';
import {
  HttpError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  tooManyRequests,
} from '../../lib/http-error.js';
import type { EndedFlowRun } from '../alerts/index.js';
import type { AuditRecorder } from '../audit/index.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { LivePublisher } from '../../live/hub.js';
import { compilePattern } from './flow-pattern.js';
import { executeStage, pendingStage, secretKey, type RunState } from './flow-runner.js';
import {
  flowSecretKey,
  flowSecretName,
  isFlowSecretKey,
  requireSecrets,
  secretMasker,
} from './flow-secrets.js';
import { createFlowScheduler, nextRuns } from './flow-scheduler.js';
import type { FlowPorts } from './flows.ports.js';
import type { FlowWithOwner, FlowsRepository } from './flows.repository.js';
import type { FlowApiKeyRow, FlowRunRow } from './flows.table.js';
import { createRateLimiter } from './rate-limiter.js';

/** Runs kept per flow; older ones (and their clips) are deleted as new ones finish. */
export const MAX_RUNS_PER_FLOW = 200;
/** Versions kept per flow; the oldest are dropped past this. */
export const MAX_VERSIONS_PER_FLOW = 50;
/** Runs listed per request. */
export const RUNS_PAGE = 50;
/** Webhook calls per flow: sustained rate and burst. */
export const WEBHOOK_RATE = { perSecond: 200, burst: 400 };
/** Runs per API key: sustained rate and burst. */
export const API_KEY_RATE = { perSecond: 1, burst: 30 };
/** A stage's input/output stored with the run is cut to this many characters of JSON. */
const STORED_VALUE_MAX_CHARS = 32 * 1024;
const CLIPS_DIR = 'flows/clips';
/** What a run says when it broke off outside any stage; the details are in the agent's log. */
export const RUN_BROKE_OFF = 'The run broke off on an internal error; the agent log has the details';

/** What a caller that started a run hears while it goes (a satellite waiting to answer its user). */
export interface RunHooks {
  /** The STT stage has the transcript. */
  onTranscript?: (text: string) => void;
  /** A TTS stage has spoken: its WAV. */
  onSpeech?: (wav: Buffer) => void;
}

/**
 * A voice run recorded while its audio still streams in (a Wyoming satellite after its wake word):
 * `supply` gives the finished clip and the stages run; `fail` ends it failed with the reason.
 * `done` resolves with the finished run either way, never rejects.
 */
export interface StreamedVoiceRun {
  runId: number;
  flowId: number;
  supply(wav: Buffer): void;
  fail(reason: string): void;
  done: Promise<FlowRun>;
}

export interface Actor {
  id: number;
  role: 'user' | 'admin' | 'superadmin';
}

const isAdmin = (actor: Actor) => actor.role === 'admin' || actor.role === 'superadmin';

type StoredStage = Stage;

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Constant-time equality of two strings of any length (hashing first evens the lengths). */
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

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

function isWav(buffer: Buffer): boolean {
  return (
    buffer.length >= 12 &&
    buffer.toString('ascii', 0, 4) === 'RIFF' &&
    buffer.toString('ascii', 8, 12) === 'WAVE'
  );
}

export function createFlowsService(deps: {
  repo: FlowsRepository;
  secrets: SecretBox;
  live: LivePublisher;
  ports: FlowPorts;
  log: Logger;
  dataDir: string;
  /** The security event log: API keys made and revoked (who and where come from the request). */
  audit?: AuditRecorder;
  /** Told when a run has ended, succeeded or failed (the alerts). */
  onRunEnded?: (run: EndedFlowRun) => void;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const { repo } = deps;
  const clipsDir = path.join(deps.dataDir, CLIPS_DIR);
  const listening = new Map<number, number>();
  const webhookLimiter = createRateLimiter({ ...WEBHOOK_RATE, now });
  const apiKeyLimiter = createRateLimiter({ ...API_KEY_RATE, now });
  const inFlight = new Set<Promise<unknown>>();

  const interrupted = repo.markInterrupted();
  if (interrupted)
    deps.log.warn({ runs: interrupted }, 'flows: runs interrupted by the last stop marked failed');

  // ---- access ----

  function ownFlow(actor: Actor, id: number): FlowWithOwner {
    const flow = repo.get(id);
    // Someone else's flow is not found, so ids do not reveal what exists.
    if (!flow || (flow.ownerId !== actor.id && !isAdmin(actor))) throw notFound(`No flow with id ${id}`);
    return flow;
  }

  function ownRun(actor: Actor, runId: number): { run: FlowRunRow; flow: FlowWithOwner } {
    const run = repo.run(runId);
    if (!run) throw notFound(`No run with id ${runId}`);
    const flow = repo.get(run.flowId);
    if (!flow || (flow.ownerId !== actor.id && !isAdmin(actor))) throw notFound(`No run with id ${runId}`);
    return { run, flow };
  }

  deps.live.registerTopic(FLOWS_TOPIC, {
    allow: (user, topic) => {
      const actor = { id: user.id, role: user.role as Actor['role'] };
      const runMatch = /^flows\.run\.(\d+)$/.exec(topic);
      const flowMatch = /^flows\.(\d+)\.runs$/.exec(topic);
      try {
        if (runMatch) ownRun(actor, Number(runMatch[1]));
        else if (flowMatch) ownFlow(actor, Number(flowMatch[1]));
        else return false;
        return true;
      } catch {
        return false;
      }
    },
  });

  // ---- secrets ----

  function openSecrets(sealed: string | null): Map<string, string> {
    if (!sealed) return new Map();
    return new Map(Object.entries(JSON.parse(deps.secrets.open(sealed)) as Record<string, string>));
  }

  /**
   * Moves secret values out of the definition into the sealed map: secret header values, and the
   * flow's named secrets (declared ones without a value are kept as empty, e.g. after an import).
   * An empty value keeps the one stored before under the same key, so the builder can save
   * without ever having seen it.
   */
  function separateSecrets(
    stages: Stage[],
    previous: Map<string, string>,
    flowSecrets: FlowSecret[] | undefined,
  ): { stages: StoredStage[]; secretsSealed: string | null } {
    const kept: Record<string, string> = {};
    // Not given: the stored named secrets stay, values and all.
    const declared =
      flowSecrets ??
      [...previous]
        .filter(([key]) => isFlowSecretKey(key))
        .map(([key]) => ({ name: flowSecretName(key), value: '' }));
    for (const secret of declared) {
      const key = flowSecretKey(secret.name);
      kept[key] = secret.value !== '' ? secret.value : (previous.get(key) ?? '');
    }
    const stored = stages.map((stage) => {
      if (stage.kind !== 'http_request') return stage;
      const headers = stage.config.headers.map((header) => {
        if (!header.secret) return { name: header.name, value: header.value, secret: false };
        const key = secretKey(stage.id, header.name);
        const value = header.value !== '' ? header.value : previous.get(key);
        if (value !== undefined) kept[key] = value;
        return { name: header.name, value: '', secret: true };
      });
      return { ...stage, config: { ...stage.config, headers } };
    });
    return {
      stages: stored,
      secretsSealed: Object.keys(kept).length ? deps.secrets.seal(JSON.stringify(kept)) : null,
    };
  }

  /** The flow's named secrets as the builder sees them: names and whether each has a value. */
  function secretNames(secrets: Map<string, string>): FlowSecret[] {
    return [...secrets]
      .filter(([key]) => isFlowSecretKey(key))
      .map(([key, value]) => ({ name: flowSecretName(key), value: '', hasValue: value !== '' }));
  }

  function withSecretFlags(stages: StoredStage[], secrets: Map<string, string>): Stage[] {
    return stages.map((stage) => {
      if (stage.kind !== 'http_request') return stage;
      const headers = stage.config.headers.map((h) =>
        h.secret ? { ...h, value: '', hasValue: secrets.has(secretKey(stage.id, h.name)) } : h,
      );
      return { ...stage, config: { ...stage.config, headers } };
    });
  }

  // ---- views ----

  // Through the schema, so triggers stored before a field was added get its default.
  const parseTrigger = (text: string): Trigger => triggerSchema.parse(JSON.parse(text));
  const parseStages = (text: string) => JSON.parse(text) as StoredStage[];

  function webhookSecret(flow: FlowWithOwner): string {
    return deps.secrets.open(flow.webhookSecretSealed);
  }

  function toFlow(flow: FlowWithOwner): Flow {
    const secrets = openSecrets(flow.secretsSealed);
    const trigger = parseTrigger(flow.trigger);
    let webhook: Flow['webhook'] = null;
    if (trigger.type === 'webhook') {
      const base = `/api/hooks/${flow.id}/${webhookSecret(flow)}`;
      const until = listening.get(flow.id);
      webhook = {
        productionPath: base,
        testPath: `${base}/test`,
        listeningUntil: until && until > now() ? new Date(until).toISOString() : null,
      };
    }
    let upcoming: string[] | null = null;
    if (trigger.type === 'schedule') {
      try {
        upcoming = nextRuns(trigger.cron, trigger.timezone, 5, new Date(now()));
      } catch {
        upcoming = [];
      }
    }
    return {
      id: flow.id,
      name: flow.name,
      description: flow.description,
      status: flow.status,
      trigger,
      stages: withSecretFlags(parseStages(flow.stages), secrets),
      secrets: secretNames(secrets),
      version: flow.version,
      ownerId: flow.ownerId,
      ownerName: flow.ownerName,
      webhook,
      nextRuns: upcoming,
      createdAt: flow.createdAt.toISOString(),
      updatedAt: flow.updatedAt.toISOString(),
    };
  }

  function toRun(run: FlowRunRow): FlowRun {
    const stages = JSON.parse(run.stages) as StageRun[];
    return {
      id: run.id,
      flowId: run.flowId,
      flowVersion: run.flowVersion,
      trigger: run.trigger,
      status: run.status,
      input: JSON.parse(run.input) as unknown,
      error: run.error,
      stages,
      hasClip: run.clipFile !== null,
      hasSpeech: stages.some((s) => s.kind === 'tts' && s.status === 'succeeded' && !s.reused),
      transcript: run.transcript,
      retryOf: run.retryOf,
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt?.toISOString() ?? null,
      durationMs: run.durationMs,
    };
  }

  function toApiKey(row: FlowApiKeyRow): ApiKey {
    return {
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      flowIds: JSON.parse(row.flowIds) as number[],
      createdAt: row.createdAt.toISOString(),
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
      revokedAt: row.revokedAt?.toISOString() ?? null,
    };
  }

  // ---- scheduling ----

  const scheduler = createFlowScheduler({
    log: deps.log,
    fire: async (flowId) => {
      const flow = repo.get(flowId);
      if (!flow || flow.status !== 'active') return;
      try {
        await startRun(flow, 'schedule', { firedAt: new Date(now()).toISOString() }, { wait: true });
      } catch (error) {
        deps.log.warn({ flowId, err: (error as Error).message }, 'flows: scheduled run not started');
      }
    },
  });

  function syncSchedule(flow: { id: number; status: string; trigger: string }) {
    const trigger = parseTrigger(flow.trigger);
    scheduler.sync({
      id: flow.id,
      active: flow.status === 'active',
      schedule: trigger.type === 'schedule' ? { cron: trigger.cron, timezone: trigger.timezone } : null,
    });
  }

  function checkDefinition(definition: FlowDefinition) {
    if (definition.trigger.type === 'schedule') {
      nextRuns(definition.trigger.cron, definition.trigger.timezone, 1);
    }
    for (const stage of definition.stages) {
      // A fixed pattern is checked now; one built from {{placeholders}} only when a run renders it.
      if (stage.kind !== 'condition' || stage.config.operator !== 'matches') continue;
      if (stage.config.compareTo.includes('{{')) continue;
      try {
        compilePattern(stage.config.compareTo, stage.config.ignoreCase);
      } catch (error) {
        throw badRequest(`Stage "${stage.name}": ${(error as Error).message}`);
      }
    }
  }

  // ---- runs ----

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

  function clipPath(file: string) {
    return path.join(clipsDir, path.basename(file));
  }

  /** Deletes the audio kept with these runs (their clips and what TTS said). */
  function removeAudio(runIds: number[]) {
    for (const id of runIds) {
      fs.rm(clipPath(`${id}.wav`), { force: true }, () => undefined);
      fs.rm(clipPath(`${id}-speech.wav`), { force: true }, () => undefined);
    }
  }

  interface StartOptions {
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

  async function startRun(
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
    const context: { trigger: unknown; stages: Record<string, unknown>; run: Record<string, unknown> } = {
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
      // People's voices: the agent's alone, like the data directory (0700/0600 whatever the umask allows).
      fs.mkdirSync(clipsDir, { recursive: true, mode: 0o700 });
      const clipFile = `${row.id}.wav`;
      fs.writeFileSync(clipPath(clipFile), audio, { mode: 0o600 });
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

  async function execute(
    flow: FlowWithOwner,
    initial: FlowRunRow,
    definition: { stages: StoredStage[]; secretsSealed: string | null },
    stages: StageRun[],
    startIndex: number,
    context: { trigger: unknown; stages: Record<string, unknown>; run: Record<string, unknown> },
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
    const secrets = openSecrets(definition.secretsSealed);
    const named = Object.fromEntries(
      [...secrets].filter(([key]) => isFlowSecretKey(key)).map(([key, v]) => [flowSecretName(key), v]),
    );
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

    if (state.speech) {
      fs.mkdirSync(clipsDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(clipPath(`${row.id}-speech.wav`), state.speech, { mode: 0o600 });
    }
    const finished = now();
    save({
      status: runError ? 'failed' : 'succeeded',
      error: runError,
      transcript: state.transcript,
      finishedAt: new Date(finished),
      durationMs: finished - row.startedAt.getTime(),
    });
    removeAudio(repo.pruneRuns(flow.id, MAX_RUNS_PER_FLOW));
    return toRun(row);
  }

  function audioInput(audio: Buffer | null): unknown {
    return audio ? { audio: { bytes: audio.length, format: 'wav' } } : undefined;
  }

  function checkAudio(audio: Buffer | null) {
    if (audio && !isWav(audio)) throw new HttpError(415, 'Voice input must be a WAV file (audio/wav)');
  }

  // ---- the service ----

  return {
    list(actor: Actor): FlowSummary[] {
      const rows = repo.list(isAdmin(actor) ? null : actor.id);
      const last = repo.lastRuns(rows.map((r) => r.id));
      return rows.map((flow) => {
        const run = last.get(flow.id);
        return {
          id: flow.id,
          name: flow.name,
          description: flow.description,
          status: flow.status,
          trigger: parseTrigger(flow.trigger),
          stageKinds: parseStages(flow.stages).map((s) => s.kind),
          version: flow.version,
          ownerId: flow.ownerId,
          ownerName: flow.ownerName,
          lastRun: run ? { id: run.id, status: run.status, startedAt: run.startedAt.toISOString() } : null,
          updatedAt: flow.updatedAt.toISOString(),
        };
      });
    },

    get(actor: Actor, id: number): Flow {
      return toFlow(ownFlow(actor, id));
    },

    create(actor: Actor, definition: FlowDefinition): Flow {
      checkDefinition(definition);
      const { stages, secretsSealed } = separateSecrets(definition.stages, new Map(), definition.secrets);
      const row = repo.create({
        ownerId: actor.id,
        name: definition.name,
        description: definition.description,
        trigger: JSON.stringify(definition.trigger),
        stages: JSON.stringify(stages),
        secretsSealed,
        webhookSecretSealed: deps.secrets.seal(randomBytes(24).toString('base64url')),
      });
      return toFlow(repo.get(row.id)!);
    },

    update(actor: Actor, id: number, definition: FlowDefinition): Flow {
      const current = ownFlow(actor, id);
      checkDefinition(definition);
      const { stages, secretsSealed } = separateSecrets(
        definition.stages,
        openSecrets(current.secretsSealed),
        definition.secrets,
      );
      const row = repo.update(id, {
        name: definition.name,
        description: definition.description,
        trigger: JSON.stringify(definition.trigger),
        stages: JSON.stringify(stages),
        secretsSealed,
      })!;
      repo.pruneVersions(id, MAX_VERSIONS_PER_FLOW);
      syncSchedule(row);
      return toFlow(repo.get(id)!);
    },

    setStatus(actor: Actor, id: number, status: 'draft' | 'active'): Flow {
      const flow = ownFlow(actor, id);
      if (status === 'active' && parseStages(flow.stages).length === 0) {
        throw conflict('Add at least one stage before activating the flow');
      }
      repo.setStatus(id, status);
      syncSchedule({ ...flow, status });
      return toFlow(repo.get(id)!);
    },

    remove(actor: Actor, id: number): void {
      ownFlow(actor, id);
      const runIds = repo.runIds(id);
      repo.delete(id);
      scheduler.remove(id);
      listening.delete(id);
      removeAudio(runIds);
    },

    versions(actor: Actor, id: number): FlowVersion[] {
      ownFlow(actor, id);
      return repo.versions(id).map((v) => ({
        id: v.id,
        version: v.version,
        name: v.name,
        stageCount: parseStages(v.stages).length,
        trigger: parseTrigger(v.trigger),
        createdAt: v.createdAt.toISOString(),
      }));
    },

    /** Saves an earlier version's content as the newest version. */
    restore(actor: Actor, id: number, version: number): Flow {
      ownFlow(actor, id);
      const old = repo.version(id, version);
      if (!old) throw notFound(`Flow ${id} has no version ${version}`);
      const row = repo.update(id, {
        name: old.name,
        description: old.description,
        trigger: old.trigger,
        stages: old.stages,
        secretsSealed: old.secretsSealed,
      })!;
      repo.pruneVersions(id, MAX_VERSIONS_PER_FLOW);
      syncSchedule(row);
      return toFlow(repo.get(id)!);
    },

    exportFlow(actor: Actor, id: number): FlowExport {
      const flow = ownFlow(actor, id);
      // Stored stages already hold no secret values; hasValue is not part of an export either.
      const stages = parseStages(flow.stages);
      return {
        format: 'nexus-flow',
        formatVersion: 1,
        flow: flowDefinitionSchema.parse({
          name: flow.name,
          description: flow.description,
          trigger: parseTrigger(flow.trigger),
          stages,
          // The names travel, so the flow still says what it needs; the values never do.
          secrets: secretNames(openSecrets(flow.secretsSealed)).map(({ name }) => ({ name })),
        }),
      };
    },

    schedulePreview(cron: string, timezone: string): string[] {
      return nextRuns(cron, timezone, 5, new Date(now()));
    },

    listen(actor: Actor, id: number): Flow {
      const flow = ownFlow(actor, id);
      if (parseTrigger(flow.trigger).type !== 'webhook')
        throw conflict('This flow is not started by a webhook');
      listening.set(id, now() + WEBHOOK_TEST_LISTEN_MS);
      return toFlow(flow);
    },

    stopListening(actor: Actor, id: number): Flow {
      const flow = ownFlow(actor, id);
      listening.delete(id);
      return toFlow(flow);
    },

    /** POST /api/hooks/:flowId/:secret[/test]: unknown flow and wrong secret answer alike. */
    async webhook(
      flowId: number,
      secret: string,
      test: boolean,
      readBody: () => Promise<unknown>,
      wait: boolean,
    ): Promise<FlowRun> {
      const flow = repo.get(flowId);
      const unknownHook = notFound('No webhook at this address');
      if (!flow || parseTrigger(flow.trigger).type !== 'webhook') throw unknownHook;
      if (!sameSecret(secret, webhookSecret(flow))) throw unknownHook;
      if (test) {
        const until = listening.get(flowId);
        if (!until || until <= now()) {
          throw notFound(
            'The test webhook is not listening: press Listen for test event in the builder first',
          );
        }
        listening.delete(flowId);
      } else if (flow.status !== 'active') {
        throw notFound(
          'This flow is not active: activate it to use the production webhook, or use the test URL',
        );
      }
      const wait_s = webhookLimiter.take(String(flowId));
      if (wait_s > 0) throw tooManyRequests('Too many webhook calls for this flow', wait_s);
      const body = await readBody();
      return startRun(flow, test ? 'webhook_test' : 'webhook', body ?? null, { wait });
    },

    /** A signed-in person runs a flow from the builder or the simulations screen. */
    async runAsUser(
      actor: Actor,
      id: number,
      input: unknown,
      audio: Buffer | null,
      wait: boolean,
    ): Promise<FlowRun> {
      const flow = ownFlow(actor, id);
      checkAudio(audio);
      return startRun(flow, audio ? 'voice' : 'manual', audio ? audioInput(audio) : (input ?? null), {
        wait,
        audio,
      });
    },

    /** A program runs a flow with an API key (Authorization: Bearer). */
    async runWithApiKey(
      key: string,
      id: number,
      input: unknown,
      audio: Buffer | null,
      wait: boolean,
    ): Promise<FlowRun> {
      const row = repo.apiKeyByHash(hashKey(key));
      if (!row || row.revokedAt) throw new HttpError(401, 'Invalid or revoked API key');
      const scope = JSON.parse(row.flowIds) as number[];
      if (!scope.includes(id)) throw forbidden('This API key may not run this flow');
      const waitS = apiKeyLimiter.take(String(row.id));
      if (waitS > 0) throw tooManyRequests('Too many runs with this API key', waitS);
      const flow = repo.get(id);
      if (!flow || flow.ownerId !== row.userId) throw notFound(`No flow with id ${id}`);
      if (flow.status !== 'active') throw conflict('This flow is not active');
      checkAudio(audio);
      repo.touchApiKey(row.id);
      return startRun(flow, audio ? 'voice' : 'api', audio ? audioInput(audio) : (input ?? null), {
        wait,
        audio,
      });
    },

    /**
     * A satellite sends what it heard after its wake word: an active voice flow that lists the
     * satellite runs on it, as its owner. The trigger input names the satellite for the stages.
     */
    async runFromSatellite(
      satellite: { id: number; name: string },
      id: number,
      audio: Buffer | null,
      wait: boolean,
    ): Promise<FlowRun> {
      const flow = repo.get(id);
      const trigger = flow ? parseTrigger(flow.trigger) : null;
      if (!flow || trigger?.type !== 'voice' || !trigger.satellites.includes(satellite.id)) {
        // One answer for "no such flow" and "not yours to start", as for API keys out of scope.
        throw forbidden(`Satellite ${satellite.name} may not start flow ${id}`);
      }
      if (flow.status !== 'active') throw conflict('This flow is not active');
      if (!audio) throw new HttpError(415, 'A satellite sends what it heard as a WAV clip (audio/wav)');
      checkAudio(audio);
      const waitS = apiKeyLimiter.take(`satellite:${satellite.id}`);
      if (waitS > 0) throw tooManyRequests('Too many runs from this satellite', waitS);
      const input = { audio: { bytes: audio.length, format: 'wav' }, satellite };
      return startRun(flow, 'voice', input, { wait, audio });
    },

    /** The active voice flow whose trigger lists this satellite (the oldest if several do), or null. */
    voiceFlowForSatellite(satelliteId: number): { id: number; name: string } | null {
      for (const flow of repo.activeWithTrigger('voice')) {
        const trigger = parseTrigger(flow.trigger);
        if (trigger.type === 'voice' && trigger.satellites.includes(satelliteId))
          return { id: flow.id, name: flow.name };
      }
      return null;
    },

    /**
     * A satellite woke and streams what it hears: the run is recorded at once (trigger voice, its
     * input naming the satellite), and runs its stages when the caller supplies the clip. Refused
     * like runFromSatellite: 403 when the flow does not list the satellite, 409 inactive, 429.
     */
    startStreamedVoiceRun(
      satellite: { id: number; name: string },
      flowId: number,
      hooks: RunHooks = {},
    ): StreamedVoiceRun {
      const flow = repo.get(flowId);
      const trigger = flow ? parseTrigger(flow.trigger) : null;
      if (!flow || trigger?.type !== 'voice' || !trigger.satellites.includes(satellite.id))
        throw forbidden(`Satellite ${satellite.name} may not start flow ${flowId}`);
      if (flow.status !== 'active') throw conflict('This flow is not active');
      const waitS = apiKeyLimiter.take(`satellite:${satellite.id}`);
      if (waitS > 0) throw tooManyRequests('Too many runs from this satellite', waitS);
      let supply!: (wav: Buffer) => void;
      let fail!: (reason: Error) => void;
      const audioLater = new Promise<Buffer>((resolve, reject) => {
        supply = resolve;
        fail = reject;
      });
      let runId = 0;
      const done = startRun(
        flow,
        'voice',
        { satellite, audio: { format: 'wav', streaming: true } },
        {
          wait: true,
          audioLater,
          hooks,
          onRecorded: (id) => (runId = id),
        },
      );
      return {
        runId,
        flowId: flow.id,
        supply: (wav) => {
          if (!isWav(wav)) fail(new Error('The satellite audio could not be made into a WAV clip'));
          else supply(wav);
        },
        fail: (reason) => fail(new Error(reason)),
        done,
      };
    },

    runs(actor: Actor, flowId: number): FlowRun[] {
      ownFlow(actor, flowId);
      return repo.runs(flowId, RUNS_PAGE).map(toRun);
    },

    run(actor: Actor, runId: number): FlowRun {
      return toRun(ownRun(actor, runId).run);
    },

    audio(actor: Actor, runId: number, which: 'clip' | 'speech'): Buffer {
      const { run } = ownRun(actor, runId);
      const file = which === 'clip' ? run.clipFile : `${run.id}-speech.wav`;
      if (!file) throw notFound('This run has no clip');
      try {
        return fs.readFileSync(clipPath(file));
      } catch {
        throw notFound(which === 'clip' ? 'This run has no clip' : 'This run said nothing');
      }
    },

    /** Runs a failed run again from its failed stage, with the same version and input. */
    async retry(actor: Actor, runId: number, wait: boolean): Promise<FlowRun> {
      const { run, flow } = ownRun(actor, runId);
      if (run.status !== 'failed') throw conflict('Only a failed run can be retried');
      const version = repo.version(flow.id, run.flowVersion);
      if (!version)
        throw conflict(`Version ${run.flowVersion} of this flow is no longer kept; replay the run instead`);
      const audio = run.clipFile ? readClip(run.clipFile) : null;
      return startRun(flow, 'retry', JSON.parse(run.input), {
        wait,
        audio,
        retryOf: run,
        definition: {
          version: version.version,
          stages: parseStages(version.stages),
          secretsSealed: version.secretsSealed,
        },
      });
    },

    /** Runs the same input again through the flow as it is now. */
    async replay(actor: Actor, runId: number, wait: boolean): Promise<FlowRun> {
      const { run, flow } = ownRun(actor, runId);
      if (run.status === 'running') throw conflict('This run is still running');
      const audio = run.clipFile ? readClip(run.clipFile) : null;
      return startRun(flow, 'replay', JSON.parse(run.input), { wait, audio });
    },

    // ---- API keys ----

    apiKeys(actor: Actor): ApiKey[] {
      return repo.apiKeys(actor.id).map(toApiKey);
    },

    createApiKey(actor: Actor, input: CreateApiKeyInput): CreatedApiKey {
      const flowIds = [...new Set(input.flowIds)];
      for (const id of flowIds) {
        const flow = repo.get(id);
        // A key runs as its creator: only their own flows can be in its scope.
        if (!flow || flow.ownerId !== actor.id) throw badRequest(`You have no flow with id ${id}`);
      }
      const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = repo.insertApiKey({
        userId: actor.id,
        name: input.name,
        prefix: key.slice(0, API_KEY_PREFIX.length + 6),
        keyHash: hashKey(key),
        flowIds: JSON.stringify(flowIds),
      });
      deps.audit?.record({
        type: 'api_key_created',
        target: row.name,
        details: { apiKeyId: row.id, flowIds },
      });
      return { apiKey: toApiKey(row), key };
    },

    revokeApiKey(actor: Actor, id: number): ApiKey {
      const row = repo.apiKey(id);
      if (!row || row.userId !== actor.id) throw notFound(`No API key with id ${id}`);
      if (!row.revokedAt) {
        repo.revokeApiKey(id);
        deps.audit?.record({ type: 'api_key_revoked', target: row.name, details: { apiKeyId: id } });
      }
      return toApiKey(repo.apiKey(id)!);
    },

    // ---- lifecycle ----

    /** Schedules every active schedule flow; call once at start. */
    startScheduler() {
      for (const flow of repo.activeWithTrigger('schedule')) syncSchedule(flow);
    },

    stop() {
      scheduler.stop();
    },

    /** Resolves when no run is in progress (tests and shutdown). */
    async idle() {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
  };

  function readClip(file: string): Buffer | null {
    try {
      return fs.readFileSync(clipPath(file));
    } catch {
      return null;
    }
  }
}

export type FlowsService = ReturnType<typeof createFlowsService>;
