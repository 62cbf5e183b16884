import type { LlmModel, LlmPipelineStatus } from '../../contract/status.js';

/** Cached this long: the dashboard polls every 5 s and several tabs may be open. */
const STATUS_TTL_MS = 3_000;

export interface ProbedModel {
  name: string;
  /** Loaded in memory and answering now. */
  running: boolean;
  sizeBytes: number | null;
}

/**
 * One LLM provider as the pipeline status sees it. Ollama is built in; the LLM feature adds the
 * cloud providers the owner configures.
 */
export interface LlmStatusProvider {
  name: string;
  kind: 'local' | 'cloud';
  /** The provider's models; throws when the provider cannot be reached. */
  probe(): Promise<ProbedModel[]>;
  /** Chats streaming through it now and answered so far, where the router counts them (its load spread). */
  load?(): { activeRequests: number; servedRequests: number };
}

export interface RequestCounter {
  totalMessages(): number;
}

export function createLlmStatusService(deps: {
  providers: () => LlmStatusProvider[];
  requests: RequestCounter;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  let cached: { at: number; status: Omit<LlmPipelineStatus, 'totalRequests'> } | null = null;
  let inFlight: Promise<Omit<LlmPipelineStatus, 'totalRequests'>> | null = null;

  async function probeAll(): Promise<Omit<LlmPipelineStatus, 'totalRequests'>> {
    const providers = deps.providers();
    const results = await Promise.all(
      providers.map(async (p) => {
        const started = performance.now();
        try {
          const models = await p.probe();
          return { provider: p, models, ms: performance.now() - started, error: null };
        } catch (err) {
          return {
            provider: p,
            models: null,
            ms: null,
            error: err instanceof Error ? err.message : String(err),
          };
        }
      }),
    );
    const models: LlmModel[] = results.flatMap((r) =>
      (r.models ?? []).map((m) => ({
        name: m.name,
        status: m.running ? ('running' as const) : ('available' as const),
        provider: r.provider.name,
        sizeBytes: m.sizeBytes,
      })),
    );
    // Running models first, so the dashboard's first three are the ones in memory.
    models.sort(
      (a, b) =>
        Number(b.status === 'running') - Number(a.status === 'running') || a.name.localeCompare(b.name),
    );
    const up = results.filter((r) => r.models !== null);
    const kinds = new Set(providers.map((p) => p.kind));
    const pipelineType =
      kinds.size === 0 ? 'none' : kinds.size === 2 ? 'hybrid' : kinds.has('local') ? 'local' : 'cloud';
    const status =
      up.length === 0
        ? 'offline'
        : models.length === 0 || up.length < results.length
          ? 'degraded'
          : 'running';
    return {
      status,
      pipelineType,
      activeModels: models.length,
      models,
      providers: results.map((r) => ({
        name: r.provider.name,
        status: r.models !== null ? 'online' : 'offline',
        responseTime: r.ms === null ? null : Math.round(r.ms),
        error: r.error,
        ...r.provider.load?.(),
      })),
      checkedAt: now(),
    };
  }

  return {
    async status(): Promise<LlmPipelineStatus> {
      let base = cached && now() - cached.at < STATUS_TTL_MS ? cached.status : null;
      if (!base) {
        inFlight ??= probeAll()
          .then((s) => {
            cached = { at: now(), status: s };
            return s;
          })
          .finally(() => {
            inFlight = null;
          });
        base = await inFlight;
      }
      // The count is read fresh: it is one indexed SQLite sum and the LLM feature moves it on every message.
      return { ...base, totalRequests: deps.requests.totalMessages() };
    },
  };
}

export type LlmStatusService = ReturnType<typeof createLlmStatusService>;
