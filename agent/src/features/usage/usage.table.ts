import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * AI messages served, counted per user and calendar month (UTC, `YYYY-MM`). No foreign key to
 * users on purpose: the hub's totals keep counting what a since-deleted account used.
 */
export const aiUsage = sqliteTable(
  'ai_usage',
  {
    userId: integer('user_id').notNull(),
    month: text('month').notNull(),
    aiMessages: integer('ai_messages').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.month] }), index('ai_usage_month_idx').on(t.month)],
);
