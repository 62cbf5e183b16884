import {
  PLANS,
  UNLIMITED,
  USAGE_WARNING_RATIO,
  type PlanId,
  type PlanLimits,
  type SubscriptionStatus,
  type SubscriptionUsage,
} from '../../contract/subscription.js';
import { z, type ZodType } from 'zod';
import { HttpError } from '../../lib/http-error.js';

/**
 * Every plan limit of issue 22, decided here and nowhere else; each feature asks through a thin
 * adapter. Status codes: 429 for a count that refills (the month's cloud messages, the queue of
 * cloud requests being full), 403 for something the plan does not include (cloud models, another
 * model on the hub, another Home Assistant entity for automations, VPN failover).
 *
 * What is never limited, on any plan, expired or not: models on the hub (local messages), people
 * controlling their home from the device screens (/api/ha/services), voice (local models) and the
 * owner's own WireGuard remote access.
 */

export type LimitName =
  'aiModels' | 'aiMessages' | 'maxModels' | 'homeAssistantEntities' | 'parallelProcessing' | 'vpnAccess';
export type Warning = SubscriptionStatus['warnings'][number];

/** Past this many chats waiting for the Free plan's one cloud request at a time, more are refused. */
export const MAX_CLOUD_QUEUE = 20;
/** The settings key of the entity ledger (see checkEntities). */
export const HA_ENTITY_LEDGER_SETTING = 'plan.haEntities';
/** The entity ledger keeps at most this many ids (far more than any plan's allowance). */
const MAX_LEDGER = 10_000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Where the entity ledger is kept. */
export interface LedgerStore {
  get(): string[];
  set(ids: string[]): void;
}

/** The entity ledger in the hub's settings. */
export function settingsLedger(settings: {
  get<T>(key: string, schema: ZodType<T>): T | undefined;
  set(key: string, value: unknown): void;
}): LedgerStore {
  const schema = z.array(z.string());
  return {
    get: () => settings.get(HA_ENTITY_LEDGER_SETTING, schema) ?? [],
    set: (ids) => settings.set(HA_ENTITY_LEDGER_SETTING, ids),
  };
}

export interface PlanLimitsDeps {
  /** The plan in force now (the subscription decides: trial, licence, grace or Free). */
  plan: () => PlanId;
  /** Messages answered by cloud models in the month `at` falls in. */
  cloudMessagesInMonth: (at: number) => number;
  /** Answered messages per day since a day, by class (for the usage report). */
  messagesByDayAndClass?: (since: Date) => { day: string; modelClass: 'local' | 'cloud'; messages: number }[];
  /** The entities automations have acted on, in the order they first did (see `entities` below). */
  entityLedger: LedgerStore;
  /** How many models the hub has installed now (asked by the usage report). */
  countInstalledModels?: () => Promise<number | null>;
  now?: () => number;
  maxQueue?: number;
}

/** The cheapest plan that lifts a limit. */
function upgradeFor(limit: LimitName, plan: PlanId): PlanId {
  if (limit === 'maxModels' && plan === 'pro') return 'max';
  return plan === 'free' ? 'pro' : 'max';
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function secondsToNextMonth(at: number): number {
  const d = new Date(at);
  return Math.max(1, Math.ceil((Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - at) / 1000));
}

/** A model on a provider, as the stable order of "which models the plan allows" sees it. */
export interface ModelRef {
  providerId: number;
  name: string;
  /** When it was installed (Ollama's modified_at), for the order; null sorts last. */
  modifiedAt: string | null;
}

export function createPlanLimits(deps: PlanLimitsDeps) {
  const now = deps.now ?? Date.now;
  const maxQueue = deps.maxQueue ?? MAX_CLOUD_QUEUE;

  function current(): { plan: PlanId; limits: PlanLimits } {
    const plan = deps.plan();
    return { plan, limits: PLANS[plan].limits };
  }

  /** The one shape of every refusal: the limit, the use, and the plan that lifts it. */
  function refusal(
    status: 403 | 429,
    limit: LimitName,
    message: string,
    details: { used: number | null; allowed: number | boolean | string; plan: PlanId },
    headers?: Record<string, string>,
  ): HttpError {
    const upgradeTo = upgradeFor(limit, details.plan);
    return new HttpError(
      status,
      `${message} Upgrade to ${PLANS[upgradeTo].name} to lift this limit.`,
      { limit, ...details, upgradeTo },
      headers,
    );
  }

  // ---- aiMessages: cloud messages per month; reservations stop a burst overshooting the limit.
  let reservedCloud = 0;

  // ---- parallelProcessing: on plans without it, one cloud request at a time, the rest in a FIFO.
  let cloudActive = 0;
  const waiting: { grant: () => void; notify: (position: number) => void }[] = [];
  const tellPositions = () => waiting.forEach((w, i) => w.notify(i + 1));
  function handOn() {
    while (cloudActive === 0 && waiting.length) {
      const next = waiting.shift()!;
      cloudActive++;
      next.grant();
      tellPositions();
    }
  }

  // ---- homeAssistantEntities: the ledger of entities automations act on, first come first kept.
  function entityRank(ids: string[], allowed: number): Map<string, number> {
    const ledger = deps.entityLedger.get();
    const rank = new Map(ledger.map((id, i) => [id, i]));
    // Only entities within the allowance join the ledger, so the first N stay the same N.
    const added: string[] = [];
    for (const id of ids) {
      if (rank.has(id) || rank.size >= allowed) continue;
      rank.set(id, rank.size);
      added.push(id);
    }
    if (added.length) deps.entityLedger.set([...ledger, ...added]);
    return rank;
  }

  let lastInstalled: number | null = null;

  const api = {
    current,

    // ---------------------------------------------------------------- aiModels (model classes)
    /** Whether the plan lets people use models of this class (limits.aiModels). */
    allowsClass(modelClass: 'local' | 'cloud', limits = current().limits): boolean {
      return modelClass === 'local' || limits.aiModels.includes(modelClass);
    },
    classRefusal(modelClass: 'local' | 'cloud', model: string, providerName: string): HttpError {
      const { plan, limits } = current();
      return refusal(
        403,
        'aiModels',
        `The ${PLANS[plan].name} plan includes ${limits.aiModels.join(' and ')} models only; ${model} on ${providerName} is a ${modelClass} model.`,
        { used: null, allowed: limits.aiModels.join(','), plan },
      );
    },

    // ---------------------------------------------------------------- aiMessages
    /**
     * Before a cloud model answers: throws 429 when the month's cloud messages are used up,
     * otherwise holds one until `release()` (the answer was recorded, or none came).
     */
    reserveCloudMessage(): { release: () => void } {
      const { plan, limits } = current();
      if (limits.aiMessages !== UNLIMITED) {
        const at = now();
        const used = deps.cloudMessagesInMonth(at);
        if (used + reservedCloud >= limits.aiMessages) {
          throw refusal(
            429,
            'aiMessages',
            `This hub has used all ${limits.aiMessages} cloud AI messages of the ${PLANS[plan].name} plan this month (${used} answered). Models on the hub keep answering without limit.`,
            { used, allowed: limits.aiMessages, plan },
            { 'Retry-After': String(secondsToNextMonth(at)) },
          );
        }
      }
      reservedCloud++;
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          reservedCloud--;
        },
      };
    },

    // ---------------------------------------------------------------- maxModels
    /** Throws 403 when the hub already has as many models as the plan allows (before a pull). */
    checkModelCount(installed: number): void {
      lastInstalled = installed;
      const { plan, limits } = current();
      if (limits.maxModels !== UNLIMITED && installed >= limits.maxModels) {
        throw refusal(
          403,
          'maxModels',
          `The ${PLANS[plan].name} plan allows ${plural(limits.maxModels, 'model')} on the hub and it has ${installed}. Delete one first.`,
          { used: installed, allowed: limits.maxModels, plan },
        );
      }
    },
    /**
     * Which of the hub's models may be used: all, or the plan's first `maxModels` in a stable
     * order — the oldest installed first (provider, then install time, then name). The rest stay
     * installed and listed but read-only, and come back when the plan allows them again.
     */
    usableModels(models: ModelRef[]): (providerId: number, name: string) => boolean {
      lastInstalled = models.length;
      const { limits } = current();
      if (limits.maxModels === UNLIMITED) return () => true;
      const ordered = [...models].sort(
        (a, b) =>
          a.providerId - b.providerId ||
          (a.modifiedAt ?? '\uffff').localeCompare(b.modifiedAt ?? '\uffff') ||
          a.name.localeCompare(b.name),
      );
      const usable = new Set(ordered.slice(0, limits.maxModels).map((m) => `${m.providerId}\u0000${m.name}`));
      return (providerId, name) => usable.has(`${providerId}\u0000${name}`);
    },
    /** The LLM feature tells how many models the hub has whenever it lists them (for the warning). */
    noteInstalledModels(count: number): void {
      lastInstalled = count;
    },
    modelRefusal(model: string, installed: number): HttpError {
      const { plan, limits } = current();
      const allowed = limits.maxModels === UNLIMITED ? installed : limits.maxModels;
      return refusal(
        403,
        'maxModels',
        `The ${PLANS[plan].name} plan allows ${plural(allowed, 'model')} on the hub and it has ${installed}; ${model} is kept but read-only until the plan allows it.`,
        { used: installed, allowed, plan },
      );
    },

    // ---------------------------------------------------------------- parallelProcessing
    /**
     * Waits for a turn to ask a cloud model. Plans with parallel processing go at once; on the
     * others one cloud request runs at a time per hub and the next wait first in, first out,
     * told their place (1 = next). `signal` takes a waiter out of the queue. The returned
     * release must be called once the request ends, however it ends (it is idempotent).
     */
    async cloudTurn(
      opts: { signal?: AbortSignal; onQueued?: (position: number) => void } = {},
    ): Promise<() => void> {
      const { plan, limits } = current();
      if (limits.parallelProcessing) return () => {};
      opts.signal?.throwIfAborted();
      let held = false;
      const release = () => {
        if (!held) return;
        held = false;
        cloudActive--;
        handOn();
      };
      if (cloudActive === 0 && waiting.length === 0) {
        cloudActive++;
        held = true;
        return release;
      }
      if (waiting.length >= maxQueue) {
        throw refusal(
          429,
          'parallelProcessing',
          `The ${PLANS[plan].name} plan answers one cloud request at a time and ${waiting.length} are already waiting. Try again shortly, or use a model on the hub.`,
          { used: waiting.length, allowed: false, plan },
          { 'Retry-After': '5' },
        );
      }
      await new Promise<void>((resolve, reject) => {
        const entry = {
          grant: () => {
            opts.signal?.removeEventListener('abort', onAbort);
            held = true;
            resolve();
          },
          notify: (position: number) => opts.onQueued?.(position),
        };
        const onAbort = () => {
          const at = waiting.indexOf(entry);
          if (at >= 0) waiting.splice(at, 1);
          tellPositions();
          reject(opts.signal!.reason instanceof Error ? opts.signal!.reason : new Error('cancelled'));
        };
        opts.signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(entry);
        entry.notify(waiting.length);
      });
      return release;
    },
    /** How many cloud requests wait now (diagnostics and tests). */
    cloudQueueLength: () => waiting.length,

    // ---------------------------------------------------------------- homeAssistantEntities
    /**
     * Before an automation (a flow's Home Assistant stage; analytics, when it learns) acts on
     * entities. The rule: entities are allowed in the order automations first used them, kept in
     * a ledger (settings); on a limited plan the first N of the ledger are allowed, later ones are
     * refused with 403 — and allowed again on a plan that lifts the limit. People's own control
     * of their home never comes here.
     */
    checkEntities(entityIds: string[]): void {
      if (!entityIds.length) return;
      const { plan, limits } = current();
      const allowed = limits.homeAssistantEntities;
      const rank = entityRank(entityIds, allowed === UNLIMITED ? MAX_LEDGER : allowed);
      if (allowed === UNLIMITED) return;
      const over = entityIds.filter((id) => !rank.has(id));
      if (over.length) {
        throw refusal(
          403,
          'homeAssistantEntities',
          `The ${PLANS[plan].name} plan lets automations act on ${plural(allowed, 'Home Assistant entity', 'Home Assistant entities')} and ${over.join(', ')} would be beyond them (${rank.size} used). You can still control it yourself from the device screens.`,
          { used: rank.size, allowed, plan },
        );
      }
    },
    /** For analytics: whether it may learn from this entity (without adding it to the ledger). */
    entityAllowed(entityId: string): boolean {
      const { limits } = current();
      if (limits.homeAssistantEntities === UNLIMITED) return true;
      const at = deps.entityLedger.get().indexOf(entityId);
      return at >= 0 && at < limits.homeAssistantEntities;
    },

    // ---------------------------------------------------------------- vpnAccess
    /** Uplink failover through provider tunnels is a paid feature; own WireGuard access is not. */
    checkVpnFailover(): void {
      const { plan, limits } = current();
      if (!limits.vpnAccess) {
        throw refusal(
          403,
          'vpnAccess',
          `The ${PLANS[plan].name} plan does not include VPN failover through provider tunnels. Your own WireGuard remote access keeps working.`,
          { used: null, allowed: false, plan },
        );
      }
    },

    // ---------------------------------------------------------------- reports
    /** Spec §9: the limits at or past 80 % of their allowance, with the plan that lifts them. */
    warnings(plan: PlanId): Warning[] {
      const limits = PLANS[plan].limits;
      const uses: [Warning['limit'], number | null, number | typeof UNLIMITED][] = [
        ['aiMessages', deps.cloudMessagesInMonth(now()), limits.aiMessages],
        ['maxModels', lastInstalled, limits.maxModels],
        ['homeAssistantEntities', deps.entityLedger.get().length, limits.homeAssistantEntities],
      ];
      return uses.flatMap(([limit, used, allowed]) =>
        used !== null && allowed !== UNLIMITED && allowed > 0 && used >= allowed * USAGE_WARNING_RATIO
          ? [{ limit, used, allowed, upgradeTo: upgradeFor(limit, plan) }]
          : [],
      );
    },

    /** GET /api/subscription/usage: per day cloud vs local messages, and this month against each limit. */
    async usage(days: number): Promise<SubscriptionUsage> {
      if (deps.countInstalledModels) lastInstalled = (await deps.countInstalledModels()) ?? lastInstalled;
      const at = now();
      const first = new Date(at - (days - 1) * DAY_MS);
      const counts = new Map<string, { cloudMessages: number; localMessages: number }>();
      for (let i = 0; i < days; i++) {
        counts.set(new Date(first.getTime() + i * DAY_MS).toISOString().slice(0, 10), {
          cloudMessages: 0,
          localMessages: 0,
        });
      }
      for (const r of deps.messagesByDayAndClass?.(first) ?? []) {
        const day = counts.get(r.day);
        if (!day) continue;
        if (r.modelClass === 'cloud') day.cloudMessages += r.messages;
        else day.localMessages += r.messages;
      }
      const { limits } = current();
      return {
        days: [...counts].map(([date, c]) => ({ date, ...c })),
        limits: [
          { limit: 'aiMessages', used: deps.cloudMessagesInMonth(at), allowed: limits.aiMessages },
          { limit: 'maxModels', used: lastInstalled, allowed: limits.maxModels },
          {
            limit: 'homeAssistantEntities',
            used: deps.entityLedger.get().length,
            allowed: limits.homeAssistantEntities,
          },
          { limit: 'parallelProcessing', used: null, allowed: limits.parallelProcessing },
          { limit: 'vpnAccess', used: null, allowed: limits.vpnAccess },
        ],
      };
    },
  };
  return api;
}

export type PlanLimitsService = ReturnType<typeof createPlanLimits>;
