import { createHash, randomInt } from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import { RECOVERY_CODE_COUNT } from '../../contract/account-security.js';
import type { Db } from '../../db/client.js';
import { recoveryCodes } from './account-security.table.js';

/** Crockford's base32: no i, l, o or u, so a code read off paper is not misread. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const HALF = 5;

/** One code: 10 symbols of 5 bits = 50 random bits, shown as `xxxxx-xxxxx`. */
export function newRecoveryCode(): string {
  let out = '';
  for (let i = 0; i < HALF * 2; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return `${out.slice(0, HALF)}-${out.slice(HALF)}`;
}

/** Case, spaces and the hyphen do not matter; the letters Crockford maps (i, l → 1, o → 0) are mapped. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '').replace(/[il]/g, '1').replace(/o/g, '0');
}

/** Only this is stored: 50 random bits need no slow hash, and SHA-256 lets a lookup be one query. */
export const hashRecoveryCode = (code: string) =>
  createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');

export function createRecoveryCodeStore(db: Db, now: () => number = Date.now) {
  return {
    /** Replaces the account's codes with ten new ones and returns them: the only time they are seen. */
    replace(userId: number): string[] {
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      const createdAt = new Date(now());
      db.transaction((tx) => {
        tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).run();
        tx.insert(recoveryCodes)
          .values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code), createdAt })))
          .run();
      });
      return codes;
    },

    /**
     * Spends a code: true once, false for an unknown or used one. One conditional UPDATE, so two
     * requests racing with the same code cannot both succeed.
     */
    consume(userId: number, code: string): boolean {
      const result = db
        .update(recoveryCodes)
        .set({ usedAt: new Date(now()) })
        .where(
          and(
            eq(recoveryCodes.userId, userId),
            eq(recoveryCodes.codeHash, hashRecoveryCode(code)),
            isNull(recoveryCodes.usedAt),
          ),
        )
        .run();
      return result.changes === 1;
    },

    remaining(userId: number): number {
      return (
        db
          .select({ n: count() })
          .from(recoveryCodes)
          .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
          .get()?.n ?? 0
      );
    },

    removeAll(userId: number): void {
      db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)).run();
    },
  };
}

export type RecoveryCodeStore = ReturnType<typeof createRecoveryCodeStore>;
