import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { PLAN_IDS } from '../../contract/subscription.js';

/** The hub's one subscription (id 1): created when the hub first starts, which starts its trial. */
export const subscription = sqliteTable('subscription', {
  id: integer('id').primaryKey(),
  /** The plan paid for; free until billing records a purchase. */
  plan: text('plan', { enum: PLAN_IDS }).notNull().default('free'),
  /** Until when the paid plan is paid; null for free. */
  paidUntil: integer('paid_until', { mode: 'timestamp_ms' }),
  trialPlan: text('trial_plan', { enum: PLAN_IDS }).notNull(),
  trialStartedAt: integer('trial_started_at', { mode: 'timestamp_ms' }).notNull(),
  trialEndsAt: integer('trial_ends_at', { mode: 'timestamp_ms' }).notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

export type SubscriptionRow = typeof subscription.$inferSelect;

/**
 * Every licence key activated on this hub (issue 22): the one in force is the newest activated and
 * not deactivated; the rest are the purchase history. The key itself is kept so its receipt can be
 * downloaded again; it is signed, not secret.
 */
export const licences = sqliteTable('licences', {
  lid: text('lid').primaryKey(),
  key: text('key').notNull(),
  plan: text('plan', { enum: ['pro', 'max'] }).notNull(),
  hubId: text('hub_id').notNull(),
  issuedAt: integer('issued_at', { mode: 'timestamp_ms' }).notNull(),
  expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  notBefore: integer('not_before', { mode: 'timestamp_ms' }),
  seats: integer('seats'),
  activatedAt: integer('activated_at', { mode: 'timestamp_ms' }).notNull(),
  deactivatedAt: integer('deactivated_at', { mode: 'timestamp_ms' }),
});
export type LicenceRow = typeof licences.$inferSelect;
