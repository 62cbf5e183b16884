import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type Bowser from 'bowser';
import {
  PHONE_PAIRING_TTL_MS,
  type CreatedPhonePairing,
  type PairedPhone,
  type PhonePairingStatus,
} from '../../contract/phones.js';
import type { Db } from '../../db/client.js';
import { forbidden, notFound, tooManyRequests } from '../../lib/http-error.js';
import { lazyRequire } from '../../lib/lazy-require.js';
import type { Logger } from '../../lib/logger.js';
import type { AuditLog } from '../audit/index.js';
import { phonePairings } from './account-security.table.js';
import { sessions, users } from './auth.table.js';
import type { ClientInfo } from './auth.service.js';
import { createThrottle, describeWait, type ThrottleRule } from './login-throttle.js';
import type { CreatedSession, SessionService } from './session.service.js';

/**
 * Failed pairing attempts one address may make per window. A token is 256 random bits, so this is
 * not what keeps it from being guessed; it keeps a scanner from hammering the endpoint and the log.
 */
export const DEFAULT_PAIRING_LIMIT: ThrottleRule = { max: 20, windowMs: 15 * 60_000 };

const EXPIRED_MESSAGE = 'This pairing link has expired or was already used: make a new one on /phone-admin';

// bowser parses a User-Agent when a phone pairs; not loaded by an idle hub.
const bowser = lazyRequire<typeof Bowser>('bowser');

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** "Safari on iOS" from a User-Agent, or null when it names neither. */
export function describeDevice(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const parsed = bowser().parse(userAgent);
  const browser = parsed.browser.name;
  const os = parsed.os.name;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? null;
}

export interface PhonesDeps {
  db: Db;
  sessions: SessionService;
  audit: AuditLog;
  log: Logger;
  pairingLimit?: ThrottleRule;
  now?: () => number;
}

/**
 * Phones paired by a one-time link (/phone-admin): the signed-in user makes a link, the phone opens
 * it and gets a persistent session of kind 'phone' named as the user asked. The token travels in the
 * link's fragment, so it never appears in a request line; only its SHA-256 is stored.
 */
export function createPhonesService(deps: PhonesDeps) {
  const now = deps.now ?? Date.now;
  const throttle = createThrottle(deps.pairingLimit ?? DEFAULT_PAIRING_LIMIT, now);
  const log = deps.log.child({ feature: 'phones' });

  const statusOf = (row: typeof phonePairings.$inferSelect): PhonePairingStatus['status'] =>
    row.usedAt ? 'paired' : row.expiresAt.getTime() <= now() ? 'expired' : 'waiting';

  return {
    createPairing(userId: number, name: string, origin: string): CreatedPhonePairing {
      const token = randomBytes(32).toString('base64url');
      const t = now();
      const expiresAt = new Date(t + PHONE_PAIRING_TTL_MS);
      const row = deps.db
        .insert(phonePairings)
        .values({ tokenHash: hashToken(token), userId, name, createdAt: new Date(t), expiresAt })
        .returning({ id: phonePairings.id })
        .get();
      return { id: row.id, name, url: `${origin}/pair#${token}`, expiresAt: expiresAt.toISOString() };
    },

    /** A pairing's state, for the user who made it only (404 to anyone else). */
    pairingStatus(userId: number, id: number): PhonePairingStatus {
      const row = deps.db
        .select()
        .from(phonePairings)
        .where(and(eq(phonePairings.id, id), eq(phonePairings.userId, userId)))
        .get();
      if (!row) throw notFound('No such pairing');
      return {
        id: row.id,
        name: row.name,
        status: statusOf(row),
        expiresAt: row.expiresAt.toISOString(),
        pairedAt: row.usedAt?.toISOString() ?? null,
      };
    },

    /** Signs the phone in: the token is spent whether or not the session is then used. */
    pair(token: string, client: ClientInfo): CreatedSession {
      const key = client.address;
      const wait = throttle.blockedFor(key);
      if (wait > 0) {
        throw tooManyRequests(`Too many pairing attempts: try again in ${describeWait(wait)}`, wait / 1000);
      }
      const t = now();
      const row = deps.db
        .select({ pairing: phonePairings, user: users })
        .from(phonePairings)
        .innerJoin(users, eq(users.id, phonePairings.userId))
        .where(eq(phonePairings.tokenHash, hashToken(token)))
        .get();
      if (!row || row.pairing.usedAt || row.pairing.expiresAt.getTime() <= t) {
        throttle.record(key);
        // Unknown, used and expired read the same: the phone's owner can only make a new link anyway.
        throw notFound(EXPIRED_MESSAGE);
      }
      if (row.user.disabledAt) throw forbidden('This account is disabled');
      // Spend the token first, conditionally, so two phones racing with one link get one session.
      const spent = deps.db
        .update(phonePairings)
        .set({ usedAt: new Date(t) })
        .where(and(eq(phonePairings.id, row.pairing.id), isNull(phonePairings.usedAt)))
        .run();
      if (spent.changes !== 1) throw notFound(EXPIRED_MESSAGE);
      // A browser already signed in (to any account) is switched over, as sign-in does: its old session ends.
      if (client.presentedToken) deps.sessions.revoke(client.presentedToken);
      const session = deps.sessions.create(row.user.id, {
        persistent: true,
        userAgent: client.userAgent,
        ipAddress: client.address,
        phone: { name: row.pairing.name },
      });
      // Sessions are stored by the SHA-256 of their token, as pairings are.
      const publicId =
        deps.db
          .select({ publicId: sessions.publicId })
          .from(sessions)
          .where(eq(sessions.idHash, hashToken(session.token)))
          .get()?.publicId ?? null;
      deps.db
        .update(phonePairings)
        .set({ sessionPublicId: publicId })
        .where(eq(phonePairings.id, row.pairing.id))
        .run();
      deps.audit.record({
        type: 'phone_paired',
        actor: { id: row.user.id, email: row.user.email },
        target: row.pairing.name,
        ipAddress: client.address,
        userAgent: client.userAgent ?? null,
      });
      log.info({ userId: row.user.id, pairingId: row.pairing.id }, 'phone paired');
      return session;
    },

    /** The user's own phone sessions, newest first. */
    list(userId: number): PairedPhone[] {
      return deps.db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, userId), eq(sessions.kind, 'phone')))
        .orderBy(desc(sessions.createdAt))
        .all()
        .filter((s) => s.expiresAt.getTime() > now())
        .map((s) => ({
          id: s.publicId,
          name: s.deviceName ?? 'Phone',
          device: describeDevice(s.userAgent),
          createdAt: s.createdAt.toISOString(),
          lastSeenAt: s.lastSeenAt.toISOString(),
        }));
    },

    /** Ends one of the user's phone sessions at once; another user's id is simply not found. */
    revoke(actor: { id: number; email: string }, publicId: string, client: ClientInfo): void {
      const row = deps.db
        .select({ deviceName: sessions.deviceName })
        .from(sessions)
        .where(
          and(eq(sessions.publicId, publicId), eq(sessions.userId, actor.id), eq(sessions.kind, 'phone')),
        )
        .get();
      if (!row) throw notFound('No such phone');
      deps.db
        .delete(sessions)
        .where(and(eq(sessions.publicId, publicId), eq(sessions.userId, actor.id)))
        .run();
      deps.audit.record({
        type: 'session_revoked',
        actor,
        target: row.deviceName ?? 'Phone',
        ipAddress: client.address,
        userAgent: client.userAgent ?? null,
        details: { kind: 'phone' },
      });
    },
  };
}

export type PhonesService = ReturnType<typeof createPhonesService>;
