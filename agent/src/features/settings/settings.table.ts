import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Hub-wide settings as JSON values under dotted keys, e.g. `vpn.failover`. */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  /** JSON text; readers validate it with their own zod schema. */
  value: text('value').notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

export type SettingRow = typeof settings.$inferSelect;
