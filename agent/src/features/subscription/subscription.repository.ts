import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { PlanId } from '../../contract/subscription.js';
import { subscription, type SubscriptionRow } from './subscription.table.js';

const HUB_SUBSCRIPTION_ID = 1;

export function createSubscriptionRepository(db: Db) {
  return {
    get(): SubscriptionRow | undefined {
      return db.select().from(subscription).where(eq(subscription.id, HUB_SUBSCRIPTION_ID)).get();
    },

    /** Creates the row unless it exists (a second start never restarts the trial); returns the stored row. */
    ensure(trial: { plan: PlanId; startedAt: Date; endsAt: Date }): SubscriptionRow {
      db.insert(subscription)
        .values({
          id: HUB_SUBSCRIPTION_ID,
          plan: 'free',
          paidUntil: null,
          trialPlan: trial.plan,
          trialStartedAt: trial.startedAt,
          trialEndsAt: trial.endsAt,
          updatedAt: trial.startedAt,
        })
        .onConflictDoNothing()
        .run();
      return this.get()!;
    },

    /** For billing: records a purchased plan. */
    setPaidPlan(plan: PlanId, paidUntil: Date | null, at: Date): void {
      db.update(subscription)
        .set({ plan, paidUntil, updatedAt: at })
        .where(eq(subscription.id, HUB_SUBSCRIPTION_ID))
        .run();
    },
  };
}

export type SubscriptionRepository = ReturnType<typeof createSubscriptionRepository>;
