import { z } from 'zod';

/**
 * What a second-factor field accepts: the 6-digit code of the authenticator app (spec §9,
 * TOTP_DIGITS in auth.ts) or a recovery code, ten chars of Crockford's base32 shown as
 * `xxxxx-xxxxx` and typed with or without the hyphen. Its own module because auth.ts (sign-in)
 * and account-security.ts both need it and the latter imports the former.
 */
export const RECOVERY_CODE_PATTERN = /^[0-9a-z]{5}-?[0-9a-z]{5}$/i;
export const TOTP_CODE_PATTERN = /^\d{6}$/;

export const secondFactorCodeSchema = z
  .string()
  .trim()
  .refine(
    (v) => TOTP_CODE_PATTERN.test(v) || RECOVERY_CODE_PATTERN.test(v),
    'Enter the 6-digit code or a recovery code',
  );

export const isRecoveryCodeShape = (code: string) => RECOVERY_CODE_PATTERN.test(code.trim());
