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
