import { createHash, randomBytes } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type * as WebAuthn from '@simplewebauthn/server';
import { and, count, eq } from 'drizzle-orm';
import {
  MAX_PASSKEYS_PER_USER,
  PASSKEY_SIGN_IN_FAILED_MESSAGE,
  type AuthenticationResponseInput,
  type Passkey,
  type PasskeyLoginInput,
  type RegisterPasskeyInput,
} from '../../contract/passkeys.js';
import type { Db } from '../../db/client.js';
import { badRequest, conflict, notFound, tooManyRequests, unauthorized } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { AuditLog } from '../audit/index.js';
import { passkeys, type PasskeyRow } from './account-security.table.js';
import { users, type UserRow } from './auth.table.js';
import type { ClientInfo } from './auth.service.js';
import { describeWait, type AuthThrottles } from './login-throttle.js';
import type { CreatedSession, SessionService, SessionUser } from './session.service.js';

/** How long a ceremony may take between its options and its verify request. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Bounds the pending ceremonies a flood of options requests can leave in memory. */
const MAX_PENDING_CHALLENGES = 10_000;
const RP_NAME = 'Nexus Console';

/** Who the browser must be talking to: the RP ID (a host name) and the page's origin. */
export interface RelyingParty {
  rpID: string;
  origin: string;
}

export interface PasskeyServiceDeps {
  db: Db;
  sessions: SessionService;
  /** The sign-in throttles of the auth service: failed passkey sign-ins count like wrong passwords. */
  throttles: AuthThrottles;
  audit?: AuditLog;
  log: Logger;
  now?: () => number;
}

type Flow = 'register' | 'login' | 'reauth';
interface Pending {
  challenge: string;
  expiresAt: number;
  userId: number | null;
}

/**
 * Pending challenges in memory, one per key: a registration or re-authentication is keyed by its
 * session, a sign-in by a random handle the browser keeps in a short-lived cookie. Taking one
 * deletes it, so each is used at most once, and only by the flow and session it was made for.
 */
function createChallengeStore(now: () => number) {
  const pending = new Map<string, Pending>();
  const purge = () => {
    const t = now();
    for (const [key, entry] of pending) if (entry.expiresAt <= t) pending.delete(key);
    // Still full of live ones (a flood): drop the oldest, as a Map iterates in insertion order.
    for (const key of pending.keys()) {
      if (pending.size < MAX_PENDING_CHALLENGES) break;
      pending.delete(key);
    }
  };
  return {
    put(flow: Flow, key: string, challenge: string, userId: number | null) {
      if (pending.size >= MAX_PENDING_CHALLENGES) purge();
      const full = `${flow}:${key}`;
      pending.delete(full);
      pending.set(full, { challenge, userId, expiresAt: now() + PASSKEY_CHALLENGE_TTL_MS });
    },
    take(flow: Flow, key: string): Pending | null {
      const full = `${flow}:${key}`;
      const entry = pending.get(full);
      pending.delete(full);
      return entry && entry.expiresAt > now() ? entry : null;
    },
  };
}

/**
 * @simplewebauthn/server (and the ASN.1 and COSE code under it, about 20 MB) loads with the first
 * passkey ceremony: a hub nobody signs in to with a passkey does not carry it.
 */
let library: Promise<typeof WebAuthn> | null = null;
const webauthn = () => (library ??= import('@simplewebauthn/server'));

/** base64url without padding, as WebAuthn writes credential ids, keys and user handles. */
const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** The WebAuthn user handle: stable per account, no personal data in it. */
const userHandle = (userId: number) =>
  new Uint8Array(createHash('sha256').update(`nexus-user:${userId}`).digest().subarray(0, 16));

const parseTransports = (raw: string | null): string[] => {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
};

export function toPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    deviceType: row.deviceType,
    backedUp: row.backedUp,
    transports: parseTransports(row.transports),
  };
}

const person = (user: { id: number; email: string }) => ({ id: user.id, email: user.email });

export function createPasskeyService(deps: PasskeyServiceDeps) {
  const now = deps.now ?? Date.now;
  const { db, sessions, throttles } = deps;
  const log = deps.log.child({ feature: 'passkeys' });
  const challenges = createChallengeStore(now);

  const listRows = (userId: number) =>
    db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(passkeys.createdAt).all();

  const ownRow = (userId: number, id: number): PasskeyRow => {
    // Someone else's passkey is as absent as one that does not exist.
    const row = db
      .select()
      .from(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .get();
    if (!row) throw notFound('No such passkey');
    return row;
  };

  const credentialOf = (row: PasskeyRow) => ({
    id: row.credentialId,
    publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')),
    counter: row.counter,
    transports: parseTransports(row.transports) as AuthenticatorTransportLike[],
  });

  /**
   * Checks an assertion against a stored credential; false for any failure (the library throws
   * for a wrong challenge, origin, RP ID, signature or a counter that went backwards).
   */
  const checkAssertion = async (
    row: PasskeyRow,
    response: AuthenticationResponseInput,
    expectedChallenge: string,
    rp: RelyingParty,
  ): Promise<{ ok: true; newCounter: number } | { ok: false; reason: string }> => {
    try {
      const result = await (
        await webauthn()
      ).verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        credential: credentialOf(row),
        requireUserVerification: true,
      });
      if (!result.verified) return { ok: false, reason: 'not-verified' };
      return { ok: true, newCounter: result.authenticationInfo.newCounter };
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message.slice(0, 200) : 'invalid' };
    }
  };

  const markUsed = (row: PasskeyRow, newCounter: number) => {
    db.update(passkeys)
      .set({ counter: newCounter, lastUsedAt: new Date(now()) })
      .where(eq(passkeys.id, row.id))
      .run();
  };

  return {
    list(user: SessionUser): Passkey[] {
      return listRows(user.id).map(toPasskey);
    },

    async registrationOptions(
      user: SessionUser,
      rp: RelyingParty,
    ): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const existing = listRows(user.id);
      if (existing.length >= MAX_PASSKEYS_PER_USER) {
        throw conflict(`You already have ${MAX_PASSKEYS_PER_USER} passkeys: remove one first`);
      }
      const options = await (
        await webauthn()
      ).generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: rp.rpID,
        userName: user.email,
        userDisplayName: user.name,
        userID: userHandle(user.id),
        timeout: PASSKEY_CHALLENGE_TTL_MS,
        attestationType: 'none',
        // The authenticator refuses to make a second credential for this account on itself.
        excludeCredentials: existing.map((row) => ({
          id: row.credentialId,
          transports: parseTransports(row.transports),
        })),
        // Discoverable (sign-in without typing the e-mail) and verified (PIN, fingerprint, face):
        // that is what lets a passkey stand for both factors.
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      challenges.put('register', user.session.publicId, options.challenge, user.id);
      return options;
    },

    async verifyRegistration(
      user: SessionUser,
      input: RegisterPasskeyInput,
      rp: RelyingParty,
      client: ClientInfo,
    ): Promise<Passkey> {
      const pending = challenges.take('register', user.session.publicId);
      if (!pending || pending.userId !== user.id) {
        throw badRequest('This passkey request expired or was already used: start adding the passkey again');
      }
      const { name, ...response } = input;
      let verification;
      try {
        verification = await (
          await webauthn()
        ).verifyRegistrationResponse({
          response: response as RegistrationResponseJSON,
          expectedChallenge: pending.challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpID,
          requireUserVerification: true,
        });
      } catch (error) {
        log.warn({ userId: user.id, err: error }, 'passkey registration refused');
        throw badRequest('The passkey could not be verified');
      }
      if (!verification.verified) throw badRequest('The passkey could not be verified');
      const info = verification.registrationInfo;
      const taken = db
        .select({ id: passkeys.id })
        .from(passkeys)
        .where(eq(passkeys.credentialId, info.credential.id))
        .get();
      if (taken) throw conflict('This passkey is already registered');
      const total =
        db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, user.id)).get()?.n ?? 0;
      const row = db
        .insert(passkeys)
        .values({
          userId: user.id,
          credentialId: info.credential.id,
          publicKey: base64url(info.credential.publicKey),
          counter: info.credential.counter,
          transports: JSON.stringify(info.credential.transports ?? response.response.transports ?? []),
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
          name: name ?? `Passkey ${total + 1}`,
          createdAt: new Date(now()),
        })
        .returning()
        .get();
      deps.audit?.record({
        type: 'passkey_added',
        actor: person(user),
        target: row.name,
        ipAddress: client.address,
        userAgent: client.userAgent,
        details: { passkeyId: row.id, deviceType: row.deviceType, backedUp: row.backedUp },
      });
      log.info({ userId: user.id, passkeyId: row.id }, 'passkey added');
      return toPasskey(row);
    },

    rename(user: SessionUser, id: number, name: string, client: ClientInfo): Passkey {
      const row = ownRow(user.id, id);
      const updated = db.update(passkeys).set({ name }).where(eq(passkeys.id, row.id)).returning().get();
      deps.audit?.record({
        type: 'passkey_renamed',
        actor: person(user),
        target: name,
        ipAddress: client.address,
        userAgent: client.userAgent,
        details: { passkeyId: row.id, from: row.name },
      });
      return toPasskey(updated);
    },

    remove(user: SessionUser, id: number, client: ClientInfo): void {
      const row = ownRow(user.id, id);
      db.delete(passkeys).where(eq(passkeys.id, row.id)).run();
      deps.audit?.record({
        type: 'passkey_removed',
        actor: person(user),
        target: row.name,
        ipAddress: client.address,
        userAgent: client.userAgent,
        details: { passkeyId: row.id },
      });
      log.info({ userId: user.id, passkeyId: row.id }, 'passkey removed');
    },

    /**
     * Options for a sign-in with any passkey of this hub (discoverable credentials, so no list of
     * allowed ones), and the handle the browser must bring back with the answer.
     */
    async loginOptions(
      rp: RelyingParty,
    ): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; handle: string }> {
      const options = await (
        await webauthn()
      ).generateAuthenticationOptions({
        rpID: rp.rpID,
        timeout: PASSKEY_CHALLENGE_TTL_MS,
        userVerification: 'required',
      });
      const handle = randomBytes(16).toString('base64url');
      challenges.put('login', handle, options.challenge, null);
      return { options, handle };
    },

    /**
     * Signs in with a passkey. Each failure counts against the client address like a wrong
     * password; every refusal says the same, so nothing tells which credentials exist.
     */
    async login(
      handle: string | undefined,
      input: PasskeyLoginInput,
      rp: RelyingParty,
      client: ClientInfo,
    ): Promise<{ user: UserRow; session: CreatedSession }> {
      const wait = throttles.loginPerAddress.blockedFor(client.address);
      if (wait > 0) {
        deps.audit?.record({
          type: 'sign_in_throttled',
          outcome: 'failure',
          ipAddress: client.address,
          userAgent: client.userAgent,
          details: { method: 'passkey' },
        });
        throw tooManyRequests(
          `Too many failed sign-in attempts. Try again in ${describeWait(wait)}.`,
          wait / 1000,
        );
      }
      throttles.loginPerAddress.record(client.address);

      const fail = (reason: string, user?: UserRow, row?: PasskeyRow): never => {
        log.warn({ address: client.address, reason, userId: user?.id }, 'passkey sign-in failed');
        deps.audit?.record({
          type: 'passkey_sign_in',
          outcome: 'failure',
          actor: user ? person(user) : null,
          target: row?.name ?? null,
          ipAddress: client.address,
          userAgent: client.userAgent,
          details: { reason: reason.slice(0, 100) },
        });
        throw unauthorized(PASSKEY_SIGN_IN_FAILED_MESSAGE);
      };

      const pending = handle ? challenges.take('login', handle) : null;
      if (!pending) return fail('no-pending-challenge');
      const { rememberMe, ...response } = input;
      const row = db.select().from(passkeys).where(eq(passkeys.credentialId, response.id)).get();
      if (!row) return fail('unknown-credential');
      const user = db.select().from(users).where(eq(users.id, row.userId)).get();
      if (!user) return fail('unknown-credential');
      if (user.disabledAt) return fail('account-disabled', user, row);
      // The authenticator names the account it holds the credential for; it must be this one.
      const handleBytes = response.response.userHandle;
      if (handleBytes && handleBytes !== base64url(userHandle(user.id))) {
        return fail('user-handle-mismatch', user, row);
      }
      const check = await checkAssertion(row, response, pending.challenge, rp);
      if (!check.ok) return fail(check.reason, user, row);

      markUsed(row, check.newCounter);
      throttles.loginPerAddress.forgive(client.address);
      // Rotation, as for a password sign-in: the id the browser had before is not the one it has after.
      if (client.presentedToken) sessions.revoke(client.presentedToken);
      const session = sessions.create(user.id, {
        persistent: rememberMe,
        userAgent: client.userAgent,
        ipAddress: client.address,
      });
      deps.audit?.record({
        type: 'passkey_sign_in',
        actor: person(user),
        target: row.name,
        ipAddress: client.address,
        userAgent: client.userAgent,
        details: { passkeyId: row.id },
      });
      log.info({ userId: user.id, address: client.address, passkeyId: row.id }, 'signed in with a passkey');
      return { user, session };
    },

    /** Options to prove a passkey of this account again (re-authentication before a sensitive change). */
    async reauthOptions(user: SessionUser, rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const rows = listRows(user.id);
      if (!rows.length) throw conflict('You have no passkeys: confirm with your password instead');
      const options = await (
        await webauthn()
      ).generateAuthenticationOptions({
        rpID: rp.rpID,
        timeout: PASSKEY_CHALLENGE_TTL_MS,
        userVerification: 'required',
        allowCredentials: rows.map((row) => ({
          id: row.credentialId,
          transports: parseTransports(row.transports),
        })),
      });
      challenges.put('reauth', user.session.publicId, options.challenge, user.id);
      return options;
    },

    /** Marks the session re-authenticated when the assertion comes from one of the account's own passkeys. */
    async verifyReauth(
      user: SessionUser,
      sessionToken: string,
      response: AuthenticationResponseInput,
      rp: RelyingParty,
      client: ClientInfo,
    ): Promise<void> {
      const key = `passkey-reauth:${user.id}`;
      const wait = throttles.loginPerAccount.blockedFor(key);
      if (wait > 0)
        throw tooManyRequests(`Too many failed attempts. Try again in ${describeWait(wait)}.`, wait / 1000);
      throttles.loginPerAccount.record(key);
      const fail = (reason: string): never => {
        deps.audit?.record({
          type: 'reauthenticated',
          outcome: 'failure',
          actor: person(user),
          ipAddress: client.address,
          userAgent: client.userAgent,
          details: { method: 'passkey', reason: reason.slice(0, 100) },
        });
        throw unauthorized('The passkey could not be verified');
      };
      const pending = challenges.take('reauth', user.session.publicId);
      if (!pending || pending.userId !== user.id) return fail('no-pending-challenge');
      const row = db
        .select()
        .from(passkeys)
        .where(and(eq(passkeys.credentialId, response.id), eq(passkeys.userId, user.id)))
        .get();
      if (!row) return fail('unknown-credential');
      const check = await checkAssertion(row, response, pending.challenge, rp);
      if (!check.ok) return fail(check.reason);
      markUsed(row, check.newCounter);
      throttles.loginPerAccount.clear(key);
      sessions.markReauthenticated(sessionToken);
      deps.audit?.record({
        type: 'reauthenticated',
        actor: person(user),
        target: row.name,
        ipAddress: client.address,
        userAgent: client.userAgent,
        details: { method: 'passkey', passkeyId: row.id },
      });
    },
  };
}

type AuthenticatorTransportLike = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

export type PasskeyService = ReturnType<typeof createPasskeyService>;
