import { argon2i, argon2id, hash } from 'argon2';
import { describe, expect, it } from 'vitest';
import {
  ARGON2_PARAMS,
  DUMMY_HASH,
  hashPassword,
  passwordNeedsRehash,
  verifyAgainstDummy,
  verifyPassword,
} from './password.js';

describe('password hashing', () => {
  it('uses argon2id at the OWASP parameters (19 MiB, 2 passes, 1 lane) with a random salt', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('correct horse battery');
    expect(ARGON2_PARAMS.type).toBe(argon2id);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery');
    await expect(verifyPassword(stored, 'correct horse battery')).resolves.toBe(true);
    await expect(verifyPassword(stored, 'Correct horse battery')).resolves.toBe(false);
    await expect(verifyPassword(stored, '')).resolves.toBe(false);
  });

  it('answers false, not an exception, for a stored value that is not a hash', async () => {
    await expect(verifyPassword('not-a-hash', 'whatever')).resolves.toBe(false);
  });

  it('asks for a rehash of weaker hashes only', async () => {
    expect(passwordNeedsRehash(await hashPassword('x'))).toBe(false);
    const weak = await hash('x', { type: argon2i, memoryCost: 4096, timeCost: 1, parallelism: 1 });
    expect(passwordNeedsRehash(weak)).toBe(true);
  });

  it("keeps the dummy hash at today's parameters, so checking it costs what a real check costs", () => {
    expect(passwordNeedsRehash(DUMMY_HASH)).toBe(false);
    expect(DUMMY_HASH).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });

  it('spends real hashing work for unknown accounts and always says no', async () => {
    await verifyAgainstDummy('warm-up');
    const started = performance.now();
    await expect(verifyAgainstDummy('anything')).resolves.toBe(false);
    const dummyMs = performance.now() - started;
    const stored = await hashPassword('anything else');
    const realStarted = performance.now();
    await verifyPassword(stored, 'anything');
    const realMs = performance.now() - realStarted;
    // Same argon2 parameters, so the same order of work (not a timing benchmark: a wide margin).
    expect(dummyMs).toBeGreaterThan(realMs / 4);
  });
});
