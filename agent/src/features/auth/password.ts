import { argon2id, hash, needsRehash, verify } from 'argon2';

/**
 * OWASP Password Storage Cheat Sheet, argon2id minimum: 19 MiB of memory, 2 iterations, 1 lane.
 * About 30 ms per hash on a desktop core, a little more on a Jetson: slow for an attacker with a
 * stolen database, quick enough for a person signing in.
 */
export const ARGON2_PARAMS = { type: argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_PARAMS);
}

/** False for a wrong password and for a stored value that is not an argon2 hash at all. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/** True when a hash was made with weaker parameters than today's, so a sign-in can upgrade it. */
export function passwordNeedsRehash(storedHash: string): boolean {
  try {
    return needsRehash(storedHash, ARGON2_PARAMS);
  } catch {
    return true;
  }
}

let dummyHash: Promise<string> | undefined;

/** Makes the dummy hash ahead of the first sign-in, so even that one takes the usual time. */
export function primeDummyHash(): Promise<string> {
  dummyHash ??= hashPassword('nexus-dummy-password-for-timing');
  return dummyHash;
}

/**
 * Spends the same work as checking a real password, for sign-ins with an unknown email: without
 * it, "no such account" would answer measurably faster than "wrong password" and reveal which
 * addresses have accounts.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(await primeDummyHash(), password);
  return false;
}
