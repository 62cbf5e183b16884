import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import {
  DELIVERY_STATES,
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_LEVELS,
} from '../../contract/notifications.js';
// Only the users table, for the foreign keys: a deleted account takes its notifications along.
import { users } from '../auth/index.js';

export const notifications = sqliteTable(
  'notifications',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The one account it is for; null means every account (a hub event). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    level: text('level', { enum: NOTIFICATION_LEVELS }).notNull().default('info'),
    category: text('category', { enum: NOTIFICATION_CATEGORIES }).notNull().default('system'),
    /** The incident it opens or clears (e.g. "container:<name>:died"), so one fault notifies once. */
    incidentKey: text('incident_key'),
    title: text('title').notNull(),
    body: text('body'),
    link: text('link'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch() * 1000)`),
  },
  (t) => [index('notifications_user_created_idx').on(t.userId, t.createdAt)],
);

/**
 * Read state per account. A broadcast is one row in `notifications` but each person reads it
 * on their own, so "read" cannot be a column of the notification.
 */
export const notificationReads = sqliteTable(
  'notification_reads',
  {
    notificationId: integer('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: integer('read_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.notificationId, t.userId] })],
);

/** A person's "delete" of a broadcast hides it for them only; their own notifications are deleted. */
export const notificationHidden = sqliteTable(
  'notification_hidden',
  {
    notificationId: integer('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.notificationId, t.userId] })],
);

/**
 * An incident is open from the notification that reported a fault until the one that says it
 * cleared; while open, the same fault does not notify again (no storm), across restarts too.
 */
export const notificationIncidents = sqliteTable('notification_incidents', {
  key: text('key').primaryKey(),
  category: text('category', { enum: NOTIFICATION_CATEGORIES }).notNull(),
  openedAt: integer('opened_at', { mode: 'timestamp_ms' }).notNull(),
  notificationId: integer('notification_id').references(() => notifications.id, { onDelete: 'set null' }),
});

/** Per user: the NotificationPreferences JSON (contract/notifications.ts). */
export const notificationPreferences = sqliteTable('notification_preferences', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  value: text('value').notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/** The hub's outgoing channels (admin settings); the ntfy token or webhook secret is sealed. */
export const notificationChannels = sqliteTable('notification_channels', {
  channel: text('channel', { enum: NOTIFICATION_CHANNELS }).primaryKey(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(false),
  /** The channel's settings without secrets, JSON. */
  config: text('config').notNull().default('{}'),
  secretSealed: text('secret_sealed'),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/**
 * One notification on one channel (for one person, or for the hub-wide ntfy/webhook channels with
 * user_id null): the outbox that retries with back-off and shows failures.
 */
export const notificationDeliveries = sqliteTable(
  'notification_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    notificationId: integer('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: NOTIFICATION_CHANNELS }).notNull(),
    status: text('status', { enum: DELIVERY_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('notification_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('notification_deliveries_notification_idx').on(t.notificationId),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
