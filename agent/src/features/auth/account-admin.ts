import { and, count, eq, isNull, ne } from 'drizzle-orm';
import type { Role } from '../../contract/auth.js';
import type { Db } from '../../db/client.js';
import { conflict, forbidden, notFound } from '../../lib/http-error.js';
import { sessions, users, type UserRow } from './auth.table.js';

const RANK: Record<Role, number> = { user: 0, admin: 1, superadmin: 2 };

/**
 * The rules every change an admin makes to another account follows: nobody touches an account
 * ranked above their own, and nobody grants a role above their own. (With three roles this means
 * only a superadmin grants, removes or touches the superadmin role.)
 */
export function assertMayManage(actor: { role: Role }, target: { role: Role }, newRole?: Role): void {
  if (RANK[target.role] > RANK[actor.role]) {
    throw forbidden(`Only a ${target.role} can change a ${target.role}'s account`);
  }
  if (newRole && RANK[newRole] > RANK[actor.role]) {
    throw forbidden(`You cannot give anyone a role above your own (${actor.role})`);
  }
}

export const LAST_SUPERADMIN_DISABLE_MESSAGE =
  'This is the last active superadmin: make another account superadmin first';

/** Disabling and enabling accounts (`POST /api/users/:id/disable|enable`). */
export function createAccountAdmin(db: Db, now: () => number = Date.now) {
  return {
    /**
     * Marks the account disabled and deletes its sessions in one IMMEDIATE transaction, so it is
     * signed out everywhere at once, and two admins disabling the last two superadmins at once
     * cannot both succeed.
     */
    disable(actor: { id: number; role: Role }, id: number): UserRow {
      if (id === actor.id) throw conflict('You cannot disable your own account');
      return db.transaction(
        (tx) => {
          const target = tx.select().from(users).where(eq(users.id, id)).get();
          if (!target) throw notFound('No such user');
          assertMayManage(actor, target);
          if (target.disabledAt) return target;
          if (target.role === 'superadmin') {
            const others =
              tx
                .select({ n: count() })
                .from(users)
                .where(and(eq(users.role, 'superadmin'), ne(users.id, id), isNull(users.disabledAt)))
                .get()?.n ?? 0;
            if (others === 0) throw conflict(LAST_SUPERADMIN_DISABLE_MESSAGE);
          }
          tx.delete(sessions).where(eq(sessions.userId, id)).run();
          return tx
            .update(users)
            .set({ disabledAt: new Date(now()), updatedAt: new Date(now()) })
            .where(eq(users.id, id))
            .returning()
            .get();
        },
        { behavior: 'immediate' },
      );
    },

    enable(actor: { id: number; role: Role }, id: number): UserRow {
      const target = db.select().from(users).where(eq(users.id, id)).get();
      if (!target) throw notFound('No such user');
      assertMayManage(actor, target);
      return db
        .update(users)
        .set({ disabledAt: null, updatedAt: new Date(now()) })
        .where(eq(users.id, id))
        .returning()
        .get();
    },
  };
}

export type AccountAdmin = ReturnType<typeof createAccountAdmin>;
