import {
  routerRuleInputSchema,
  type LlmModelDetails,
  type LlmModelList,
  type LlmTask,
  type RouterRule,
  type RouterRuleInput,
  type RouterState,
  type UsageNodeTotal,
  type UsageReport,
} from '../../contract/llm.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import type { LlmRepository, StoredRule } from './llm.repository.js';
import { hubModels, type PlanGate } from './plan-gate.js';
import { toHttpError } from './provider-client.js';
import type { ProvidersService } from './providers.service.js';

/** What the usage report reads from the usage counter. */
export interface UsageReader {
  usageByDay(
    since: Date,
    userId?: number,
  ): {
    day: string;
    userId: number;
    model: string;
    providerName: string;
    node: string | null;
    messages: number;
    promptTokens: number;
    completionTokens: number;
  }[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

function toRule(r: StoredRule): RouterRule {
  return {
    task: r.task,
    targets: r.targets,
    strategy: r.strategy,
    timeoutMs: r.timeoutMs,
    enabled: r.enabled,
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Models across providers, model details and deletes, router rules and the usage report. */
export function createLlmService(deps: {
  repo: LlmRepository;
  providers: ProvidersService;
  gate: PlanGate;
  usage: UsageReader;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;

  function ollamaOf(providerId: number) {
    const row = deps.providers.row(providerId);
    if (!row) throw notFound(`No LLM provider with id ${providerId}`);
    const { client } = deps.providers.resolve(row);
    if (!client.ollama)
      throw new HttpError(400, `${row.name} is not an Ollama; it has no model details to show`);
    return { row, ollama: client.ollama };
  }

  return {
    async models(): Promise<LlmModelList> {
      const lists = await deps.providers.models();
      const hub = hubModels(deps.gate, lists);
      return {
        // Models beyond the plan stay listed, marked not allowed (read-only), never removed.
        models: lists.flatMap((l) =>
          (l.models ?? []).map((m) =>
            deps.providers.toModelInfo(l.provider, m, () => hub.allows(l.provider, m.name)),
          ),
        ),
        unreachable: lists
          .filter((l) => l.models === null)
          .map((l) => ({
            providerId: l.provider.id,
            name: l.provider.name,
            error: l.error ?? 'cannot be reached',
          })),
      };
    },

    /** Ollama's /api/show: context length, template, parameters… */
    async show(providerId: number, name: string): Promise<LlmModelDetails> {
      const { row, ollama } = ollamaOf(providerId);
      let show;
      try {
        show = await ollama.show(name);
      } catch (err) {
        throw toHttpError(err, row.name);
      }
      const info = show.model_info ?? {};
      // model_info keys are prefixed with the architecture: "llama.context_length", "qwen2.context_length"…
      const arch = typeof info['general.architecture'] === 'string' ? info['general.architecture'] : null;
      const numberAt = (key: string) => (typeof info[key] === 'number' ? (info[key] as number) : null);
      const contextLength =
        (arch ? numberAt(`${arch}.context_length`) : null) ??
        Object.entries(info).find(([k, v]) => k.endsWith('.context_length') && typeof v === 'number')?.[1];
      return {
        name,
        providerId,
        contextLength: typeof contextLength === 'number' ? contextLength : null,
        family: show.details?.family ?? null,
        parameterSize: show.details?.parameter_size ?? null,
        quantization: show.details?.quantization_level ?? null,
        format: show.details?.format ?? null,
        parameterCount: numberAt('general.parameter_count'),
        template: show.template ?? null,
        parameters: show.parameters ?? null,
        system: show.system ?? null,
        license: show.license ?? null,
        modelfile: show.modelfile ?? null,
      };
    },

    async deleteModel(providerId: number, name: string): Promise<void> {
      const { row, ollama } = ollamaOf(providerId);
      try {
        await ollama.delete(name);
      } catch (err) {
        throw toHttpError(err, row.name);
      }
      deps.providers.forgetModels(providerId);
    },

    async router(): Promise<RouterState> {
      const [health] = await Promise.all([deps.providers.health()]);
      const loads = deps.providers.loads();
      return {
        rules: deps.repo.rules().map(toRule),
        // Health is cached a few seconds; the load figures are read now.
        providers: health.map((h) => {
          const l = loads.get(h.providerId);
          return l
            ? { ...h, activeRequests: l.active, servedRequests: l.served, failedRequests: l.failed }
            : h;
        }),
      };
    },

    saveRule(task: LlmTask, input: RouterRuleInput): RouterRule {
      const v = routerRuleInputSchema.parse(input);
      for (const t of v.targets) {
        if (!deps.providers.row(t.providerId))
          throw new HttpError(400, `No LLM provider with id ${t.providerId}`);
      }
      return toRule(deps.repo.saveRule({ task, ...v }));
    },

    deleteRule(task: LlmTask): void {
      if (!deps.repo.deleteRule(task)) throw notFound(`There is no rule for ${task}`);
    },

    usage(days: number, viewer: { id: number; isAdmin: boolean }): UsageReport {
      const since = new Date(now() - (days - 1) * DAY_MS);
      const rows = deps.usage.usageByDay(since, viewer.isAdmin ? undefined : viewer.id);
      const names = deps.repo.userNames([...new Set(rows.map((r) => r.userId))]);
      const report = rows.map((r) => ({
        ...r,
        messages: Number(r.messages),
        promptTokens: Number(r.promptTokens),
        completionTokens: Number(r.completionTokens),
        userName: names.get(r.userId) ?? null,
      }));
      const byNode = new Map<string | null, UsageNodeTotal>();
      for (const r of report) {
        const t = byNode.get(r.node) ?? { node: r.node, messages: 0, promptTokens: 0, completionTokens: 0 };
        t.messages += r.messages;
        t.promptTokens += r.promptTokens;
        t.completionTokens += r.completionTokens;
        byNode.set(r.node, t);
      }
      return {
        since: since.toISOString().slice(0, 10),
        scope: viewer.isAdmin ? 'all' : 'own',
        rows: report,
        nodes: [...byNode.values()].sort((a, b) => b.messages - a.messages),
      };
    },
  };
}

export type LlmService = ReturnType<typeof createLlmService>;
