import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { NOTIFICATION_LEVELS } from '../../contract/notifications.js';
// Only the users table, for the foreign keys: a deleted account takes its notifications along.
import { users } from '../auth/auth.table.js';

export const notifications = sqliteTable(
  'notifications',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The one account it is for; null means every account (a hub event). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    level: text('level', { enum: NOTIFICATION_LEVELS }).notNull().default('info'),
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

export type NotificationRow = typeof notifications.$inferSelect;
