import { z } from 'zod';

export const ROLES = ['user', 'admin', 'superadmin'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** Spec §9: a TOTP code is 6 digits. */
export const TOTP_DIGITS = 6;
const totpCode = z
  .string()
  .trim()
  .regex(new RegExp(`^\\d{${TOTP_DIGITS}}$`), `Enter the ${TOTP_DIGITS}-digit code`);

const email = z.string().trim().max(254).pipe(z.email('Enter a valid email address'));
/** A password length rule is not in the spec; 8 is the NIST SP 800-63B minimum, 256 bounds hashing work. */
export const PASSWORD_MIN_LENGTH = 8;
const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(256, 'Password must be at most 256 characters');

export const loginInputSchema = z.object({
  email,
  password: z.string().min(1, 'Password is required').max(256),
  totpCode: totpCode.optional(),
  rememberMe: z.boolean().optional().default(false),
});
export type LoginInput = z.input<typeof loginInputSchema>;

export const registerInputSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100),
  email,
  password: newPassword,
});
export type RegisterInput = z.infer<typeof registerInputSchema>;

export const totpCodeInputSchema = z.object({ code: totpCode });

export const publicUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  twoFactorEnabled: z.boolean(),
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export const twoFactorSetupSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** The server's message when a 2FA account signs in without a code (the web matches on it, spec §4). */
export const TWO_FACTOR_REQUIRED_MESSAGE = '2FA code required';

export function isAdminRole(role: Role): boolean {
  return role === 'admin' || role === 'superadmin';
}
