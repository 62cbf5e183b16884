import { createHash, randomBytes } from 'node:crypto';
import { aliasedTable, and, desc, eq, gt, isNull, lt } from 'drizzle-orm';
import type { ZodType } from 'zod';
import type { Role } from '../../contract/auth.js';
import {
  INVITE_EXPIRED_MESSAGE,
  INVITE_INVALID_MESSAGE,
  INVITE_REVOKED_MESSAGE,
  INVITE_USED_MESSAGE,
  REGISTRATION_CLOSED_MESSAGE,
  REGISTRATION_NEEDS_INVITE_MESSAGE,
  registrationModeSchema,
  type CreateInviteInput,
  type CreatedInvite,
  type Invite,
  type InviteStatus,
  type RegistrationMode,
  createInviteInputSchema,
} from '../../contract/invites.js';
import type { Db } from '../../db/client.js';
import { conflict, forbidden, notFound } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { AuditRecorder } from '../audit/index.js';
import { users } from './auth.table.js';
import { invites, type InviteRow } from './invites.table.js';

/** The settings repository (features/settings), as this feature uses it. */
export interface RegistrationSettings {
  get<T>(key: string, schema: ZodType<T>): T | undefined;
  set(key: string, value: unknown): void;
}

export interface RegistrationServiceDeps {
  db: Db;
  settings: RegistrationSettings;
  /** NEXUS_REGISTRATION: the mode until an admin sets one. */
  defaultMode: RegistrationMode;
  log: Logger;
  /** The security event log; the admin and address come from the request (audit-scope.ts). */
  audit?: AuditRecorder;
  now?: () => number;
}

/** Settings key of the mode an admin chose; once set it wins over NEXUS_REGISTRATION. */
const MODE_KEY = 'auth.registration.mode';
/** Ended invites (used, expired, revoked) stay listed this long, then go. */
const ENDED_INVITE_KEEP_MS = 30 * 24 * 3600 * 1000;

/** Invite codes are 128 random bits; only their SHA-256 is stored, as with session ids. */
export const hashInviteCode = (code: string) => createHash('sha256').update(code.trim()).digest('hex');
const newInviteCode = () => randomBytes(16).toString('base64url');

/** Decided inside the account's transaction: the role the new account gets, and what to record. */
export interface Admission {
  role: Role;
  created?: (userId: number) => void;
}

export function createRegistrationService(deps: RegistrationServiceDeps) {
  const { db, settings, log } = deps;
  const now = deps.now ?? Date.now;
  const creator = aliasedTable(users, 'creator');
  const user = aliasedTable(users, 'invitee');

  const statusOf = (row: Pick<InviteRow, 'usedAt' | 'revokedAt' | 'expiresAt'>): InviteStatus => {
    if (row.usedAt) return 'used';
    if (row.revokedAt) return 'revoked';
    if (row.expiresAt.getTime() <= now()) return 'expired';
    return 'pending';
  };

  const refusal = (status: InviteStatus | 'unknown') => {
    switch (status) {
      case 'used':
        return forbidden(INVITE_USED_MESSAGE);
      case 'expired':
        return forbidden(INVITE_EXPIRED_MESSAGE);
      case 'revoked':
        return forbidden(INVITE_REVOKED_MESSAGE);
      default:
        return forbidden(INVITE_INVALID_MESSAGE);
    }
  };

  const mode = (): RegistrationMode => settings.get(MODE_KEY, registrationModeSchema) ?? deps.defaultMode;
  const codeOf = (inviteCode: string | undefined) => (inviteCode?.trim() ? inviteCode.trim() : undefined);

  /** Why a registration with this code would be refused now, or null. Read-only. */
  const refusalFor = (inviteCode: string | undefined) => {
    const current = mode();
    if (current === 'closed') return forbidden(REGISTRATION_CLOSED_MESSAGE);
    const code = codeOf(inviteCode);
    if (!code) return current === 'open' ? null : forbidden(REGISTRATION_NEEDS_INVITE_MESSAGE);
    const row = db
      .select()
      .from(invites)
      .where(eq(invites.codeHash, hashInviteCode(code)))
      .get();
    if (!row) return refusal('unknown');
    const status = statusOf(row);
    return status === 'pending' ? null : refusal(status);
  };

  return {
    mode,

    setMode(next: RegistrationMode, actorId: number): RegistrationMode {
      settings.set(MODE_KEY, next);
      log.info({ actorId, mode: next }, 'registration mode changed');
      return next;
    },

    /**
     * The cheap refusal before a password is hashed; the account's transaction decides again
     * (admit), so a code used in between is still refused.
     */
    precheck(inviteCode: string | undefined): void {
      const refused = refusalFor(inviteCode);
      if (refused) throw refused;
    },

    /**
     * Runs inside the IMMEDIATE transaction that creates a non-first account: checks the mode and
     * consumes the invite with a conditional update, so of two registrations racing with one code
     * exactly one gets it; the account's insert failing rolls the consumption back.
     */
    admit(inviteCode: string | undefined): Admission {
      const refused = refusalFor(inviteCode);
      if (refused) throw refused;
      const code = codeOf(inviteCode);
      if (!code) return { role: 'user' };
      const stamp = new Date(now());
      const claimed = db
        .update(invites)
        .set({ usedAt: stamp })
        .where(
          and(
            eq(invites.codeHash, hashInviteCode(code)),
            isNull(invites.usedAt),
            isNull(invites.revokedAt),
            gt(invites.expiresAt, stamp),
          ),
        )
        .returning({ id: invites.id, role: invites.role })
        .all();
      const invite = claimed[0];
      if (!invite) throw refusal('used');
      return {
        role: invite.role,
        created: (userId) => {
          db.update(invites).set({ usedBy: userId }).where(eq(invites.id, invite.id)).run();
          log.info({ inviteId: invite.id, userId, role: invite.role }, 'invite used');
        },
      };
    },

    /** `origin`: where the console is opened (NEXUS_PUBLIC_URL, else the admin's own request). */
    createInvite(actorId: number, input: CreateInviteInput, origin: string): CreatedInvite {
      const { role, expiresInHours } = createInviteInputSchema.parse(input);
      const code = newInviteCode();
      const created = new Date(now());
      const expiresAt = new Date(created.getTime() + expiresInHours * 3600 * 1000);
      // Ended invites are kept a while for the list, then pruned so the table stays small.
      db.delete(invites)
        .where(lt(invites.expiresAt, new Date(created.getTime() - ENDED_INVITE_KEEP_MS)))
        .run();
      const row = db
        .insert(invites)
        .values({ codeHash: hashInviteCode(code), role, createdBy: actorId, createdAt: created, expiresAt })
        .returning({ id: invites.id })
        .all()[0];
      if (!row) throw new Error('storing the invite returned no row');
      log.info({ actorId, inviteId: row.id, role, expiresAt: expiresAt.toISOString() }, 'invite created');
      deps.audit?.record({
        type: 'invite_created',
        target: `invite ${row.id}`,
        details: { inviteId: row.id, role, expiresAt: expiresAt.toISOString() },
      });
      const url = new URL('/auth', origin);
      url.searchParams.set('invite', code);
      return { id: row.id, code, url: url.toString(), role, expiresAt: expiresAt.toISOString() };
    },

    listInvites(): Invite[] {
      const rows = db
        .select({
          invite: invites,
          creatorName: creator.name,
          inviteeName: user.name,
        })
        .from(invites)
        .leftJoin(creator, eq(creator.id, invites.createdBy))
        .leftJoin(user, eq(user.id, invites.usedBy))
        .orderBy(desc(invites.createdAt), desc(invites.id))
        .all();
      return rows.map(({ invite, creatorName, inviteeName }) => ({
        id: invite.id,
        role: invite.role,
        status: statusOf(invite),
        createdBy:
          invite.createdBy !== null && creatorName !== null
            ? { id: invite.createdBy, name: creatorName }
            : null,
        createdAt: invite.createdAt.toISOString(),
        expiresAt: invite.expiresAt.toISOString(),
        usedAt: invite.usedAt?.toISOString() ?? null,
        usedBy:
          invite.usedBy !== null && inviteeName !== null ? { id: invite.usedBy, name: inviteeName } : null,
        revokedAt: invite.revokedAt?.toISOString() ?? null,
      }));
    },

    /** Revoking is final; an invite already used cannot be revoked (remove the account instead). */
    revokeInvite(actorId: number, id: number): void {
      const row = db.select().from(invites).where(eq(invites.id, id)).get();
      if (!row) throw notFound('No such invite');
      if (row.usedAt) throw conflict('This invite was already used: remove the account instead');
      if (!row.revokedAt) {
        db.update(invites)
          .set({ revokedAt: new Date(now()) })
          .where(eq(invites.id, id))
          .run();
        log.info({ actorId, inviteId: id }, 'invite revoked');
        deps.audit?.record({
          type: 'invite_revoked',
          target: `invite ${id}`,
          details: { inviteId: id, role: row.role },
        });
      }
    },
  };
}

export type RegistrationService = ReturnType<typeof createRegistrationService>;
