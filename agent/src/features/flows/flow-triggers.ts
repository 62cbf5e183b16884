import { createHash, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_TEST_LISTEN_MS, type FlowRun } from '../../contract/flows.js';
import { HttpError, conflict, forbidden, notFound, tooManyRequests } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { Actor, FlowAccess } from './flow-access.js';
import { hashKey } from './flow-api-keys.js';
import type { ClipStore } from './flow-clips.js';
import type { FlowRuns, RunHooks } from './flow-runs.js';
import { createFlowScheduler, nextRuns } from './flow-scheduler.js';
import type { FlowSecretStore } from './flow-secret-store.js';
import { parseStages, parseTrigger } from './flow-views.js';
import type { FlowWithOwner, FlowsRepository } from './flows.repository.js';
import { createRateLimiter } from './rate-limiter.js';

/*
 * Every way a run starts: a webhook (production or test URL), the schedule, a signed-in person, a
 * program with an API key, a satellite (a clip, or audio still streaming), and a retry or replay
 * of an earlier run. Each decides who may start which flow, with what input and how often, and
 * answers a refusal in its own terms; then hands over to flow-runs.ts, which runs them all alike.
 * The untrusted callers (the LAN on a webhook, programs, satellites) are all checked here.
 */

/** Webhook calls per flow: sustained rate and burst. */
export const WEBHOOK_RATE = { perSecond: 200, burst: 400 };
/** Runs per API key: sustained rate and burst. */
export const API_KEY_RATE = { perSecond: 1, burst: 30 };

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

/** Constant-time equality of two strings of any length (hashing first evens the lengths). */
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

function isWav(buffer: Buffer): boolean {
  return (
    buffer.length >= 12 &&
    buffer.toString('ascii', 0, 4) === 'RIFF' &&
    buffer.toString('ascii', 8, 12) === 'WAVE'
  );
}

function audioInput(audio: Buffer | null): unknown {
  return audio ? { audio: { bytes: audio.length, format: 'wav' } } : undefined;
}

function checkAudio(audio: Buffer | null) {
  if (audio && !isWav(audio)) throw new HttpError(415, 'Voice input must be a WAV file (audio/wav)');
}

export function createFlowTriggers(deps: {
  repo: FlowsRepository;
  runs: FlowRuns;
  access: FlowAccess;
  secrets: FlowSecretStore;
  clips: ClipStore;
  log: Logger;
  now: () => number;
}) {
  const { repo, runs, access, clips, now } = deps;
  /** Until when each webhook flow's test URL listens (the builder's "Listen for test event"). */
  const listening = new Map<number, number>();
  const webhookLimiter = createRateLimiter({ ...WEBHOOK_RATE, now });
  const apiKeyLimiter = createRateLimiter({ ...API_KEY_RATE, now });

  // ---- the schedule ----

  const scheduler = createFlowScheduler({
    log: deps.log,
    fire: async (flowId) => {
      const flow = repo.get(flowId);
      if (!flow || flow.status !== 'active') return;
      try {
        await runs.start(flow, 'schedule', { firedAt: new Date(now()).toISOString() }, { wait: true });
      } catch (error) {
        deps.log.warn({ flowId, err: (error as Error).message }, 'flows: scheduled run not started');
      }
    },
  });

  /** Puts the flow's schedule job in line with the flow after every change to it. */
  function syncSchedule(flow: { id: number; status: string; trigger: string }) {
    const trigger = parseTrigger(flow.trigger);
    scheduler.sync({
      id: flow.id,
      active: flow.status === 'active',
      schedule: trigger.type === 'schedule' ? { cron: trigger.cron, timezone: trigger.timezone } : null,
    });
  }

  // Plain closures, no `this`: the service hands them out as its own methods.
  return {
    syncSchedule,

    /** A deleted flow: no schedule job and no listening test webhook are left behind. */
    forget(flowId: number) {
      scheduler.remove(flowId);
      listening.delete(flowId);
    },

    schedulePreview(cron: string, timezone: string): string[] {
      return nextRuns(cron, timezone, 5, new Date(now()));
    },

    /** Schedules every active schedule flow; call once at start. */
    startScheduler() {
      for (const flow of repo.activeWithTrigger('schedule')) syncSchedule(flow);
    },

    stop() {
      scheduler.stop();
    },

    // ---- webhooks ----

    /** Until when the flow's test webhook listens (a time in ms), if it was asked to. */
    listeningUntil: (flowId: number): number | undefined => listening.get(flowId),

    /** The test URL takes one call within WEBHOOK_TEST_LISTEN_MS from now. */
    listen(flow: FlowWithOwner) {
      if (parseTrigger(flow.trigger).type !== 'webhook')
        throw conflict('This flow is not started by a webhook');
      listening.set(flow.id, now() + WEBHOOK_TEST_LISTEN_MS);
    },

    stopListening(flowId: number) {
      listening.delete(flowId);
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
      if (!sameSecret(secret, deps.secrets.webhookSecret(flow))) throw unknownHook;
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
      return runs.start(flow, test ? 'webhook_test' : 'webhook', body ?? null, { wait });
    },

    // ---- people and programs ----

    /** A signed-in person runs a flow from the builder or the simulations screen. */
    async runAsUser(
      actor: Actor,
      id: number,
      input: unknown,
      audio: Buffer | null,
      wait: boolean,
    ): Promise<FlowRun> {
      const flow = access.ownFlow(actor, id);
      checkAudio(audio);
      return runs.start(flow, audio ? 'voice' : 'manual', audio ? audioInput(audio) : (input ?? null), {
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
      return runs.start(flow, audio ? 'voice' : 'api', audio ? audioInput(audio) : (input ?? null), {
        wait,
        audio,
      });
    },

    // ---- satellites ----

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
      return runs.start(flow, 'voice', input, { wait, audio });
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
      const done = runs.start(
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

    // ---- earlier runs ----

    /** Runs a failed run again from its failed stage, with the same version and input. */
    async retry(actor: Actor, runId: number, wait: boolean): Promise<FlowRun> {
      const { run, flow } = access.ownRun(actor, runId);
      if (run.status !== 'failed') throw conflict('Only a failed run can be retried');
      const version = repo.version(flow.id, run.flowVersion);
      if (!version)
        throw conflict(`Version ${run.flowVersion} of this flow is no longer kept; replay the run instead`);
      const audio = run.clipFile ? clips.readOrNull(run.clipFile) : null;
      return runs.start(flow, 'retry', JSON.parse(run.input), {
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
      const { run, flow } = access.ownRun(actor, runId);
      if (run.status === 'running') throw conflict('This run is still running');
      const audio = run.clipFile ? clips.readOrNull(run.clipFile) : null;
      return runs.start(flow, 'replay', JSON.parse(run.input), { wait, audio });
    },
  };
}

export type FlowTriggers = ReturnType<typeof createFlowTriggers>;
