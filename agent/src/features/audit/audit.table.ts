import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { AUDIT_EVENT_TYPES } from '../../contract/audit.js';

/**
 * Security events: who did what, from where, when. Actor and target are kept as ids and as the
 * e-mail at the time, so a row still reads right after the account is renamed or deleted.
 */
export const auditEvents = sqliteTable(
  'audit_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
    type: text('type', { enum: AUDIT_EVENT_TYPES }).notNull(),
    outcome: text('outcome', { enum: ['success', 'failure'] })
      .notNull()
      .default('success'),
    actorUserId: integer('actor_user_id'),
    actorEmail: text('actor_email'),
    targetUserId: integer('target_user_id'),
    targetEmail: text('target_email'),
    /** What else the event concerns, in words (a passkey's name, a setting's key, a satellite…). */
    target: text('target'),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    /** JSON with the event's particulars; never a secret. */
    details: text('details'),
  },
  (t) => [
    index('audit_events_at_idx').on(t.at),
    index('audit_events_type_at_idx').on(t.type, t.at),
    index('audit_events_actor_idx').on(t.actorUserId),
  ],
);
export type AuditEventRow = typeof auditEvents.$inferSelect;
