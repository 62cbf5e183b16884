import {
  INVALID_CREDENTIALS_MESSAGE,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  TWO_FACTOR_REQUIRED_MESSAGE,
  type ChangePasswordInput,
  type LoginInput,
  type PublicUser,
  type RegisterInput,
  type Role,
  type TwoFactorSetup,
} from '../../contract/auth.js';
import { LOCAL_ONLY_MESSAGE, REGISTRATION_CLOSED_MESSAGE } from '../../contract/invites.js';
import { ACCOUNT_DISABLED_MESSAGE } from '../../contract/account-security.js';
import { isRecoveryCodeShape } from '../../contract/second-factor.js';
import type { AuditLog } from '../audit/index.js';
import type { Db } from '../../db/client.js';
import { isLocalAddress } from '../../lib/address-class.js';
import {
  badRequest,
  conflict,
  forbidden,
  notFound,
  tooManyRequests,
  unauthorized,
} from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import {
  ACCOUNT_EXISTS_MESSAGE,
  ALREADY_SET_UP_MESSAGE,
  createAuthRepository,
  normalizeEmail,
} from './auth.repository.js';
import type { UserRow } from './auth.table.js';
import type { Admission, RegistrationService } from './registration.service.js';
import { createAuthThrottles, describeWait, type AuthLimits } from './login-throttle.js';
import { hashPassword, passwordNeedsRehash, verifyAgainstDummy, verifyPassword } from './password.js';
import type { CreatedSession, SessionService, SessionUser } from './session.service.js';
import { checkTotp, newTotpSecret, totpUri } from './totp.js';
import { createRecoveryCodeStore } from './recovery-codes.js';
import { assertMayManage } from './account-admin.js';

export interface AuthServiceDeps {
  db: Db;
  sessions: SessionService;
  secrets: SecretBox;
  log: Logger;
  limits?: Partial<AuthLimits>;
  /**
   * Who may register once the hub has its owner (mode, invites). Without it (the command line)
   * only the first account can be made.
   */
  registration?: Pick<RegistrationService, 'precheck' | 'admit'>;
  /** The security event log; the command line runs without one. */
  audit?: AuditLog;
  now?: () => number;
}

/** Who is asking, as far as sign-in cares. */
export interface ClientInfo {
  address: string;
  userAgent?: string;
  /** The session cookie the browser presented, valid or not: replaced on sign-in. */
  presentedToken?: string;
}

export const INVALID_TOTP_MESSAGE = 'Invalid 2FA code';
export const REPLAYED_TOTP_MESSAGE = 'This 2FA code was already used: wait for the next one';

type UserLike =
  Pick<UserRow, 'id' | 'name' | 'email' | 'role' | 'totpEnabled' | 'createdAt' | 'disabledAt'> | SessionUser;

/** What any endpoint may say about an account: never the hash, never the TOTP secret. */
export function toPublicUser(user: UserLike): PublicUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    twoFactorEnabled: user.totpEnabled,
    createdAt: user.createdAt.toISOString(),
    // A session's user is never disabled: disabling deletes its sessions.
    disabled: 'disabledAt' in user ? user.disabledAt !== null : false,
  };
}

export function createAuthService(deps: AuthServiceDeps) {
  const now = deps.now ?? Date.now;
  const repo = createAuthRepository(deps.db, now);
  const recoveryCodes = createRecoveryCodeStore(deps.db, now);
  const throttles = createAuthThrottles(deps.limits, now);
  const { sessions, secrets, log } = deps;

  const signIn = (user: UserRow, client: ClientInfo, persistent: boolean): CreatedSession => {
    // Rotation: the session id a browser had before signing in is never the one it has after,
    // so an id planted in the browser beforehand (session fixation) is worth nothing.
    if (client.presentedToken) sessions.revoke(client.presentedToken);
    return sessions.create(user.id, { persistent, userAgent: client.userAgent, ipAddress: client.address });
  };

  const requireUserRow = (id: number): UserRow => {
    const user = repo.findById(id);
    if (!user) throw notFound('No such user');
    return user;
  };

  const person = (user: Pick<UserRow, 'id' | 'email'>) => ({ id: user.id, email: user.email });
  /** A failed or refused sign-in: nobody proven acted; the e-mail tried (never the password) says for whom. */
  const signInRefused = (
    type: 'sign_in_failed' | 'sign_in_throttled',
    email: string,
    client: ClientInfo,
    reason: string,
    user?: UserRow,
  ) =>
    deps.audit?.record({
      type,
      outcome: 'failure',
      actor: null,
      targetUser: user ? person(user) : null,
      ipAddress: client.address,
      userAgent: client.userAgent ?? null,
      details: { email, reason },
    });

  /**
   * A refused attempt costs the attacker nothing (no hashing), so a flood would write a row each:
   * one row per account and address a minute says the same.
   */
  const throttleNoted = new Map<string, number>();
  const firstThrottledIn = (key: string): boolean => {
    const at = now();
    const last = throttleNoted.get(key);
    if (last !== undefined && at - last < 60_000) return false;
    if (throttleNoted.size >= 10_000) throttleNoted.clear();
    throttleNoted.set(key, at);
    return true;
  };

  const throttled = (waitMs: number, what: string) =>
    tooManyRequests(`Too many ${what}. Try again in ${describeWait(waitMs)}.`, waitMs / 1000);

  type TotpOutcome = 'ok' | 'invalid' | 'replayed';

  /**
   * Checks a code of an enabled account and consumes its time step; a recovery code (the other
   * shape) is spent instead, once, and recorded.
   */
  const consumeTotp = async (user: UserRow, code: string, client?: ClientInfo): Promise<TotpOutcome> => {
    if (isRecoveryCodeShape(code)) {
      if (!recoveryCodes.consume(user.id, code)) return 'invalid';
      deps.audit?.record({
        type: 'recovery_code_used',
        actor: user,
        ipAddress: client?.address,
        userAgent: client?.userAgent,
        details: { remaining: recoveryCodes.remaining(user.id) },
      });
      return 'ok';
    }
    if (!user.totpSecretSealed) return 'invalid';
    const result = await checkTotp(secrets.open(user.totpSecretSealed), code, user.totpLastStep, now());
    if (!result.ok) return result.reason;
    // Two requests racing with the same code: the database lets exactly one claim the step.
    return repo.claimTotpStep(user.id, result.step) ? 'ok' : 'replayed';
  };

  /**
   * Turning 2FA on or off needs a correct code; wrong codes count per account (apart from
   * sign-in, so fumbling enrolment does not lock anyone out of signing in).
   */
  const withTwoFactorGuard = async (userId: number, attempt: () => Promise<TotpOutcome>) => {
    const key = `2fa-change:${userId}`;
    const wait = throttles.loginPerAccount.blockedFor(key);
    if (wait > 0) throw throttled(wait, 'wrong 2FA codes');
    throttles.loginPerAccount.record(key);
    const outcome = await attempt();
    if (outcome !== 'ok') {
      throw badRequest(outcome === 'replayed' ? REPLAYED_TOTP_MESSAGE : INVALID_TOTP_MESSAGE);
    }
    throttles.loginPerAccount.clear(key);
  };

  return {
    throttles,
    recoveryCodes,

    /** `onlyIfFirst`: the setup wizard's owner account, refused (409) once any account exists. */
    async register(input: RegisterInput, client: ClientInfo, opts: { onlyIfFirst?: boolean } = {}) {
      const wait = throttles.registerPerAddress.blockedFor(client.address);
      if (wait > 0) throw throttled(wait, 'sign-up attempts from this address');
      throttles.registerPerAddress.record(client.address);

      // The first account owns the hub: whoever claims it must be at home (or on the hub's VPN),
      // so a stranger who reaches a fresh hub cannot take it over.
      const claimFirst = () => {
        if (!isLocalAddress(client.address)) {
          log.warn({ address: client.address }, 'refused to create the first account from outside');
          throw forbidden(LOCAL_ONLY_MESSAGE);
        }
      };
      const admit = (): Admission => {
        if (!deps.registration) throw forbidden(REGISTRATION_CLOSED_MESSAGE);
        return deps.registration.admit(input.inviteCode);
      };

      // Cheap refusals before the deliberate slowness of hashing; the transaction still decides.
      // The invite is checked before the email, so a stranger cannot probe which accounts exist.
      if (repo.count() === 0) claimFirst();
      else if (opts.onlyIfFirst) throw conflict(ALREADY_SET_UP_MESSAGE);
      else if (deps.registration) deps.registration.precheck(input.inviteCode);
      else throw forbidden(REGISTRATION_CLOSED_MESSAGE);
      if (repo.findByEmail(input.email)) throw conflict(ACCOUNT_EXISTS_MESSAGE);
      const user = repo.create(
        {
          name: input.name,
          email: input.email,
          passwordHash: await hashPassword(input.password),
        },
        { onlyIfFirst: opts.onlyIfFirst, claimFirst, admit },
      );
      log.info({ userId: user.id, role: user.role }, 'account created');
      deps.audit?.record({
        type: 'account_created',
        actor: person(user),
        ipAddress: client.address,
        userAgent: client.userAgent ?? null,
        details: {
          role: user.role,
          via: opts.onlyIfFirst ? 'setup' : input.inviteCode ? 'invite' : 'sign_up',
        },
      });
      return { user, session: signIn(user, client, false) };
    },

    /**
     * Password, then (for 2FA accounts) the code. Every failure counts against the account and
     * the client address before any work is done, so parallel guesses cannot slip past the
     * limit; a success forgives them again.
     */
    async login(input: LoginInput, client: ClientInfo) {
      const accountKey = normalizeEmail(input.email);
      const wait = Math.max(
        throttles.loginPerAccount.blockedFor(accountKey),
        throttles.loginPerAddress.blockedFor(client.address),
      );
      if (wait > 0) {
        if (firstThrottledIn(`${accountKey}|${client.address}`)) {
          signInRefused('sign_in_throttled', accountKey, client, 'too_many_failures');
        }
        throw throttled(wait, 'failed sign-in attempts');
      }
      throttles.loginPerAccount.record(accountKey);
      throttles.loginPerAddress.record(client.address);

      const user = repo.findByEmail(accountKey);
      const passwordOk = user
        ? await verifyPassword(user.passwordHash, input.password)
        : await verifyAgainstDummy(input.password);
      if (!user || !passwordOk) {
        log.warn(
          { email: accountKey, address: client.address, reason: user ? 'wrong-password' : 'no-such-account' },
          'sign-in failed',
        );
        signInRefused(
          'sign_in_failed',
          accountKey,
          client,
          user ? 'wrong_password' : 'no_such_account',
          user,
        );
        throw unauthorized(INVALID_CREDENTIALS_MESSAGE);
      }

      if (user.totpEnabled) {
        if (!input.totpCode) {
          // Not a failure: the person knows the password and is asked for the second factor.
          throttles.loginPerAccount.forgive(accountKey);
          throttles.loginPerAddress.forgive(client.address);
          throw unauthorized(TWO_FACTOR_REQUIRED_MESSAGE);
        }
        const outcome = await consumeTotp(user, input.totpCode, client);
        if (outcome !== 'ok') {
          log.warn({ userId: user.id, address: client.address, reason: `2fa-${outcome}` }, 'sign-in failed');
          signInRefused('sign_in_failed', accountKey, client, `2fa_${outcome}`, user);
          throw unauthorized(outcome === 'replayed' ? REPLAYED_TOTP_MESSAGE : INVALID_TOTP_MESSAGE);
        }
      }

      // Told only to whoever knows the password (and code), so it reveals nothing to a stranger.
      if (user.disabledAt) {
        log.warn({ userId: user.id, address: client.address, reason: 'disabled' }, 'sign-in failed');
        throw forbidden(ACCOUNT_DISABLED_MESSAGE);
      }

      throttles.loginPerAccount.clear(accountKey);
      throttles.loginPerAddress.forgive(client.address);
      if (passwordNeedsRehash(user.passwordHash)) {
        repo.setPasswordHash(user.id, await hashPassword(input.password));
      }
      log.info({ userId: user.id, address: client.address }, 'signed in');
      deps.audit?.record({
        type: 'sign_in',
        actor: person(user),
        ipAddress: client.address,
        userAgent: client.userAgent ?? null,
        details: { method: user.totpEnabled ? 'password_and_2fa' : 'password' },
      });
      const fresh = repo.findById(user.id) ?? user;
      return { user: fresh, session: signIn(fresh, client, input.rememberMe ?? false) };
    },

    /** `user`: whom the presented session belonged to, when it was valid (for the audit log). */
    logout(presentedToken: string | undefined, user?: SessionUser | null) {
      if (presentedToken) sessions.revoke(presentedToken);
      if (user) deps.audit?.record({ type: 'sign_out', actor: person(user) });
    },

    /** Needs the current password; every other session of the account ends. */
    async changePassword(actor: SessionUser, input: ChangePasswordInput, currentToken: string) {
      const user = requireUserRow(actor.id);
      const key = normalizeEmail(user.email);
      const wait = throttles.loginPerAccount.blockedFor(key);
      if (wait > 0) throw throttled(wait, 'wrong passwords');
      throttles.loginPerAccount.record(key);
      if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
        throw badRequest('Current password is incorrect');
      }
      throttles.loginPerAccount.clear(key);
      repo.setPasswordHash(user.id, await hashPassword(input.newPassword));
      sessions.revokeOthers(user.id, currentToken);
      log.info({ userId: user.id }, 'password changed; other sessions signed out');
      deps.audit?.record({ type: 'password_changed', actor: person(user) });
    },

    /** Starts enrolment: a new secret, kept sealed and unused until a code from it is confirmed. */
    setupTwoFactor(actor: SessionUser): TwoFactorSetup {
      const user = requireUserRow(actor.id);
      if (user.totpEnabled) {
        throw conflict('Two-factor authentication is already on: turn it off before setting it up again');
      }
      const secret = newTotpSecret();
      repo.setPendingTotp(user.id, secrets.seal(secret));
      return { secret, otpauthUrl: totpUri(secret, user.email) };
    },

    /** Turns 2FA on and returns the ten recovery codes: the only time they are shown. */
    async enableTwoFactor(
      actor: SessionUser,
      code: string,
    ): Promise<{ user: UserRow; recoveryCodes: string[] }> {
      const user = requireUserRow(actor.id);
      if (user.totpEnabled) throw conflict('Two-factor authentication is already on');
      if (!user.totpSecretSealed) throw conflict('Start two-factor setup first');
      const sealed = user.totpSecretSealed;
      await withTwoFactorGuard(user.id, async () => {
        // Proves the authenticator holds the secret. Replay protection guards sign-in, where a
        // code seen by someone else could open a session; this request already has one, so the
        // step is not spent here and the person may sign in with the code still on screen.
        const result = await checkTotp(secrets.open(sealed), code, null, now());
        if (!result.ok) return result.reason;
        repo.enableTotp(user.id);
        return 'ok';
      });
      const codes = recoveryCodes.replace(user.id);
      deps.audit?.record({ type: 'recovery_codes_generated', actor: user, details: { count: codes.length } });
      log.info({ userId: user.id }, 'two-factor authentication turned on');
      deps.audit?.record({ type: 'two_factor_enabled', actor: person(user) });
      return { user: requireUserRow(user.id), recoveryCodes: codes };
    },

    async disableTwoFactor(actor: SessionUser, code: string): Promise<UserRow> {
      const user = requireUserRow(actor.id);
      if (!user.totpEnabled) throw conflict('Two-factor authentication is not on');
      // As for enabling: a signed-in request proving possession; a code just used to sign in is fine.
      const sealed = user.totpSecretSealed;
      await withTwoFactorGuard(user.id, async () => {
        // Whoever lost the phone turns 2FA off with a recovery code (spent like at sign-in).
        if (isRecoveryCodeShape(code)) return consumeTotp(user, code);
        if (!sealed) return 'invalid';
        const result = await checkTotp(secrets.open(sealed), code, null, now());
        return result.ok ? 'ok' : 'invalid';
      });
      repo.disableTotp(user.id);
      recoveryCodes.removeAll(user.id);
      log.info({ userId: user.id }, 'two-factor authentication turned off');
      deps.audit?.record({ type: 'two_factor_disabled', actor: person(user) });
      return requireUserRow(user.id);
    },

    listUsers(): UserRow[] {
      return repo.list();
    },

    /** Whether any account exists yet: the first-boot setup is needed until one does. */
    hasAccounts(): boolean {
      return repo.count() > 0;
    },

    /**
     * Admins manage user and admin accounts; only a superadmin grants, removes or touches the
     * superadmin role; nobody removes the last superadmin.
     */
    changeRole(actor: SessionUser, id: number, role: Role): UserRow {
      const target = requireUserRow(id);
      if (actor.role !== 'superadmin' && (target.role === 'superadmin' || role === 'superadmin')) {
        throw forbidden('Only a superadmin can grant or remove the superadmin role');
      }
      assertMayManage(actor, target, role);
      const updated = repo.setRole(id, role);
      log.info({ actorId: actor.id, userId: id, from: target.role, to: role }, 'role changed');
      deps.audit?.record({
        type: 'role_changed',
        actor: person(actor),
        targetUser: person(target),
        details: { from: target.role, to: role },
      });
      return updated;
    },

    deleteUser(actor: SessionUser, id: number): void {
      if (id === actor.id) throw conflict('You cannot delete your own account');
      const target = requireUserRow(id);
      if (actor.role !== 'superadmin' && target.role === 'superadmin') {
        throw forbidden('Only a superadmin can delete a superadmin');
      }
      assertMayManage(actor, target);
      repo.delete(id);
      log.info({ actorId: actor.id, userId: id }, 'account deleted');
      deps.audit?.record({
        type: 'account_deleted',
        actor: person(actor),
        targetUser: person(target),
        details: { role: target.role },
      });
    },

    // For the owner's command line (cli.ts) and reset links: no session; the caller is the authority.

    findByEmail(email: string): UserRow | undefined {
      return repo.findByEmail(email);
    },

    async resetPassword(email: string, password: string): Promise<UserRow> {
      const user = repo.findByEmail(email);
      if (!user) throw notFound(`No account with the email ${email}`);
      if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
        throw badRequest(`Password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long`);
      }
      repo.setPasswordHash(user.id, await hashPassword(password));
      sessions.revokeAllForUser(user.id);
      // Whoever proved control of the account (the hub's shell, a reset link) may sign in at once.
      throttles.loginPerAccount.clear(normalizeEmail(user.email));
      return user;
    },

    setRoleByEmail(email: string, role: Role): UserRow {
      const user = repo.findByEmail(email);
      if (!user) throw notFound(`No account with the email ${email}`);
      return repo.setRole(user.id, role);
    },

    disableTwoFactorByEmail(email: string): UserRow {
      const user = repo.findByEmail(email);
      if (!user) throw notFound(`No account with the email ${email}`);
      repo.disableTotp(user.id);
      recoveryCodes.removeAll(user.id);
      return requireUserRow(user.id);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
