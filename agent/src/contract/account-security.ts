import { z } from 'zod';
import { TOTP_DIGITS, publicUserSchema } from './auth.js';
import { secondFactorCodeSchema } from './second-factor.js';

/** Ten per enrolment (see second-factor.ts for their shape). */
export const RECOVERY_CODE_COUNT = 10;

const totpCodePattern = new RegExp(`^\\d{${TOTP_DIGITS}}$`);

/** `POST /api/auth/2fa/disable`: a code from the app or a recovery code. */
export const disableTwoFactorInputSchema = z.object({ code: secondFactorCodeSchema });

/** The answer of `POST /api/auth/2fa/enable`: the recovery codes appear here once and never again. */
export const enableTwoFactorResponseSchema = z.object({
  user: publicUserSchema,
  recoveryCodes: z.array(z.string()),
});
export type EnableTwoFactorResponse = z.infer<typeof enableTwoFactorResponseSchema>;

/** `POST /api/auth/recovery-codes`: a fresh set; the old ones stop working. */
export const recoveryCodesResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

/** `GET /api/auth/recovery-codes`: how many unused codes remain (never the codes). */
export const recoveryCodesStatusSchema = z.object({ remaining: z.number().int(), total: z.number().int() });
export type RecoveryCodesStatus = z.infer<typeof recoveryCodesStatusSchema>;

/** `POST /api/auth/2fa/test`. */
export const twoFactorTestInputSchema = z.object({
  code: z.string().trim().regex(totpCodePattern, `Enter the ${TOTP_DIGITS}-digit code`),
});
/**
 * `matchedStep`: which 30-second step matched relative to the hub's clock (0 = now, +1 = the next
 * one: the device runs ahead); `driftSeconds` is that step in seconds. Both null when no step matched.
 */
export const twoFactorTestResultSchema = z.object({
  valid: z.boolean(),
  matchedStep: z.number().int().nullable(),
  driftSeconds: z.number().int().nullable(),
  /** Whether sign-in (which accepts one step either way) would take this code now. */
  withinSignInWindow: z.boolean(),
  /** How many steps either way were searched. */
  searchedSteps: z.number().int(),
});
export type TwoFactorTestResult = z.infer<typeof twoFactorTestResultSchema>;

/** `POST /api/auth/reauth`. */
export const reauthInputSchema = z.object({ password: z.string().min(1, 'Password is required').max(256) });
export type ReauthInput = z.infer<typeof reauthInputSchema>;
export const reauthResponseSchema = z.object({ reauthenticatedAt: z.string() });

/** A sign-in as `GET /api/auth/sessions` lists it. The session token and its hash never leave the hub. */
export const sessionInfoSchema = z.object({
  id: z.string(),
  kind: z.enum(['browser', 'phone']),
  deviceName: z.string().nullable(),
  /** e.g. "Chrome 131", parsed from the User-Agent; null when unknown. */
  browser: z.string().nullable(),
  /** e.g. "Linux", "iOS 18.1". */
  os: z.string().nullable(),
  userAgent: z.string().nullable(),
  ipAddress: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
export const sessionListSchema = z.object({ sessions: z.array(sessionInfoSchema) });
export type SessionList = z.infer<typeof sessionListSchema>;

export const sessionIdParamSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{8,64}$/, 'Not a session id'),
});
export const userSessionParamSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, 'A user id is a positive whole number')
    .transform(Number),
  sid: z.string().regex(/^[0-9a-f]{8,64}$/, 'Not a session id'),
});

export const revokeOthersResponseSchema = z.object({ revoked: z.number().int() });

export const ACCOUNT_DISABLED_MESSAGE = 'This account is disabled: ask an admin of this hub to enable it';
