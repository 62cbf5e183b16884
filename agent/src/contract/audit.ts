import { z } from 'zod';

/** Every security event the hub records (GET /api/audit, /auth-dashboard). */
export const AUDIT_EVENT_TYPES = [
  'sign_in',
  'sign_in_failed',
  'sign_in_throttled',
  'sign_out',
  'password_changed',
  'password_reset',
  'email_changed',
  'two_factor_enabled',
  'two_factor_disabled',
  'recovery_codes_generated',
  'recovery_code_used',
  'passkey_added',
  'passkey_renamed',
  'passkey_removed',
  'passkey_sign_in',
  'reauthenticated',
  'session_revoked',
  'sessions_revoked',
  'phone_paired',
  'account_created',
  'account_disabled',
  'account_enabled',
  'account_deleted',
  'role_changed',
  'invite_created',
  'invite_revoked',
  'api_key_created',
  'api_key_revoked',
  'satellite_token_created',
  'settings_secret_changed',
  'backup_created',
  'backup_downloaded',
  'backup_deleted',
  'backup_restored',
  'restore_confirmed',
  'restore_reverted',
  'container_updated',
  'licence_activated',
  'licence_deactivated',
  'tls_certificate_replaced',
  'tls_certificate_reset',
  'analytics_settings_changed',
  'analytics_history_deleted',
  'analytics_automation_created',
  'fleet_created',
  'fleet_joined',
  'fleet_left',
  'fleet_token_rotated',
  'fleet_node_changed',
] as const;
export const auditEventTypeSchema = z.enum(AUDIT_EVENT_TYPES);
export type AuditEventType = z.infer<typeof auditEventTypeSchema>;

/** Audit rows are kept this long. */
export const AUDIT_RETENTION_DAYS = 365;

export const auditEventSchema = z.object({
  id: z.number().int(),
  /** ISO time. */
  at: z.string(),
  type: auditEventTypeSchema,
  outcome: z.enum(['success', 'failure']),
  actor: z.object({ id: z.number().nullable(), email: z.string().nullable() }),
  targetUser: z.object({ id: z.number().nullable(), email: z.string().nullable() }).nullable(),
  target: z.string().nullable(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

/** Sign-in events for the chart: these count as sign-ins, successful or failed. */
export const SIGN_IN_EVENT_TYPES = ['sign_in', 'sign_in_failed', 'passkey_sign_in'] as const;
/** Changes to an account's second factors, one summary card. */
export const FACTOR_CHANGE_EVENT_TYPES = [
  'two_factor_enabled',
  'two_factor_disabled',
  'passkey_added',
  'passkey_removed',
  'recovery_codes_generated',
] as const;

export const AUDIT_PAGE_MAX = 500;

const isoDate = z
  .string()
  .trim()
  .regex(
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/,
    'Use an ISO date such as 2026-01-31 or 2026-01-31T08:00:00Z',
  )
  .refine((v) => !Number.isNaN(Date.parse(v)), 'Not a real date');

/**
 * GET /api/audit. `type`: one type or a comma list; `user`: an account's id or e-mail (as actor or
 * as the account concerned); `from`/`to`: ISO dates, a bare date `to` includes its whole day (UTC);
 * `before`: the `nextBefore` of the previous page.
 */
export const auditQuerySchema = z.object({
  type: z
    .string()
    .max(2000)
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(auditEventTypeSchema).max(AUDIT_EVENT_TYPES.length))
    .optional(),
  user: z.string().trim().min(1).max(254).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
  before: z.coerce.number().int().positive().optional(),
  format: z.enum(['json', 'csv']).default('json'),
});
export type AuditQueryInput = z.input<typeof auditQuerySchema>;
export type AuditQuery = z.output<typeof auditQuerySchema>;

export const auditListSchema = z.object({
  events: z.array(auditEventSchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: z.number().int().nullable(),
});
export type AuditList = z.infer<typeof auditListSchema>;

export const auditSummaryQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(AUDIT_RETENTION_DAYS).default(30),
});

/** GET /api/audit/summary: the dashboard's chart and cards. Days are UTC calendar days. */
export const auditSummarySchema = z.object({
  days: z.number().int(),
  from: z.string(),
  to: z.string(),
  /** One entry per day, oldest first, days without events included. */
  signInsPerDay: z.array(z.object({ date: z.string(), success: z.number(), failure: z.number() })),
  totals: z.object({
    signIns: z.number(),
    failures: z.number(),
    throttled: z.number(),
    factorChanges: z.number(),
  }),
  countsByType: z.record(z.string(), z.number()),
  /** Addresses with the most failed or throttled sign-ins, most first (top 10). */
  failuresByAddress: z.array(z.object({ ipAddress: z.string(), count: z.number() })),
});
export type AuditSummary = z.infer<typeof auditSummarySchema>;
