import { z } from 'zod';
import { REGISTRATION_MODES } from './auth-constants.js';

export { REGISTRATION_MODES } from './auth-constants.js';
export const registrationModeSchema = z.enum(REGISTRATION_MODES);
export type RegistrationMode = z.infer<typeof registrationModeSchema>;

/**
 * `GET /api/auth/registration`, readable signed out: the sign-in screen decides with it what the
 * Register tab offers. `firstAccount`: no account exists yet, so the next one is the hub's owner,
 * which needs no invite (only a device on the home network).
 */
export const registrationStatusSchema = z.object({
  mode: registrationModeSchema,
  firstAccount: z.boolean(),
});
export type RegistrationStatus = z.infer<typeof registrationStatusSchema>;

export const registrationModeInputSchema = z.object({ mode: registrationModeSchema });
export type RegistrationModeInput = z.infer<typeof registrationModeInputSchema>;

/** An invite makes a member or an admin; a superadmin is made by promotion only. */
export const INVITE_ROLES = ['user', 'admin'] as const;
export const inviteRoleSchema = z.enum(INVITE_ROLES);
export type InviteRole = z.infer<typeof inviteRoleSchema>;

/** An invite lives at least an hour (time to pass it on) and at most 30 days. */
export const INVITE_MIN_HOURS = 1;
export const INVITE_MAX_HOURS = 720;
export const INVITE_DEFAULT_HOURS = 72;

export const createInviteInputSchema = z.object({
  role: inviteRoleSchema.default('user'),
  expiresInHours: z
    .number()
    .int('Whole hours only')
    .min(INVITE_MIN_HOURS, `An invite lasts at least ${INVITE_MIN_HOURS} hour`)
    .max(INVITE_MAX_HOURS, `An invite lasts at most ${INVITE_MAX_HOURS} hours (30 days)`)
    .default(INVITE_DEFAULT_HOURS),
});
export type CreateInviteInput = z.input<typeof createInviteInputSchema>;

/** The answer of `POST /api/invites`: the only time the code is ever shown. */
export const createdInviteSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  url: z.string(),
  role: inviteRoleSchema,
  expiresAt: z.string(),
});
export type CreatedInvite = z.infer<typeof createdInviteSchema>;

export const INVITE_STATUSES = ['pending', 'used', 'expired', 'revoked'] as const;
export const inviteStatusSchema = z.enum(INVITE_STATUSES);
export type InviteStatus = z.infer<typeof inviteStatusSchema>;

const personSchema = z.object({ id: z.number().int(), name: z.string() });

/** An invite as `GET /api/invites` lists it: never the code, which is stored only hashed. */
export const inviteSchema = z.object({
  id: z.number().int(),
  role: inviteRoleSchema,
  status: inviteStatusSchema,
  createdBy: personSchema.nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
  usedBy: personSchema.nullable(),
  revokedAt: z.string().nullable(),
});
export type Invite = z.infer<typeof inviteSchema>;

export const inviteListSchema = z.object({ invites: z.array(inviteSchema) });
export type InviteList = z.infer<typeof inviteListSchema>;

export const inviteIdParamSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, 'An invite id is a positive whole number')
    .transform(Number),
});

/** What the Register tab's "Registration failed" toast shows when the server refuses. */
export const REGISTRATION_NEEDS_INVITE_MESSAGE =
  "Registration needs an invite from the hub's owner: open the invite link they sent you";
export const REGISTRATION_CLOSED_MESSAGE = "Registration is closed on this hub: ask the hub's owner";
export const INVITE_INVALID_MESSAGE =
  "This invite code is not valid: check it, or ask the hub's owner for a new invite";
export const INVITE_USED_MESSAGE = "This invite was already used: ask the hub's owner for a new one";
export const INVITE_EXPIRED_MESSAGE = "This invite has expired: ask the hub's owner for a new one";
export const INVITE_REVOKED_MESSAGE = "This invite was revoked: ask the hub's owner for a new one";
/** The first account and the first-boot setup are accepted only from the home network. */
export const LOCAL_ONLY_MESSAGE =
  'Setting up this hub works only from the home network: open the console from a device at home (or over the hub’s VPN)';
