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

/**
 * One row per answered AI message, for the usage report by user, model and day
 * (/llm-usage-discovery). The monthly counter above stays the quota's source.
 */
export const aiUsageEvents = sqliteTable(
  'ai_usage_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').notNull(),
    model: text('model').notNull(),
    providerName: text('provider_name').notNull(),
    /** 'cloud' messages count toward the plan's monthly limit; 'local' (this hub's models) never do. */
    modelClass: text('model_class', { enum: ['local', 'cloud'] })
      .notNull()
      .default('local'),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    /** The fleet node whose Ollama answered (issue 24); null for other providers and older rows. */
    node: text('node'),
    /** YYYY-MM-DD (UTC). */
    day: text('day').notNull(),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('ai_usage_events_day_idx').on(t.day),
    index('ai_usage_events_user_day_idx').on(t.userId, t.day),
  ],
);
