import type * as Otplib from 'otplib';
import { lazyRequire } from '../../lib/lazy-require.js';
import { TOTP_DIGITS } from '../../contract/auth.js';

/** What authenticator apps show above the code. */
export const TOTP_ISSUER = 'Nexus Console';
/** RFC 6238's recommended time step; what every authenticator app uses by default. */
export const TOTP_PERIOD_SECONDS = 30;
/**
 * One step of clock drift either way (RFC 6238 §6 recommends at most one), so a code typed just as
 * it rolls over, or on a phone whose clock is a little off, still works.
 */
const DRIFT_STEPS = 1;

/** otplib (with its hash and base32 code) loads with the first 2FA code or setup, not at start. */
const otplib = lazyRequire<typeof Otplib>('otplib');

export function newTotpSecret(): string {
  // 20 bytes = 160 bits, RFC 4226's recommended secret length for HMAC-SHA1.
  return otplib().generateSecret({ length: 20 });
}

export function totpUri(secret: string, accountEmail: string): string {
  return otplib().generateURI({
    issuer: TOTP_ISSUER,
    label: accountEmail,
    secret,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

export type TotpCheck = { ok: true; step: number } | { ok: false; reason: 'invalid' | 'replayed' };

/**
 * Checks a code against the secret within the drift window. `lastStep` is the time step of the
 * last accepted code: a code from that step or an earlier one is refused, so a code seen once
 * (over a shoulder, in a proxy log) cannot be used again (RFC 6238 §5.2).
 */
export async function checkTotp(
  secret: string,
  code: string,
  lastStep: number | null,
  nowMs: number,
): Promise<TotpCheck> {
  const epoch = Math.floor(nowMs / 1000);
  const options = {
    secret,
    token: code,
    epoch,
    period: TOTP_PERIOD_SECONDS,
    digits: TOTP_DIGITS,
    epochTolerance: DRIFT_STEPS * TOTP_PERIOD_SECONDS,
  } as const;
  const latestAcceptableStep = Math.floor((epoch + DRIFT_STEPS * TOTP_PERIOD_SECONDS) / TOTP_PERIOD_SECONDS);
  // otplib refuses an afterTimeStep beyond its window (a clock moved backwards); nothing can pass then.
  const afterTimeStep = lastStep === null ? undefined : Math.min(lastStep, latestAcceptableStep);
  const { verify } = otplib();
  const result = await verify({ ...options, afterTimeStep });
  // otplib's result type covers HOTP too; a TOTP match always carries its time step.
  if (result.valid && 'timeStep' in result) return { ok: true, step: result.timeStep };
  if (afterTimeStep !== undefined && (await verify(options)).valid) return { ok: false, reason: 'replayed' };
  return { ok: false, reason: 'invalid' };
}
