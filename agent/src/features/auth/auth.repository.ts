import { and, asc, count, eq, isNull, lt, ne, or } from 'drizzle-orm';
import type { Role } from '../../contract/auth.js';
import type { Db } from '../../db/client.js';
import { conflict, notFound } from '../../lib/http-error.js';
import { users, type UserRow } from './auth.table.js';
import type { Admission } from './registration.service.js';

/** Email addresses are compared without case or surrounding space: Ann@x.org and ann@x.org are one account. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' ||
  (error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY';

export const ACCOUNT_EXISTS_MESSAGE = 'An account with this email already exists';
/** The first-boot setup (features/setup) creates the owner only while no account exists. */
export const ALREADY_SET_UP_MESSAGE = 'This hub is already set up: sign in instead';

export function createAuthRepository(db: Db, now: () => number = Date.now) {
  const stamp = () => new Date(now());

  return {
    findById(id: number): UserRow | undefined {
      return db.select().from(users).where(eq(users.id, id)).get();
    },

    findByEmail(email: string): UserRow | undefined {
      return db
        .select()
        .from(users)
        .where(eq(users.emailNormalized, normalizeEmail(email)))
        .get();
    },

    list(): UserRow[] {
      return db.select().from(users).orderBy(asc(users.id)).all();
    },

    count(): number {
      return db.select({ n: count() }).from(users).get()?.n ?? 0;
    },

    /**
     * Creates an account; the very first one becomes superadmin. Counting and inserting happen in
     * one IMMEDIATE transaction, which takes SQLite's write lock up front, so two first
     * registrations at once (even from two processes) cannot both see an empty table.
     * `onlyIfFirst` refuses with 409 unless the table is empty: the setup wizard's owner, exactly once.
     * `claimFirst` may refuse the first account (it must come from the home network); `admit`
     * decides any later one (registration mode, invite) inside this same transaction.
     */
    create(
      input: { name: string; email: string; passwordHash: string },
      opts: { onlyIfFirst?: boolean; claimFirst?: () => void; admit?: () => Admission } = {},
    ): UserRow {
      try {
        return db.transaction(
          (tx) => {
            const existing = tx.select({ n: count() }).from(users).get()?.n ?? 0;
            if (opts.onlyIfFirst && existing > 0) throw conflict(ALREADY_SET_UP_MESSAGE);
            if (existing === 0) opts.claimFirst?.();
            const admission: Admission =
              existing === 0 ? { role: 'superadmin' } : (opts.admit?.() ?? { role: 'user' });
            const role: Role = admission.role;
            const created = tx
              .insert(users)
              .values({
                name: input.name,
                email: input.email.trim(),
                emailNormalized: normalizeEmail(input.email),
                role,
                passwordHash: input.passwordHash,
                createdAt: stamp(),
                updatedAt: stamp(),
              })
              .returning()
              .all()[0];
            if (!created) throw new Error('storing the account returned no row');
            admission.created?.(created.id);
            return created;
          },
          { behavior: 'immediate' },
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(ACCOUNT_EXISTS_MESSAGE);
        throw error;
      }
    },

    setPasswordHash(id: number, passwordHash: string): void {
      db.update(users).set({ passwordHash, updatedAt: stamp() }).where(eq(users.id, id)).run();
    },

    /** Stores a new, not yet confirmed TOTP secret; the old step no longer matters for a new secret. */
    setPendingTotp(id: number, sealedSecret: string): void {
      db.update(users)
        .set({ totpSecretSealed: sealedSecret, totpEnabled: false, totpLastStep: null, updatedAt: stamp() })
        .where(eq(users.id, id))
        .run();
    },

    enableTotp(id: number): void {
      db.update(users)
        .set({ totpEnabled: true, totpLastStep: null, updatedAt: stamp() })
        .where(eq(users.id, id))
        .run();
    },

    disableTotp(id: number): void {
      db.update(users)
        .set({ totpEnabled: false, totpSecretSealed: null, totpLastStep: null, updatedAt: stamp() })
        .where(eq(users.id, id))
        .run();
    },

    /**
     * Records an accepted TOTP step, only if it is newer than the stored one: of two requests
     * racing with the same code, exactly one wins.
     */
    claimTotpStep(id: number, step: number): boolean {
      const result = db
        .update(users)
        .set({ totpLastStep: step })
        .where(and(eq(users.id, id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
        .run();
      return result.changes === 1;
    },

    /**
     * Changes a role unless that would leave no superadmin. The check and the write share one
     * IMMEDIATE transaction so two demotions at once cannot remove the last two superadmins.
     */
    setRole(id: number, role: Role): UserRow {
      return db.transaction(
        (tx) => {
          const target = tx.select().from(users).where(eq(users.id, id)).get();
          if (!target) throw notFound('No such user');
          // A disabled superadmin cannot sign in, so it does not count as another one.
          if (target.role === 'superadmin' && role !== 'superadmin') {
            const others =
              tx
                .select({ n: count() })
                .from(users)
                .where(and(eq(users.role, 'superadmin'), ne(users.id, id), isNull(users.disabledAt)))
                .get()?.n ?? 0;
            if (others === 0)
              throw conflict('This is the last superadmin: make another account superadmin first');
          }
          return tx.update(users).set({ role, updatedAt: stamp() }).where(eq(users.id, id)).returning().get();
        },
        { behavior: 'immediate' },
      );
    },

    /** Deletes an account (its sessions go with it, by foreign key) unless it is the last superadmin. */
    delete(id: number): void {
      db.transaction(
        (tx) => {
          const target = tx.select().from(users).where(eq(users.id, id)).get();
          if (!target) return;
          if (target.role === 'superadmin') {
            const others =
              tx
                .select({ n: count() })
                .from(users)
                .where(and(eq(users.role, 'superadmin'), ne(users.id, id), isNull(users.disabledAt)))
                .get()?.n ?? 0;
            if (others === 0) throw conflict('The last superadmin cannot be deleted');
          }
          tx.delete(users).where(eq(users.id, id)).run();
        },
        { behavior: 'immediate' },
      );
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
