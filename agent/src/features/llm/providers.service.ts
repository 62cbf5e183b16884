import {
  BUILT_IN_PROVIDER_NAME,
  type CreateLlmProviderInput,
  type LlmModelInfo,
  type LlmProvider,
  type LlmProviderHealthEntry,
  type UpdateLlmProviderInput,
  createLlmProviderInputSchema,
} from '../../contract/llm.js';
import { HttpError, conflict, notFound } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { sameOrigin } from '../../lib/origin.js';
import type { LlmRepository } from './llm.repository.js';
import type { LlmProviderRow } from './llm.table.js';
import { createProviderClient, type ProviderClient, type ProviderModel } from './provider-client.js';

/** Health checks are cached this long: the screens poll, several tabs may be open. */
const HEALTH_TTL_MS = 3_000;
const HEALTH_TIMEOUT_MS = 2_000;
/** The model lists behind routing are reused this long before a provider is asked again. */
const MODELS_TTL_MS = 10_000;
/**
 * A provider that could not list its models is asked again after this long, so that a hanging
 * one does not hold up every chat for its whole timeout, yet one that is back is soon seen.
 */
const FAILED_MODELS_TTL_MS = 3_000;

export interface ResolvedProvider {
  row: LlmProviderRow;
  baseUrl: string;
  client: ProviderClient;
}

export interface Load {
  active: number;
  served: number;
  failed: number;
}

export interface ProviderModels {
  provider: LlmProviderRow;
  models: ProviderModel[] | null;
  error: string | null;
}

/**
 * The LLM providers: the hub's own Ollama (OLLAMA_URL) and those an admin adds. Keeps one client
 * per provider, their health and the load the router spreads (chats streaming now, served,
 * failed since the agent started).
 */
export function createProvidersService(deps: {
  repo: LlmRepository;
  secrets: SecretBox;
  ollamaUrl: string;
  log: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const clients = new Map<number, { key: string; client: ProviderClient }>();
  const loads = new Map<number, Load>();
  let healthCache: { at: number; entries: Promise<LlmProviderHealthEntry[]> } | null = null;
  const modelCache = new Map<number, { at: number; ttl: number; result: Promise<ProviderModels> }>();

  deps.repo.ensureBuiltIn({
    kind: 'ollama',
    name: BUILT_IN_PROVIDER_NAME,
    baseUrl: null,
    apiKeySealed: null,
    local: true,
    enabled: true,
    priority: 0,
  });

  const baseUrlOf = (row: LlmProviderRow) =>
    (row.builtIn ? deps.ollamaUrl : (row.baseUrl ?? deps.ollamaUrl)).replace(/\/+$/, '');

  function apiKeyOf(row: LlmProviderRow): string | null {
    if (!row.apiKeySealed) return null;
    try {
      return deps.secrets.open(row.apiKeySealed);
    } catch (err) {
      deps.log.warn(
        { err, provider: row.name },
        'the stored API key cannot be decrypted (was secret.key replaced?)',
      );
      return null;
    }
  }

  function resolve(row: LlmProviderRow): ResolvedProvider {
    const baseUrl = baseUrlOf(row);
    const key = `${row.updatedAt.getTime()}|${baseUrl}`;
    let cached = clients.get(row.id);
    if (!cached || cached.key !== key) {
      cached = { key, client: createProviderClient({ kind: row.kind, baseUrl, apiKey: apiKeyOf(row) }) };
      clients.set(row.id, cached);
    }
    return { row, baseUrl, client: cached.client };
  }

  function load(id: number): Load {
    let l = loads.get(id);
    if (!l) loads.set(id, (l = { active: 0, served: 0, failed: 0 }));
    return l;
  }

  function toPublic(row: LlmProviderRow): LlmProvider {
    return {
      id: row.id,
      kind: row.kind,
      name: row.name,
      baseUrl: baseUrlOf(row),
      local: row.local,
      hasApiKey: row.apiKeySealed !== null,
      enabled: row.enabled,
      priority: row.priority,
      builtIn: row.builtIn,
      createdAt: row.createdAt.toISOString(),
    };
  }

  // Every change goes through this service, so the rows are read from the database once and
  // again after each change; a chat reads them several times.
  let rowsCache: LlmProviderRow[] | null = null;
  const rows = () => (rowsCache ??= deps.repo.providers());

  function changed() {
    rowsCache = null;
    healthCache = null;
    modelCache.clear();
  }

  function rowOr404(id: number): LlmProviderRow {
    const row = rows().find((p) => p.id === id);
    if (!row) throw notFound(`No LLM provider with id ${id}`);
    return row;
  }

  async function checkHealth(row: LlmProviderRow): Promise<LlmProviderHealthEntry> {
    const l = load(row.id);
    const base = {
      providerId: row.id,
      name: row.name,
      activeRequests: l.active,
      servedRequests: l.served,
      failedRequests: l.failed,
    };
    if (!row.enabled) {
      return { ...base, status: 'disabled', latencyMs: null, version: null, error: null, checkedAt: now() };
    }
    const started = performance.now();
    try {
      const { version } = await resolve(row).client.health(HEALTH_TIMEOUT_MS);
      return {
        ...base,
        status: 'online',
        latencyMs: Math.round(performance.now() - started),
        version,
        error: null,
        checkedAt: now(),
      };
    } catch (err) {
      return {
        ...base,
        status: 'offline',
        latencyMs: null,
        version: null,
        error: err instanceof Error ? err.message : String(err),
        checkedAt: now(),
      };
    }
  }

  function modelsOf(row: LlmProviderRow, fresh = false): Promise<ProviderModels> {
    const cached = modelCache.get(row.id);
    if (!fresh && cached && now() - cached.at < cached.ttl) return cached.result;
    const entry = { at: now(), ttl: MODELS_TTL_MS, result: null as unknown as Promise<ProviderModels> };
    entry.result = resolve(row)
      .client.models()
      .then(
        (models) => ({ provider: row, models, error: null }),
        (err: unknown) => {
          entry.ttl = FAILED_MODELS_TTL_MS;
          return { provider: row, models: null, error: err instanceof Error ? err.message : String(err) };
        },
      );
    modelCache.set(row.id, entry);
    return entry.result;
  }

  return {
    list(): LlmProvider[] {
      return rows().map(toPublic);
    },

    /** Enabled providers, highest priority first. */
    enabledRows(): LlmProviderRow[] {
      return rows().filter((p) => p.enabled);
    },

    row(id: number): LlmProviderRow | undefined {
      return rows().find((p) => p.id === id);
    },

    builtIn(): LlmProviderRow {
      return rows().find((p) => p.builtIn)!;
    },

    resolve,

    create(input: CreateLlmProviderInput): LlmProvider {
      const v = createLlmProviderInputSchema.parse(input);
      if (deps.repo.providerByName(v.name)) throw conflict(`A provider named ${v.name} already exists`);
      const row = deps.repo.createProvider({
        kind: v.kind,
        name: v.name,
        baseUrl: v.baseUrl,
        apiKeySealed: v.apiKey ? deps.secrets.seal(v.apiKey) : null,
        local: v.local ?? v.kind === 'ollama',
        enabled: v.enabled,
        priority: v.priority,
      });
      changed();
      return toPublic(row);
    },

    update(id: number, input: UpdateLlmProviderInput): LlmProvider {
      const row = rowOr404(id);
      if (row.builtIn && (input.baseUrl !== undefined || input.name !== undefined)) {
        throw new HttpError(
          400,
          `The hub's own Ollama keeps its name, and its address comes from OLLAMA_URL (${deps.ollamaUrl})`,
        );
      }
      if (
        input.baseUrl !== undefined &&
        input.apiKey === undefined &&
        row.apiKeySealed !== null &&
        !sameOrigin(baseUrlOf(row), input.baseUrl)
      ) {
        throw new HttpError(
          400,
          'Enter the API key again for the new address: a saved key is only sent to the address it was saved for',
        );
      }
      if (input.name !== undefined && input.name !== row.name && deps.repo.providerByName(input.name)) {
        throw conflict(`A provider named ${input.name} already exists`);
      }
      const updated = deps.repo.updateProvider(id, {
        name: input.name,
        baseUrl: input.baseUrl,
        apiKeySealed:
          input.apiKey === undefined
            ? undefined
            : input.apiKey === null
              ? null
              : deps.secrets.seal(input.apiKey),
        local: input.local,
        enabled: input.enabled,
        priority: input.priority,
      });
      if (!updated) throw notFound(`No LLM provider with id ${id}`);
      changed();
      return toPublic(updated);
    },

    remove(id: number): void {
      const row = rowOr404(id);
      if (row.builtIn) throw conflict("The hub's own Ollama cannot be removed; disable it instead");
      deps.repo.deleteProvider(id);
      clients.delete(id);
      loads.delete(id);
      changed();
    },

    /** Health and latency of every provider (disabled ones are not asked). */
    health(): Promise<LlmProviderHealthEntry[]> {
      if (healthCache && now() - healthCache.at < HEALTH_TTL_MS) return healthCache.entries;
      const entries = Promise.all(rows().map(checkHealth));
      healthCache = { at: now(), entries };
      return entries;
    },

    /** The load figures of every provider, read now (not cached). */
    loads(): Map<number, Load> {
      return new Map(rows().map((p) => [p.id, { ...load(p.id) }]));
    },

    /** Models of every enabled provider; `fresh` skips the short cache. */
    async models(fresh = false): Promise<ProviderModels[]> {
      return Promise.all(this.enabledRows().map((row) => modelsOf(row, fresh)));
    },

    modelsOf,

    /** The model list changed on a provider (pull finished, model deleted). */
    forgetModels(providerId: number) {
      modelCache.delete(providerId);
    },

    toModelInfo(
      row: LlmProviderRow,
      m: ProviderModel,
      allowed: (modelClass: 'local' | 'cloud') => boolean,
    ): LlmModelInfo {
      const modelClass = row.local ? 'local' : 'cloud';
      return {
        providerId: row.id,
        providerName: row.name,
        providerKind: row.kind,
        modelClass,
        ...m,
        allowed: allowed(modelClass),
      };
    },

    /** A chat started streaming through the provider; call the returned function when it ends. */
    begin(providerId: number): (outcome: 'served' | 'failed') => void {
      const l = load(providerId);
      l.active++;
      let ended = false;
      return (outcome) => {
        if (ended) return;
        ended = true;
        l.active--;
        l[outcome]++;
      };
    },

    /** A provider failed before streaming (down, too slow). */
    recordFailure(providerId: number) {
      load(providerId).failed++;
    },

    /**
     * The providers as the dashboard's pipeline status sees them (the llm-status feature's
     * LlmStatusProvider shape): enabled ones, local or cloud, their models and which are loaded.
     */
    statusProviders() {
      return this.enabledRows().map((row) => ({
        name: row.name,
        kind: row.local ? ('local' as const) : ('cloud' as const),
        probe: async () => {
          const { models, error } = await modelsOf(row, true);
          if (!models) throw new Error(error ?? `${row.name} cannot be reached`);
          return models.map((m) => ({ name: m.name, running: m.loaded, sizeBytes: m.size }));
        },
        load: () => {
          const l = load(row.id);
          return { activeRequests: l.active, servedRequests: l.served };
        },
      }));
    },
  };
}

export type ProvidersService = ReturnType<typeof createProvidersService>;
