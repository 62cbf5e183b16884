import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The behavioural-analytics event store (issue 16): Home Assistant's state changes, kept compactly.
 * Entity ids and state strings are stored once each in dictionaries; an event is three integers.
 */
export const analyticsEntities = sqliteTable('analytics_entities', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  entityId: text('entity_id').notNull().unique(),
});

export const analyticsStates = sqliteTable('analytics_states', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  value: text('value').notNull().unique(),
});

/**
 * One row per state change: (entity, at) is the key, so a change seen live and again in a backfill
 * is stored once (INSERT OR IGNORE). `at` is Unix milliseconds (HA's last_changed).
 */
export const analyticsEvents = sqliteTable(
  'analytics_events',
  {
    entity: integer('entity').notNull(),
    at: integer('at').notNull(),
    state: integer('state').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entity, t.at] }), index('analytics_events_at').on(t.at)],
);

/** What the household decided about a suggestion; a suggestion without a row is open. */
export const analyticsSuggestions = sqliteTable('analytics_suggestions', {
  id: text('id').primaryKey(),
  status: text('status', { enum: ['dismissed', 'created'] }).notNull(),
  /** The HA automation's config id, when created. */
  automationId: text('automation_id'),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});
