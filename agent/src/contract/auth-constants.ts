/**
 * The auth contract's plain values, without zod: the console's first page (the session check, the
 * sign-in screen) imports these without loading zod and the schemas (issue 26). auth.ts re-exports them.
 */
export const ROLES = ['user', 'admin', 'superadmin'] as const;
export type Role = (typeof ROLES)[number];

/** Spec §9: a TOTP code is 6 digits. */
export const TOTP_DIGITS = 6;

/** The server's message when a 2FA account signs in without a code (the web matches on it, spec §4). */
export const TWO_FACTOR_REQUIRED_MESSAGE = '2FA code required';
/** The one answer to a wrong email or a wrong password alike, so sign-in does not reveal which accounts exist. */
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';

export function isAdminRole(role: Role): boolean {
  return role === 'admin' || role === 'superadmin';
}

/**
 * Who may create an account on a hub that already has its owner: `open` anyone who reaches it,
 * `invite` whoever holds a one-time invite an admin made, `closed` nobody (invites.ts re-exports it).
 */
export const REGISTRATION_MODES = ['open', 'invite', 'closed'] as const;
