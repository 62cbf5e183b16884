import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth.js';

/** Whether this hub can send reset links by e-mail (SMTP is configured) or the owner resets from the CLI. */
export const passwordResetConfigSchema = z.object({ emailEnabled: z.boolean() });
export type PasswordResetConfig = z.infer<typeof passwordResetConfigSchema>;

/** The command the hub's owner runs when e-mail is not configured (see agent/src/cli.ts). */
export const CLI_RESET_COMMAND = 'npm run cli -- users:reset-password --email <email>';

export const passwordResetRequestSchema = z.object({
  email: z.string().trim().max(254).pipe(z.email('Enter a valid email address')),
});
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

export const passwordResetConfirmSchema = z.object({
  token: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{20,128}$/, 'This reset link is not valid'),
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
});
export type PasswordResetConfirm = z.infer<typeof passwordResetConfirmSchema>;

/** The same answer whether or not the address has an account, so the form reveals no accounts. */
export const PASSWORD_RESET_REQUESTED_MESSAGE =
  'If an account uses that address, a reset link is on its way. It works once, for 1 hour.';
export const PASSWORD_RESET_DONE_MESSAGE = 'Your password is changed. Sign in with the new one.';
export const PASSWORD_RESET_INVALID_MESSAGE =
  'This reset link is invalid, already used or expired. Ask for a new one.';
export const PASSWORD_RESET_EMAIL_DISABLED_MESSAGE =
  "This hub cannot send e-mail, so passwords are reset by the hub's owner from its command line.";

export const passwordResetMessageSchema = z.object({ message: z.string() });
