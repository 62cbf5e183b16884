import { z } from 'zod';
import { secondFactorCodeSchema } from './second-factor.js';

import { ROLES, TOTP_DIGITS } from './auth-constants.js';

export {
  ROLES,
  TOTP_DIGITS,
  TWO_FACTOR_REQUIRED_MESSAGE,
  INVALID_CREDENTIALS_MESSAGE,
  isAdminRole,
  type Role,
} from './auth-constants.js';
export const roleSchema = z.enum(ROLES);
const totpCode = z
  .string()
  .trim()
  .regex(new RegExp(`^\\d{${TOTP_DIGITS}}$`), `Enter the ${TOTP_DIGITS}-digit code`);

const email = z.string().trim().max(254).pipe(z.email('Enter a valid email address'));
/** A password length rule is not in the spec; 8 is the NIST SP 800-63B minimum, 256 bounds hashing work. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const loginInputSchema = z.object({
  email,
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH),
  /** An empty or null code means "not given yet", as a form with an empty field would send it. */
  /** Or one of the account's recovery codes (contract/second-factor.ts). */
  totpCode: z.union([secondFactorCodeSchema, z.literal('')]).nullish(),
  rememberMe: z.boolean().optional().default(false),
});
export type LoginInput = z.input<typeof loginInputSchema>;

export const registerInputSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100),
  email,
  password: newPassword,
  /** The one-time code of an invite (hubs in `invite` mode); the link /auth?invite=<code> fills it in. */
  inviteCode: z.string().trim().max(200).optional(),
});
export type RegisterInput = z.infer<typeof registerInputSchema>;

export const totpCodeInputSchema = z.object({ code: totpCode });
export type TotpCodeInput = z.infer<typeof totpCodeInputSchema>;

export const changePasswordInputSchema = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(PASSWORD_MAX_LENGTH),
  newPassword: newPassword,
});
export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;

/** `PATCH /api/users/:id`: what an admin may change about another account. */
export const updateUserInputSchema = z.object({ role: roleSchema });
export type UpdateUserInput = z.infer<typeof updateUserInputSchema>;

export const userIdParamSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, 'A user id is a positive whole number')
    .transform(Number),
});

export const publicUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  twoFactorEnabled: z.boolean(),
  createdAt: z.string(),
  /** An admin disabled the account: it cannot sign in. */
  disabled: z.boolean(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/** The answer of login and register: `{ user }` (spec §3, "The login response carries a user field"). */
export const authResponseSchema = z.object({ user: publicUserSchema });
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const userListSchema = z.object({ users: z.array(publicUserSchema) });
export type UserList = z.infer<typeof userListSchema>;

export const twoFactorSetupSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;
