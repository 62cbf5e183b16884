import { randomUUID } from 'node:crypto';
import { LLM_PULLS_TOPIC, type PullJob } from '../../contract/llm.js';
import { HttpError, conflict, notFound } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { LivePublisher } from '../../live/hub.js';
import type { PlanGate } from './plan-gate.js';
import { toHttpError } from './provider-client.js';
import type { ProvidersService } from './providers.service.js';

/** Progress is published at most this often per pull (Ollama reports many times a second). */
const PUBLISH_EVERY_MS = 250;
/** Finished pulls kept for the screen. */
const KEEP_FINISHED = 20;

/**
 * Model pulls run in the agent as jobs, so closing or reloading the page does not stop them: the
 * browser lists the jobs and follows their progress on the live topic `llm.pulls`.
 */
export function createPullsService(deps: {
  providers: ProvidersService;
  gate: PlanGate;
  live: LivePublisher;
  log: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const jobs = new Map<string, PullJob>();
  const aborts = new Map<string, () => void>();
  const runs = new Map<string, Promise<void>>();
  let publishTimer: NodeJS.Timeout | null = null;

  deps.live.registerTopic(LLM_PULLS_TOPIC, {
    allow: (user) => user.role === 'admin' || user.role === 'superadmin',
    latestOnly: true,
  });

  function list(): PullJob[] {
    return [...jobs.values()].sort((a, b) => b.startedAt - a.startedAt);
  }

  function publishNow() {
    if (publishTimer) {
      clearTimeout(publishTimer);
      publishTimer = null;
    }
    deps.live.publish(LLM_PULLS_TOPIC, { pulls: list() });
  }

  function publishSoon() {
    if (publishTimer) return;
    publishTimer = setTimeout(publishNow, PUBLISH_EVERY_MS);
    publishTimer.unref();
  }

  function prune() {
    const finished = list().filter((j) => j.status !== 'running');
    for (const j of finished.slice(KEEP_FINISHED)) jobs.delete(j.id);
  }

  async function run(job: PullJob) {
    const row = deps.providers.row(job.providerId)!;
    const ollama = deps.providers.resolve(row).client.ollama!;
    let cancelled = false;
    let stream: Awaited<ReturnType<typeof ollama.pull>> | null = null;
    aborts.set(job.id, () => {
      cancelled = true;
      stream?.abort();
    });
    try {
      stream = await ollama.pull(job.model);
      if (cancelled) stream.abort();
      for await (const p of stream) {
        const phaseChanged = p.status !== job.phase;
        job.phase = p.status;
        if (p.digest) {
          let layer = job.layers.find((l) => l.digest === p.digest);
          if (!layer) job.layers.push((layer = { digest: p.digest, total: 0, completed: 0 }));
          if (typeof p.total === 'number') layer.total = p.total;
          if (typeof p.completed === 'number') layer.completed = p.completed;
          job.total = job.layers.reduce((s, l) => s + l.total, 0);
          job.completed = job.layers.reduce((s, l) => s + l.completed, 0);
        }
        if (phaseChanged) publishNow();
        else publishSoon();
      }
      job.status = 'success';
      job.phase = 'success';
    } catch (err) {
      if (cancelled) {
        job.status = 'cancelled';
      } else {
        job.status = 'error';
        job.error = toHttpError(err, row.name).message;
        deps.log.warn({ model: job.model, provider: row.name, error: job.error }, 'llm: pull failed');
      }
    } finally {
      job.finishedAt = now();
      aborts.delete(job.id);
      deps.providers.forgetModels(job.providerId);
      prune();
      publishNow();
    }
  }

  return {
    list,

    async start(input: { providerId?: number; model: string }): Promise<PullJob> {
      const row =
        input.providerId === undefined ? deps.providers.builtIn() : deps.providers.row(input.providerId);
      if (!row) throw notFound(`No LLM provider with id ${input.providerId}`);
      if (row.kind !== 'ollama')
        throw new HttpError(400, `${row.name} is not an Ollama; models are pulled into Ollama`);
      if (!row.enabled) throw conflict(`${row.name} is disabled`);
      const running = list().find(
        (j) => j.status === 'running' && j.providerId === row.id && j.model === input.model,
      );
      if (running) return running;
      const installed = await deps.providers.modelsOf(row, true);
      if (!installed.models) throw new HttpError(502, installed.error ?? `${row.name} cannot be reached`);
      if (!installed.models.some((m) => m.name === input.model || m.name === `${input.model}:latest`)) {
        deps.gate.checkModelCount(installed.models.length);
      }
      const job: PullJob = {
        id: randomUUID(),
        providerId: row.id,
        providerName: row.name,
        model: input.model,
        status: 'running',
        phase: 'starting',
        layers: [],
        total: 0,
        completed: 0,
        error: null,
        startedAt: now(),
        finishedAt: null,
      };
      jobs.set(job.id, job);
      publishNow();
      const done = run(job).finally(() => runs.delete(job.id));
      runs.set(job.id, done);
      return job;
    },

    /** Stops a running pull and resolves once it has stopped. Ollama keeps what it downloaded and resumes from there next time. */
    async cancel(id: string): Promise<PullJob> {
      const job = jobs.get(id);
      if (!job) throw notFound('No such pull');
      if (job.status !== 'running') throw conflict(`The pull has already ended (${job.status})`);
      aborts.get(id)?.();
      await runs.get(id);
      return job;
    },
  };
}

export type PullsService = ReturnType<typeof createPullsService>;
