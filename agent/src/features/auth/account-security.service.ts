import type Bowser from 'bowser';
import { and, desc, eq, ne } from 'drizzle-orm';
import type * as Otplib from 'otplib';
import type { SessionInfo, TwoFactorTestResult } from '../../contract/account-security.js';
import { TOTP_DIGITS } from '../../contract/auth.js';
import type { Db } from '../../db/client.js';
import { badRequest, conflict, notFound, tooManyRequests, unauthorized } from '../../lib/http-error.js';
import { lazyRequire } from '../../lib/lazy-require.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AuditLog } from '../audit/index.js';
import { assertMayManage } from './account-admin.js';
import { createAuthRepository, normalizeEmail } from './auth.repository.js';
import type { AuthService, ClientInfo } from './auth.service.js';
import { sessions, type SessionRow, type UserRow } from './auth.table.js';
import { describeWait } from './login-throttle.js';
import { verifyPassword } from './password.js';
import type { SessionService, SessionUser } from './session.service.js';
import { TOTP_PERIOD_SECONDS } from './totp.js';

// Loaded when a session list is read or a 2FA code tested, not at start (lib/lazy-require.ts).
const bowser = lazyRequire<typeof Bowser>('bowser');
const otplib = lazyRequire<typeof Otplib>('otplib');

/**
 * How many 30-second steps either way /2fa-test searches: enough to name a clock that is five
 * minutes off, while sign-in itself keeps accepting one step either way (totp.ts).
 */
export const TWO_FACTOR_TEST_STEPS = 10;
const SIGN_IN_STEPS = 1;

export const WRONG_PASSWORD_MESSAGE = 'Incorrect password';

export interface AccountSecurityDeps {
  db: Db;
  sessions: SessionService;
  secrets: SecretBox;
  auth: Pick<AuthService, 'throttles' | 'recoveryCodes'>;
  audit?: AuditLog;
  now?: () => number;
}

/** "Chrome 131" / "iOS 18.1" from a User-Agent; null parts when bowser does not know it. */
export function describeUserAgent(userAgent: string | null): { browser: string | null; os: string | null } {
  if (!userAgent) return { browser: null, os: null };
  const parsed = bowser().parse(userAgent);
  const join = (name?: string, version?: string) =>
    name
      ? [
          name,
          version
            ?.split('.')
            .slice(0, name === 'macOS' ? 2 : 1)
            .join('.'),
        ]
          .filter(Boolean)
          .join(' ')
      : null;
  return {
    browser: join(parsed.browser.name, parsed.browser.version),
    os: join(parsed.os.name, parsed.os.versionName ?? parsed.os.version),
  };
}

function toSessionInfo(row: SessionRow, currentPublicId: string | null): SessionInfo {
  return {
    id: row.publicId,
    kind: row.kind,
    deviceName: row.deviceName,
    ...describeUserAgent(row.userAgent),
    userAgent: row.userAgent,
    ipAddress: row.ipAddress,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.publicId === currentPublicId,
  };
}

/**
 * Re-authentication, /2fa-test, recovery-code regeneration and the session lists. Revoking deletes
 * the row: session.service's lookup memo is emptied by any write on this connection, so the
 * revoked browser's next request is refused.
 */
export function createAccountSecurityService(deps: AccountSecurityDeps) {
  const now = deps.now ?? Date.now;
  const repo = createAuthRepository(deps.db, now);
  const { throttles, recoveryCodes } = deps.auth;

  const requireUserRow = (id: number): UserRow => {
    const user = repo.findById(id);
    if (!user) throw notFound('No such user');
    return user;
  };

  const listFor = (userId: number, currentPublicId: string | null): SessionInfo[] =>
    deps.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(desc(sessions.lastSeenAt))
      .all()
      .filter((row) => row.expiresAt.getTime() > now())
      .map((row) => toSessionInfo(row, currentPublicId));

  const deleteSession = (userId: number, publicId: string): boolean =>
    deps.db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), eq(sessions.publicId, publicId)))
      .run().changes === 1;

  return {
    /**
     * The password again, for a sensitive change in the next minutes. Wrong passwords count like
     * sign-in's, per account and per address, so a stolen session cannot be used to guess it.
     */
    async reauthenticate(
      actor: SessionUser,
      password: string,
      token: string,
      client: ClientInfo,
    ): Promise<Date> {
      const user = requireUserRow(actor.id);
      const accountKey = normalizeEmail(user.email);
      const wait = Math.max(
        throttles.loginPerAccount.blockedFor(accountKey),
        throttles.loginPerAddress.blockedFor(client.address),
      );
      if (wait > 0) {
        throw tooManyRequests(`Too many wrong passwords. Try again in ${describeWait(wait)}.`, wait / 1000);
      }
      throttles.loginPerAccount.record(accountKey);
      throttles.loginPerAddress.record(client.address);
      const audit = { actor: user, ipAddress: client.address, userAgent: client.userAgent };
      if (!(await verifyPassword(user.passwordHash, password))) {
        deps.audit?.record({
          type: 'reauthenticated',
          outcome: 'failure',
          ...audit,
          details: { method: 'password' },
        });
        throw unauthorized(WRONG_PASSWORD_MESSAGE);
      }
      throttles.loginPerAccount.clear(accountKey);
      throttles.loginPerAddress.forgive(client.address);
      deps.sessions.markReauthenticated(token);
      deps.audit?.record({ type: 'reauthenticated', ...audit, details: { method: 'password' } });
      return new Date(now());
    },

    /**
     * Checks a code against the account's own secret over ±10 steps and says which step matched.
     * Nothing is spent: the request is already signed in, so the code proves nothing it could
     * replay, and the person can still sign in elsewhere with the code on screen. Wrong codes are
     * throttled like enrolment's, so the endpoint is no faster oracle than sign-in.
     */
    async testTwoFactor(actor: SessionUser, code: string): Promise<TwoFactorTestResult> {
      const user = requireUserRow(actor.id);
      if (!user.totpEnabled || !user.totpSecretSealed) throw conflict('Two-factor authentication is not on');
      const key = `2fa-test:${user.id}`;
      const wait = throttles.loginPerAccount.blockedFor(key);
      if (wait > 0) {
        throw tooManyRequests(`Too many wrong 2FA codes. Try again in ${describeWait(wait)}.`, wait / 1000);
      }
      if (code.length !== TOTP_DIGITS) throw badRequest(`Enter the ${TOTP_DIGITS}-digit code`);
      const nowMs = now();
      const currentStep = Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);
      const result = await otplib().verify({
        secret: deps.secrets.open(user.totpSecretSealed),
        token: code,
        epoch: Math.floor(nowMs / 1000),
        period: TOTP_PERIOD_SECONDS,
        digits: TOTP_DIGITS,
        epochTolerance: TWO_FACTOR_TEST_STEPS * TOTP_PERIOD_SECONDS,
      });
      if (!result.valid || !('timeStep' in result)) {
        throttles.loginPerAccount.record(key);
        return {
          valid: false,
          matchedStep: null,
          driftSeconds: null,
          withinSignInWindow: false,
          searchedSteps: TWO_FACTOR_TEST_STEPS,
        };
      }
      const matchedStep = result.timeStep - currentStep;
      return {
        valid: true,
        matchedStep,
        driftSeconds: matchedStep * TOTP_PERIOD_SECONDS,
        withinSignInWindow: Math.abs(matchedStep) <= SIGN_IN_STEPS,
        searchedSteps: TWO_FACTOR_TEST_STEPS,
      };
    },

    recoveryCodesStatus(actor: SessionUser) {
      return { remaining: recoveryCodes.remaining(actor.id), total: 10 };
    },

    /** A fresh set of ten; the old ones stop working. Only with 2FA on (the codes stand in for it). */
    regenerateRecoveryCodes(actor: SessionUser, client: ClientInfo): string[] {
      const user = requireUserRow(actor.id);
      if (!user.totpEnabled) throw conflict('Turn on two-factor authentication first');
      const codes = recoveryCodes.replace(user.id);
      deps.audit?.record({
        type: 'recovery_codes_generated',
        actor: user,
        ipAddress: client.address,
        userAgent: client.userAgent,
        details: { count: codes.length, regenerated: true },
      });
      return codes;
    },

    listOwnSessions(actor: SessionUser): SessionInfo[] {
      return listFor(actor.id, actor.session.publicId);
    },

    /** Another user's session id answers 404, exactly like one that does not exist. */
    revokeOwnSession(actor: SessionUser, publicId: string, client: ClientInfo): void {
      if (!deleteSession(actor.id, publicId)) throw notFound('No such session');
      deps.audit?.record({
        type: 'session_revoked',
        actor,
        target: publicId,
        ipAddress: client.address,
        userAgent: client.userAgent,
        details: { current: publicId === actor.session.publicId },
      });
    },

    revokeOtherSessions(actor: SessionUser, client: ClientInfo): number {
      const revoked = deps.db
        .delete(sessions)
        .where(and(eq(sessions.userId, actor.id), ne(sessions.publicId, actor.session.publicId)))
        .run().changes;
      deps.audit?.record({
        type: 'sessions_revoked',
        actor,
        ipAddress: client.address,
        userAgent: client.userAgent,
        details: { count: revoked },
      });
      return revoked;
    },

    listUserSessions(actor: SessionUser, userId: number): SessionInfo[] {
      requireUserRow(userId);
      return listFor(userId, userId === actor.id ? actor.session.publicId : null);
    },

    /** Admins revoke anyone's session except those of an account ranked above their own. */
    revokeUserSession(actor: SessionUser, userId: number, publicId: string, client: ClientInfo): void {
      const target = requireUserRow(userId);
      assertMayManage(actor, target);
      if (!deleteSession(userId, publicId)) throw notFound('No such session');
      deps.audit?.record({
        type: 'session_revoked',
        actor,
        targetUser: target,
        target: publicId,
        ipAddress: client.address,
        userAgent: client.userAgent,
      });
    },
  };
}

export type AccountSecurityService = ReturnType<typeof createAccountSecurityService>;
