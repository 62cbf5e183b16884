import type * as Argon2 from 'argon2';
import { lazyRequire } from '../../lib/lazy-require.js';

// Loaded with the first sign-in, registration or password change: its native module and bindings
// are over 1 MB of memory that a hub where nobody is signing in does not need.
const argon2 = lazyRequire<typeof Argon2>('argon2');

/** argon2's own constant for argon2id (the type's value, without loading the package). */
const ARGON2ID: typeof Argon2.argon2id = 2;

/**
 * OWASP Password Storage Cheat Sheet, argon2id minimum: 19 MiB of memory, 2 iterations, 1 lane.
 * About 30 ms per hash on a desktop core, a little more on a Jetson: slow for an attacker with a
 * stolen database, quick enough for a person signing in.
 */
export const ARGON2_PARAMS = { type: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2().hash(password, ARGON2_PARAMS);
}

/** False for a wrong password and for a stored value that is not an argon2 hash at all. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await argon2().verify(storedHash, password);
  } catch {
    return false;
  }
}

/** True when a hash was made with weaker parameters than today's, so a sign-in can upgrade it. */
export function passwordNeedsRehash(storedHash: string): boolean {
  try {
    return argon2().needsRehash(storedHash, ARGON2_PARAMS);
  } catch {
    return true;
  }
}

/**
 * A hash of a password nobody uses, made once with ARGON2_PARAMS (password.test.ts holds it to
 * today's parameters). It is no secret: verifying against it always fails, and what matters is
 * that it costs exactly what checking a real account's hash costs.
 */
export const DUMMY_HASH =
  '$argon2id$v=19$m=19456,p=1,t=2$pwpnLSsgR9QwrhGyvk92ZQ$lFkBB9iBoKXzK65mijJLM0EjRhIJrQSSdb4YhoMT2CE';

/**
 * Spends the same work as checking a real password, for sign-ins with an unknown email: without
 * it, "no such account" would answer measurably faster than "wrong password" and reveal which
 * addresses have accounts.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(DUMMY_HASH, password);
  return false;
}
