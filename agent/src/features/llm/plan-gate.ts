import type { HttpError } from '../../lib/http-error.js';

/**
 * What the LLM feature asks the hub's plan limits (the subscription feature's plan-limits module,
 * passed in by app.ts; features do not import each other). All decisions and refusals are there.
 */
export interface PlanGate {
  /** limits.aiModels: whether the plan lets people use models of this class. */
  allowsClass(modelClass: 'local' | 'cloud'): boolean;
  classRefusal(modelClass: 'local' | 'cloud', model: string, providerName: string): HttpError;
  /** limits.aiMessages: only cloud answers count; throws 429 when the month's are used up. */
  reserveCloudMessage(): { release: () => void };
  /** limits.parallelProcessing: waits for a turn at the cloud (FIFO on plans without it). */
  cloudTurn(opts?: { signal?: AbortSignal; onQueued?: (position: number) => void }): Promise<() => void>;
  /** limits.maxModels: which of the hub's models are usable (the rest are kept, read-only). */
  usableModels(
    models: { providerId: number; name: string; modifiedAt: string | null }[],
  ): (providerId: number, name: string) => boolean;
  modelRefusal(model: string, installed: number): HttpError;
  /** limits.maxModels before a pull: throws 403 when the hub has as many as the plan allows. */
  checkModelCount(installed: number): void;
}

/**
 * The hub's own models (local providers) as the plan counts them for limits.maxModels, and which
 * of them are usable now. Cloud providers list whole catalogues and are governed by aiModels and
 * aiMessages instead.
 */
export function hubModels(
  gate: PlanGate,
  lists: {
    provider: { id: number; local: boolean };
    models: { name: string; modifiedAt: string | null }[] | null;
  }[],
) {
  const local = lists
    .filter((l) => l.provider.local)
    .flatMap((l) =>
      (l.models ?? []).map((m) => ({ providerId: l.provider.id, name: m.name, modifiedAt: m.modifiedAt })),
    );
  const usable = gate.usableModels(local);
  // A local provider that could not be asked is not judged here: its failure is the answer.
  const known = new Set(lists.filter((l) => l.provider.local && l.models).map((l) => l.provider.id));
  return {
    count: local.length,
    /** Whether people may chat with this model: its class is in the plan, and it is within maxModels. */
    allows: (provider: { id: number; local: boolean }, name: string) =>
      provider.local ? !known.has(provider.id) || usable(provider.id, name) : gate.allowsClass('cloud'),
  };
}
