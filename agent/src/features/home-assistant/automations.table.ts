import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Home Assistant automations this hub made, by their config id, and from what (an analytics
 * suggestion): HA's own config has no place for such a mark that survives edits in HA's editor.
 */
export const haAutomationMarks = sqliteTable('ha_automation_marks', {
  automationId: text('automation_id').primaryKey(),
  /** 'analytics' for one made from a suggestion (issue 16), 'console' for one made on /automations. */
  source: text('source', { enum: ['analytics', 'console'] }).notNull(),
  /** The suggestion it came from, when it did. */
  suggestionId: text('suggestion_id'),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
});
