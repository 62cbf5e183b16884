import type { RouterTarget } from '../../contract/llm.js';

export interface RouteProvider {
  id: number;
  priority: number;
  kind: 'ollama' | 'openai';
  /** Models it is known to have; null when its list could not be read. */
  models: ReadonlySet<string> | null;
  /** Chats streaming through it now, and served so far (for spreading the load). */
  active: number;
  served: number;
}

export interface RouteRule {
  targets: RouterTarget[];
  strategy: 'failover' | 'spread';
  enabled: boolean;
}

export type RoutePlan = { ok: true; targets: RouterTarget[] } | { ok: false; reason: string };

/**
 * The order in which providers are asked for one request. Pure: the chat service tries the
 * targets in this order, moving on when one is down or too slow.
 *
 * - An explicit provider goes first; a named model goes to the providers that have it (the
 *   rule's targets for that model in the rule's order, then the rest by priority). A model no
 *   provider lists still goes to the first enabled Ollama, so its own "not found" comes back.
 * - Without a model the rule's targets are the plan.
 * - The rule's other targets follow as fallbacks (they may be another model, e.g. a cloud one).
 * - spread: among the leading targets that share a model, the least busy goes first (fewest
 *   streaming, then fewest served), so several hubs share the chats.
 */
export function planRoute(
  request: { model?: string; providerId?: number },
  providers: readonly RouteProvider[],
  rule: RouteRule | null,
): RoutePlan {
  const byId = new Map(providers.map((p) => [p.id, p]));
  const active = rule?.enabled ? rule : null;
  const plan: RouterTarget[] = [];
  const add = (t: RouterTarget) => {
    if (byId.has(t.providerId) && !plan.some((p) => p.providerId === t.providerId && p.model === t.model)) {
      plan.push(t);
    }
  };
  const byPriority = [...providers].sort((a, b) => a.priority - b.priority || a.id - b.id);

  if (request.providerId !== undefined) {
    if (!byId.has(request.providerId))
      return { ok: false, reason: 'That provider does not exist or is disabled' };
    const model = request.model ?? active?.targets.find((t) => t.providerId === request.providerId)?.model;
    if (!model) return { ok: false, reason: 'Choose a model' };
    add({ providerId: request.providerId, model });
  } else if (request.model !== undefined) {
    const model = request.model;
    // A rule target whose provider's list could not be read is still tried: it may be back.
    for (const t of active?.targets ?? []) {
      if (t.model === model && (byId.get(t.providerId)?.models?.has(model) ?? true)) add(t);
    }
    for (const p of byPriority) if (p.models?.has(model)) add({ providerId: p.id, model });
    if (plan.length === 0) {
      const ollama = byPriority.find((p) => p.kind === 'ollama');
      if (ollama) add({ providerId: ollama.id, model });
    }
  } else {
    if (!active) return { ok: false, reason: 'Choose a model, or set a router rule for this task' };
    for (const t of active.targets) add(t);
  }

  for (const t of active?.targets ?? []) add(t);
  if (plan.length === 0) return { ok: false, reason: 'No enabled provider can answer' };

  if (active?.strategy === 'spread') {
    const model = plan[0]!.model;
    let lead = 0;
    while (lead < plan.length && plan[lead]!.model === model) lead++;
    const load = (t: RouterTarget) => byId.get(t.providerId)!;
    const spread = plan
      .slice(0, lead)
      .map((t, i) => ({ t, i }))
      .sort((a, b) => load(a.t).active - load(b.t).active || load(a.t).served - load(b.t).served || a.i - b.i)
      .map((x) => x.t);
    return { ok: true, targets: [...spread, ...plan.slice(lead)] };
  }
  return { ok: true, targets: plan };
}

/** One Ollama endpoint of the local provider, as the endpoint choice sees it. */
export interface EndpointCandidate {
  id: string;
  /** Chats streaming through it now. */
  outstanding: number;
  /** It failed: not chosen before this time (ms) unless nothing else can answer. */
  retryAt: number;
  /** The models its /api/tags listed; null when unknown (not read yet, or it failed). */
  models: ReadonlySet<string> | null;
}

/**
 * Which endpoint answers the next chat for `model`. Pure; `turn` is the caller's counter that
 * breaks ties round robin.
 *
 * - Only endpoints not `tried` for this chat yet; those that list the model (or whose list is
 *   unknown) first. A model no endpoint lists still goes somewhere, so Ollama's own "not found"
 *   comes back.
 * - Healthy endpoints (not backing off) first, the fewest outstanding requests winning, ties
 *   taken in turn. When every candidate is backing off, the one due first is tried rather than
 *   failing a chat that might be answered.
 */
export function chooseEndpoint<E extends EndpointCandidate>(
  endpoints: readonly E[],
  model: string,
  now: number,
  tried: ReadonlySet<string>,
  turn: number,
): E | null {
  const open = endpoints.filter((e) => !tried.has(e.id));
  const having = open.filter((e) => e.models === null || e.models.has(model));
  const pool = having.length > 0 ? having : open;
  if (pool.length === 0) return null;
  const healthy = pool.filter((e) => e.retryAt <= now);
  if (healthy.length === 0) {
    return pool.reduce((a, b) => (b.retryAt < a.retryAt ? b : a));
  }
  // Endpoints that list the model beat those whose list is unknown (probably just back up).
  const known = healthy.filter((e) => e.models !== null);
  const choices = known.length > 0 ? known : healthy;
  const least = Math.min(...choices.map((e) => e.outstanding));
  const tied = choices.filter((e) => e.outstanding === least);
  return tied[turn % tied.length]!;
}

/** How long a failed endpoint rests: 5 s, doubling per failure in a row, at most 60 s. */
export function backoffMs(failuresInARow: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, failuresInARow - 1), 60_000);
}
