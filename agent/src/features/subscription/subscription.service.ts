import type { LicenceRecord, PlanId, SubscriptionStatus } from '../../contract/subscription.js';
import { LICENCE_GRACE_DAYS, PLANS, TRIAL_DAYS, TRIAL_PLAN, UNLIMITED } from '../../contract/subscription.js';
import type { LicenceRow, SubscriptionRow } from './subscription.table.js';
import type { SubscriptionRepository } from './subscription.repository.js';
import type { LicencesRepository } from './licences.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the subscription needs to know about usage, whoever counts it. */
export interface MonthlyUsage {
  messagesInMonth(at: number): number;
}

/** First day of `at`'s month, UTC. */
function monthStart(at: number): Date {
  const d = new Date(at);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}

const GRACE_MS = LICENCE_GRACE_DAYS * DAY_MS;

/** What is in force at a time, and when it ends (the "ends in 7 days" alert follows it). */
export interface PlanInForce extends Pick<SubscriptionStatus, 'plan' | 'status' | 'licence'> {
  /** When the plan in force ends: the licence's expiry (its grace's end once expired), the trial's end; null if nothing ends. */
  period: { kind: 'trial' | 'licence'; endsAt: number } | null;
}

/**
 * A licence's state at `at`. `latest` is the latest activation: only it can be in force, so an
 * older licence is replaced even when the latest was deactivated (that returns to the trial or Free).
 */
export function licenceState(
  row: LicenceRow,
  latest: LicenceRow | undefined,
  at: number,
): LicenceRecord['state'] {
  if (row.deactivatedAt) return 'deactivated';
  if (latest && latest.lid !== row.lid) return 'replaced';
  const expires = row.expiresAt.getTime();
  if (at < expires) return 'in-force';
  return at < expires + GRACE_MS ? 'grace' : 'expired';
}

/**
 * The plan and status in force at `at`: the latest licence until its grace ends (14 days after it
 * expires, with `inGrace`), else a plan paid for before licences (the old plan/paidUntil columns,
 * until paidUntil), else the trial while it runs, else Free.
 */
export function effectivePlan(row: SubscriptionRow, latest: LicenceRow | undefined, at: number): PlanInForce {
  const state = latest ? licenceState(latest, latest, at) : null;
  if (latest && (state === 'in-force' || state === 'grace')) {
    const expiresAt = latest.expiresAt.getTime();
    const inGrace = state === 'grace';
    return {
      plan: latest.plan,
      status: 'active',
      licence: {
        lid: latest.lid,
        plan: latest.plan,
        expiresAt: latest.expiresAt.toISOString(),
        graceEndsAt: inGrace ? new Date(expiresAt + GRACE_MS).toISOString() : null,
        inGrace,
      },
      period: { kind: 'licence', endsAt: inGrace ? expiresAt + GRACE_MS : expiresAt },
    };
  }
  const paid = row.plan !== 'free' && (row.paidUntil === null || row.paidUntil.getTime() > at);
  if (paid)
    return {
      plan: row.plan,
      status: 'active',
      licence: null,
      period: row.paidUntil ? { kind: 'licence', endsAt: row.paidUntil.getTime() } : null,
    };
  if (at < row.trialEndsAt.getTime())
    return {
      plan: row.trialPlan,
      status: 'trialing',
      licence: null,
      period: { kind: 'trial', endsAt: row.trialEndsAt.getTime() },
    };
  return { plan: 'free', status: 'expired', licence: null, period: null };
}

export function createSubscriptionService(deps: {
  repository: SubscriptionRepository;
  usage: MonthlyUsage;
  /** This hub's stable random id (licence keys name it). */
  hubId: () => string;
  /** The licences activated on this hub; without them the plan comes from the trial and the old paid plan. */
  licences?: LicencesRepository;
  /** The vendor's store (NEXUS_LICENCE_STORE_URL); the status names it with this hub's id. */
  storeUrl?: string;
  /** Limits at or past 80 % of the plan's allowance (the plan-limits module). */
  warnings?: (plan: PlanId) => SubscriptionStatus['warnings'];
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;

  /** The store's address with `hub=<this hub's id>`, so the store sells a key for this hub; the plan is chosen there. */
  function storeUrl(): string | null {
    if (!deps.storeUrl) return null;
    const url = new URL(deps.storeUrl);
    url.searchParams.set('hub', deps.hubId());
    return url.toString();
  }

  function ensure(): SubscriptionRow {
    const existing = deps.repository.get();
    if (existing) return existing;
    const startedAt = now();
    return deps.repository.ensure({
      plan: TRIAL_PLAN,
      startedAt: new Date(startedAt),
      endsAt: new Date(startedAt + TRIAL_DAYS * DAY_MS),
    });
  }

  return {
    /** Called when the hub starts: its first start begins the trial. */
    ensureStarted(): void {
      ensure();
    },

    /** The plan in force now and when it ends. */
    inForce(): PlanInForce {
      return effectivePlan(ensure(), deps.licences?.latest(), now());
    },

    status(): SubscriptionStatus {
      const at = now();
      const row = ensure();
      const { plan, status, licence } = effectivePlan(row, deps.licences?.latest(), at);
      const limits = PLANS[plan].limits;
      const aiMessages = deps.usage.messagesInMonth(at);
      return {
        plan,
        status,
        trialEndDate: row.trialEndsAt.toISOString(),
        usage: {
          aiMessages,
          remainingMessages:
            limits.aiMessages === UNLIMITED ? UNLIMITED : Math.max(0, limits.aiMessages - aiMessages),
        },
        limits,
        periodStart: monthStart(at).toISOString(),
        hubId: deps.hubId(),
        licence,
        warnings: deps.warnings?.(plan) ?? [],
        storeUrl: storeUrl(),
      };
    },
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
