import type { PlanId, SubscriptionStatus } from '../../contract/subscription.js';
import { PLANS, TRIAL_DAYS, TRIAL_PLAN, UNLIMITED } from '../../contract/subscription.js';
import type { SubscriptionRow } from './subscription.table.js';
import type { SubscriptionRepository } from './subscription.repository.js';

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

/** The plan and status in force at `at`: a paid plan while paid, else the trial, else free. */
export function effectivePlan(row: SubscriptionRow, at: number): Pick<SubscriptionStatus, 'plan' | 'status'> {
  const paid = row.plan !== 'free' && (row.paidUntil === null || row.paidUntil.getTime() > at);
  if (paid) return { plan: row.plan, status: 'active' };
  if (at < row.trialEndsAt.getTime()) return { plan: row.trialPlan, status: 'trialing' };
  return { plan: 'free', status: 'expired' };
}

export function createSubscriptionService(deps: {
  repository: SubscriptionRepository;
  usage: MonthlyUsage;
  /** This hub's stable random id (licence keys name it). */
  hubId: () => string;
  /** Limits at or past 80 % of the plan's allowance (the plan-limits module). */
  warnings?: (plan: PlanId) => SubscriptionStatus['warnings'];
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;

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

    status(): SubscriptionStatus {
      const at = now();
      const row = ensure();
      const { plan, status } = effectivePlan(row, at);
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
        // Licences, warnings and the store arrive with issue 22's licence service.
        licence: null,
        warnings: deps.warnings?.(plan) ?? [],
        storeUrl: null,
      };
    },
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
