import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type BetterSqlite3 from 'better-sqlite3';
import { sessions, users, type SessionRow, type UserRow } from './auth.table.js';

export const SESSION_COOKIE = 'nexus_session';
/** "Remember me for 30 days" (spec §9). */
export const REMEMBER_ME_MS = 30 * 24 * 60 * 60 * 1000;
/** A browser-session sign-in also ends after this long without a request. */
export const IDLE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
/** lastSeenAt is written at most this often, so reads do not turn every request into a write. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export interface SessionUser {
  id: number;
  name: string;
  email: string;
  role: UserRow['role'];
  totpEnabled: boolean;
  createdAt: Date;
  /** The session this request came with: its public id, kind and when it last proved the password or a passkey. */
  session: { publicId: string; kind: SessionRow['kind']; reauthAt: Date | null };
}

export interface CreatedSession {
  /** The cookie value: 256 random bits, base64url. Only its hash is stored. */
  token: string;
  persistent: boolean;
  expiresAt: Date;
}

/** How stale another process's database changes may be to the session memo (see databaseVersion). */
const OTHER_WRITERS_CHECK_MS = 1;

/** What validate answers for a session's rows; frozen, because the memo hands the same object to every request. */
function sessionUser(session: SessionRow, user: UserRow): SessionUser {
  return Object.freeze({
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    totpEnabled: user.totpEnabled,
    createdAt: user.createdAt,
    session: Object.freeze({ publicId: session.publicId, kind: session.kind, reauthAt: session.reauthAt }),
  });
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function createSessionService(db: Db, now: () => number = Date.now) {
  // Every API request resolves its cookie: the query is built and compiled by SQLite once, on first
  // use, instead of on every request (that was most of a request's CPU time).
  let findSession: ReturnType<typeof prepareFindSession> | null = null;
  function prepareFindSession() {
    return db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.idHash, sql.placeholder('idHash')))
      .prepare();
  }

  // The rows of recent lookups, valid only while the database is exactly as it was when they were
  // read: this connection has written nothing since (total_changes()) and no other connection, such
  // as the CLI, has committed (PRAGMA data_version). A burst of requests then costs one query and
  // gets the very answers the query would give; any write anywhere simply empties it. total_changes()
  // sees every write of this process (a session revoked, a user disabled or demoted by any service),
  // which an in-process counter bumped by this service alone would not; it costs about 60 ns.
  // Keyed by the cookie value itself, so a hit costs no hashing; the values live only in this
  // process's memory, as they do in every request that carries them. Each entry keeps the answer
  // built from its rows (frozen: callers share it), so a hit allocates nothing.
  const recent = new Map<
    string,
    { idHash: string; session: SessionRow; user: UserRow; answer: SessionUser }
  >();
  const RECENT_MAX = 1000;
  let recentOwnWrites = -1;
  let recentOtherWrites = -1;
  let readOwnWrites: (() => number) | null = null;
  let readOtherWrites: (() => number) | null = null;
  let otherWrites = -1;
  let otherWritesReadAt = -Infinity;
  /** Empties the memo when the database changed since it was filled. */
  function forgetIfDatabaseChanged(): void {
    if (!readOwnWrites || !readOtherWrites) {
      // drizzle() hands its better-sqlite3 connection out as $client; its type leaves it off Db.
      const client = (db as unknown as { $client: BetterSqlite3.Database }).$client;
      const own = client.prepare('select total_changes()').pluck();
      const other = client.prepare('PRAGMA data_version').pluck();
      readOwnWrites = () => own.get() as number;
      readOtherWrites = () => other.get() as number;
    }
    // This process's own writes are counted on every request (a counter read, well under a
    // microsecond). Another process's commits (the CLI) need PRAGMA data_version, which consults
    // the WAL index and cost most of a hot status read under load: it is read at most once per
    // millisecond, so such a change is seen within a millisecond instead of at the next request.
    const t = performance.now();
    if (t - otherWritesReadAt >= OTHER_WRITERS_CHECK_MS) {
      otherWrites = readOtherWrites();
      otherWritesReadAt = t;
    }
    const ownWrites = readOwnWrites();
    if (ownWrites !== recentOwnWrites || otherWrites !== recentOtherWrites) {
      recent.clear();
      recentOwnWrites = ownWrites;
      recentOtherWrites = otherWrites;
    }
  }

  return {
    create(
      userId: number,
      opts: {
        persistent: boolean;
        userAgent?: string;
        ipAddress?: string;
        /** A phone paired on /phone-admin, with the name it was given. */
        phone?: { name: string };
      },
    ): CreatedSession {
      const token = randomBytes(32).toString('base64url');
      const t = now();
      const expiresAt = t + (opts.persistent ? REMEMBER_ME_MS : IDLE_TIMEOUT_MS);
      db.insert(sessions)
        .values({
          idHash: hashToken(token),
          userId,
          persistent: opts.persistent,
          createdAt: new Date(t),
          lastSeenAt: new Date(t),
          expiresAt: new Date(expiresAt),
          userAgent: opts.userAgent?.slice(0, 512) ?? null,
          ipAddress: opts.ipAddress ?? null,
          publicId: randomBytes(12).toString('hex'),
          // Signing in proves the password (or passkey): sensitive changes are allowed for the next minutes.
          reauthAt: opts.phone ? null : new Date(t),
          kind: opts.phone ? 'phone' : 'browser',
          deviceName: opts.phone?.name ?? null,
        })
        .run();
      return { token, persistent: opts.persistent, expiresAt: new Date(expiresAt) };
    },

    /** Resolves a cookie value to its user, sliding the idle timeout of browser-session sign-ins. */
    validate(token: string): SessionUser | null {
      if (!token || token.length > 128) return null;
      forgetIfDatabaseChanged();
      let row = recent.get(token);
      if (!row) {
        const idHash = hashToken(token);
        findSession ??= prepareFindSession();
        const found = findSession.get({ idHash });
        if (!found) return null;
        row = { idHash, ...found, answer: sessionUser(found.session, found.user) };
        if (recent.size >= RECENT_MAX) recent.clear();
        recent.set(token, row);
      }
      const { idHash } = row;
      const t = now();
      if (row.session.expiresAt.getTime() <= t) {
        db.delete(sessions).where(eq(sessions.idHash, idHash)).run();
        return null;
      }
      if (t - row.session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
        const expiresAt = row.session.persistent ? row.session.expiresAt : new Date(t + IDLE_TIMEOUT_MS);
        db.update(sessions)
          .set({ lastSeenAt: new Date(t), expiresAt })
          .where(eq(sessions.idHash, idHash))
          .run();
      }
      // A disabled account's sessions are deleted when it is disabled; this refuses any that a race left.
      if (row.user.disabledAt) return null;
      return row.answer;
    },

    /** Records that this session proved the password or a passkey just now (re-authentication). */
    markReauthenticated(token: string): void {
      db.update(sessions)
        .set({ reauthAt: new Date(now()) })
        .where(eq(sessions.idHash, hashToken(token)))
        .run();
    },

    revoke(token: string): void {
      db.delete(sessions)
        .where(eq(sessions.idHash, hashToken(token)))
        .run();
    },

    /** Signs a user out everywhere, e.g. after a password reset. */
    revokeAllForUser(userId: number): void {
      db.delete(sessions).where(eq(sessions.userId, userId)).run();
    },

    /** After a password change: every other browser signs in again, this one stays. */
    revokeOthers(userId: number, keepToken: string): void {
      db.delete(sessions)
        .where(and(eq(sessions.userId, userId), ne(sessions.idHash, hashToken(keepToken))))
        .run();
    },

    purgeExpired(): number {
      return db
        .delete(sessions)
        .where(lt(sessions.expiresAt, new Date(now())))
        .run().changes;
    },

    /** For tests and the CLI: how many live sessions a user has. */
    countForUser(userId: number): number {
      return db
        .select({ idHash: sessions.idHash })
        .from(sessions)
        .where(and(eq(sessions.userId, userId)))
        .all().length;
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;

/** Expired sessions are refused on sight; this only keeps the table from growing with abandoned ones. */
export const SESSION_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** Purges now and then hourly; the timer does not keep the process alive. Returns a stop function. */
export function startSessionPurge(sessionService: SessionService, onError: (error: unknown) => void) {
  const purge = () => {
    try {
      sessionService.purgeExpired();
    } catch (error) {
      onError(error);
    }
  };
  purge();
  const timer = setInterval(purge, SESSION_PURGE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
