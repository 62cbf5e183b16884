import type { LlmEndpoint } from '../../contract/llm.js';
import { inBackground } from '../../lib/background.js';
import type { Logger } from '../../lib/logger.js';
import { createProviderClient, type ProviderClient } from './provider-client.js';
import { backoffMs, chooseEndpoint } from './router.js';

/**
 * Where the fleet's Ollama endpoints come from. In the agent: the swarm (fleet-endpoints.ts reads
 * the engine's services, tasks and nodes). Never from a request: no member input names an endpoint.
 */
export interface OllamaEndpointSource {
  list(): Promise<{ id: string; node: string; url: string }[]>;
}

/** The endpoints' /api/tags and the fleet's list are read again after this long. */
export const ENDPOINT_REFRESH_MS = 30_000;

interface Endpoint {
  id: string;
  node: string;
  url: string;
  client: ProviderClient;
  outstanding: number;
  failures: number;
  retryAt: number;
  lastError: string | null;
  models: ReadonlySet<string> | null;
  /** When /api/tags was last read; 0 forces a read (never read, or the endpoint failed since). */
  tagsAt: number;
}

/** One chat on an endpoint: settle it once with how it went. */
export interface EndpointLease {
  id: string;
  node: string;
  client: ProviderClient;
  /** The endpoint answered (its back-off is cleared). */
  succeeded(): void;
  /** It could not be reached, failed on its side or was too slow: it rests a while. */
  failed(reason: string): void;
  /** It does not have the model after all: its list is read again; it stays healthy. */
  lacksModel(): void;
  /** The chat is over: no longer outstanding. Idempotent. */
  release(): void;
}

/**
 * The local (Ollama) provider's endpoints: the hub's own Ollama at OLLAMA_URL plus every fleet
 * node running Ollama. Each chat goes to an endpoint that has the model, the one with the fewest
 * outstanding requests (ties in turn); an endpoint that fails rests (5 s doubling to 60 s) and the
 * chat moves on to the next. Lists are read lazily, when a chat or the endpoints screen asks and
 * they are older than 30 s: an idle hub makes no requests.
 */
export function createEndpointPool(deps: {
  hubUrl: string;
  hubNode: string;
  source: OllamaEndpointSource | null;
  log: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const hubUrl = deps.hubUrl.replace(/\/+$/, '');
  const byUrl = new Map<string, Endpoint>();
  let listedAt = 0;
  let listing: Promise<void> | null = null;
  let fleet: { id: string; node: string; url: string }[] = [];
  let turn = 0;

  function endpoint(id: string, node: string, url: string): Endpoint {
    let e = byUrl.get(url);
    if (!e) {
      e = {
        id,
        node,
        url,
        client: createProviderClient({ kind: 'ollama', baseUrl: url, apiKey: null }),
        outstanding: 0,
        failures: 0,
        retryAt: 0,
        lastError: null,
        models: null,
        tagsAt: 0,
      };
      byUrl.set(url, e);
    }
    e.id = id;
    e.node = node;
    return e;
  }

  function fail(e: Endpoint, reason: string) {
    e.failures++;
    e.retryAt = now() + backoffMs(e.failures);
    e.lastError = reason;
    e.tagsAt = 0;
  }

  function succeed(e: Endpoint) {
    e.failures = 0;
    e.retryAt = 0;
    e.lastError = null;
  }

  async function readTags(e: Endpoint) {
    try {
      // /api/tags alone: which models are loaded (/api/ps) does not decide where a chat goes.
      const models = await e.client.ollama!.tags();
      e.models = new Set(models.map((m) => m.name));
      e.tagsAt = now();
      succeed(e);
    } catch (err) {
      e.models = null;
      fail(e, err instanceof Error ? err.message : String(err));
    }
  }

  /** Reads the fleet's list (keeping the last one when the engine cannot say) and stale tags. */
  async function refresh(force: boolean): Promise<void> {
    const t = now();
    if (force || t - listedAt >= ENDPOINT_REFRESH_MS) {
      listedAt = t;
      if (deps.source) {
        try {
          fleet = await deps.source.list();
        } catch (err) {
          deps.log.debug({ err }, 'llm: the fleet’s Ollama endpoints could not be listed');
        }
      }
    }
    const wanted = [{ id: 'hub', node: deps.hubNode, url: hubUrl }, ...fleet];
    const live = new Set<string>();
    for (const w of wanted) {
      const url = w.url.replace(/\/+$/, '');
      if (live.has(url)) continue;
      live.add(url);
      endpoint(w.id, w.node, url);
    }
    // Gone from the fleet: forgotten once nothing streams through them.
    for (const [url, e] of byUrl) if (!live.has(url) && e.outstanding === 0) byUrl.delete(url);
    await Promise.all(
      [...byUrl.values()]
        .filter((e) => e.retryAt <= now() && (force || now() - e.tagsAt >= ENDPOINT_REFRESH_MS))
        .map(readTags),
    );
  }

  /** One refresh at a time; callers share it. */
  function refreshing(force = false): Promise<void> {
    listing ??= refresh(force).finally(() => (listing = null));
    return listing;
  }

  /** Up to date enough for a chat: waits only the first time or when asked to. */
  async function ready(opts: { wait: boolean }) {
    const stale =
      byUrl.size === 0 ||
      now() - listedAt >= ENDPOINT_REFRESH_MS ||
      [...byUrl.values()].some((e) => e.tagsAt === 0 && e.retryAt <= now());
    if (!stale) return;
    if (opts.wait || byUrl.size === 0) await refreshing();
    else inBackground(deps.log, 'llm: reading the Ollama endpoints', refreshing());
  }

  const list = () => [...byUrl.values()];

  return {
    /** The models each endpoint lists, for routing: a model on any node is the local provider's. */
    async models(opts: { fresh?: boolean } = {}): Promise<Set<string>> {
      if (opts.fresh) await refreshing(true);
      else await ready({ wait: false });
      const all = new Set<string>();
      for (const e of list()) for (const m of e.models ?? []) all.add(m);
      return all;
    },

    /** Whether an endpoint not tried yet lists the model (without asking anyone). */
    hasUntried(model: string, tried: ReadonlySet<string>): boolean {
      return list().some((e) => !tried.has(e.id) && e.models?.has(model));
    },

    /**
     * The endpoint for this chat's next try, or null when every endpoint was tried. Counted as
     * outstanding at once, so chats that start together spread.
     */
    async acquire(model: string, tried: ReadonlySet<string>): Promise<EndpointLease | null> {
      await ready({ wait: false });
      const e = chooseEndpoint(list(), model, now(), tried, turn++);
      if (!e) return null;
      e.outstanding++;
      let released = false;
      return {
        id: e.id,
        node: e.node,
        client: e.client,
        succeeded: () => succeed(e),
        failed: (reason) => fail(e, reason),
        lacksModel: () => {
          e.models = null;
          e.tagsAt = 0;
        },
        release: () => {
          if (released) return;
          released = true;
          e.outstanding--;
        },
      };
    },

    /** What GET /api/llm/endpoints shows admins: read now when stale. */
    async snapshot(): Promise<LlmEndpoint[]> {
      await ready({ wait: true });
      const t = now();
      return list().map((e) => ({
        id: e.id,
        node: e.node,
        url: e.url,
        healthy: e.retryAt <= t,
        outstanding: e.outstanding,
        lastError: e.lastError,
        retryAt: e.retryAt > t ? new Date(e.retryAt).toISOString() : null,
        models: e.models ? [...e.models].sort() : null,
      }));
    },
  };
}

export type EndpointPool = ReturnType<typeof createEndpointPool>;
