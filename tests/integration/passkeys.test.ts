import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { totpAt } from '../support/totp.js';
import { SoftAuthenticator } from '../support/webauthn.js';

/**
 * Passkeys end to end against the real agent, with real WebAuthn ceremonies made by a software
 * authenticator (tests/support/webauthn.ts, node:crypto only).
 */

let agent: RunningAgent;
beforeAll(async () => {
  agent = await startAgent();
  await signUp(new Client(agent.url)); // the owner; the tests use ordinary accounts
});
afterAll(async () => {
  await agent?.stop();
});

const origin = () => agent.url;

function withDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(path.join(agent.dataDir, 'nexus.db'));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Makes the user's sessions' last password/passkey proof older than the 5-minute window. */
const staleReauth = (userId: number) =>
  withDb((db) =>
    db.prepare('update sessions set reauth_at = ? where user_id = ?').run(Date.now() - 10 * 60_000, userId),
  );

const auditRows = (type: string, userId?: number) =>
  withDb(
    (db) =>
      db
        .prepare(
          `select type, outcome, actor_user_id as actor, target, ip_address as ip, user_agent as ua
           from audit_events where type = ? ${userId === undefined ? '' : 'and actor_user_id = ?'} order by id`,
        )
        .all(...(userId === undefined ? [type] : [type, userId])) as {
        type: string;
        outcome: string;
        actor: number | null;
        target: string | null;
        ip: string | null;
        ua: string | null;
      }[],
  );

/** Signs up a new account and adds a passkey to it; returns the client (signed in), the authenticator and the passkey. */
async function userWithPasskey(name = 'Laptop', authenticator = new SoftAuthenticator()) {
  const client = new Client(agent.url, { 'user-agent': 'passkey-test' });
  const account = await signUp(client);
  const options = await client.post('/api/auth/passkeys/register/options');
  expect(options.status, options.text).toBe(200);
  const verify = await client.post('/api/auth/passkeys/register/verify', {
    ...authenticator.register(options.json, { origin: origin() }),
    name,
  });
  expect(verify.status, verify.text).toBe(201);
  return { client, account, authenticator, passkey: verify.json.passkey };
}

async function passkeySignIn(browser: Client, authenticator: SoftAuthenticator, extra: object = {}) {
  const options = await browser.post('/api/auth/passkeys/login/options', {});
  expect(options.status, options.text).toBe(200);
  return browser.post('/api/auth/passkeys/login/verify', {
    ...authenticator.authenticate(options.json, { origin: origin() }),
    ...extra,
  });
}

describe('passkeys', () => {
  it('registers with standard options, lists, signs in (no TOTP step even with 2FA on), renames, and deletes after re-authentication', async () => {
    const client = new Client(agent.url, { 'user-agent': 'passkey-test' });
    const account = await signUp(client);

    const options = await client.post('/api/auth/passkeys/register/options');
    expect(options.status).toBe(200);
    expect(options.json.rp.id).toBe('127.0.0.1');
    expect(options.json.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    expect(options.json.attestation).toBe('none');
    expect(typeof options.json.challenge).toBe('string');

    const authenticator = new SoftAuthenticator();
    const added = await client.post('/api/auth/passkeys/register/verify', {
      ...authenticator.register(options.json, { origin: origin() }),
      name: 'Work laptop',
    });
    expect(added.status, added.text).toBe(201);
    expect(added.json.passkey).toMatchObject({
      name: 'Work laptop',
      transports: ['internal'],
      lastUsedAt: null,
    });

    // The next registration excludes the credential the account already has.
    const again = await client.post('/api/auth/passkeys/register/options');
    expect(again.json.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([
      authenticator.credentials[0]!.id.toString('base64url'),
    ]);

    const list = await client.get('/api/auth/passkeys');
    expect(list.status).toBe(200);
    expect(list.json.passkeys).toHaveLength(1);
    const passkey = list.json.passkeys[0];
    expect(Object.keys(passkey).sort()).toEqual(
      ['backedUp', 'createdAt', 'deviceType', 'id', 'lastUsedAt', 'name', 'transports'].sort(),
    );

    // Two-factor on: a passkey still signs in alone, as it is both factors.
    const setup = await client.post('/api/auth/2fa/setup');
    expect(setup.status).toBe(200);
    const enable = await client.post('/api/auth/2fa/enable', { code: totpAt(setup.json.secret) });
    expect(enable.status, enable.text).toBe(200);

    const browser = new Client(agent.url, { 'user-agent': 'passkey-test' });
    const signIn = await passkeySignIn(browser, authenticator);
    expect(signIn.status, signIn.text).toBe(200);
    expect(signIn.json.user).toMatchObject({ id: account.id, email: account.email, twoFactorEnabled: true });
    const cookie = signIn.headers.getSetCookie().join('\n');
    expect(cookie).toMatch(/nexus_session=[^;]+;.*HttpOnly/i);
    const me = await browser.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.json.id).toBe(account.id);
    const used = (await browser.get('/api/auth/passkeys')).json.passkeys[0];
    expect(used.lastUsedAt).not.toBeNull();

    const renamed = await browser.request('PATCH', `/api/auth/passkeys/${passkey.id}`, { name: '  Phone  ' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json.passkey.name).toBe('Phone');
    expect((await browser.request('PATCH', `/api/auth/passkeys/${passkey.id}`, { name: '' })).status).toBe(
      400,
    );

    // The sign-in proved a passkey just now; later, deleting needs a fresh proof.
    staleReauth(account.id);
    const refused = await browser.delete(`/api/auth/passkeys/${passkey.id}`);
    expect(refused.status).toBe(401);
    expect(refused.json.details).toEqual({ code: 'reauth_required' });

    const reauthOptions = await browser.post('/api/auth/passkeys/reauth/options');
    expect(reauthOptions.status).toBe(200);
    expect(reauthOptions.json.userVerification).toBe('required');
    expect(reauthOptions.json.allowCredentials).toHaveLength(1);
    const reauth = await browser.post(
      '/api/auth/passkeys/reauth/verify',
      authenticator.authenticate(reauthOptions.json, { origin: origin() }),
    );
    expect(reauth.status, reauth.text).toBe(200);

    const removed = await browser.delete(`/api/auth/passkeys/${passkey.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect((await browser.get('/api/auth/passkeys')).json.passkeys).toEqual([]);

    // The removed passkey no longer signs in.
    expect((await passkeySignIn(new Client(agent.url), authenticator)).status).toBe(401);

    // Audit: who, from where, with what.
    for (const type of ['passkey_added', 'passkey_renamed', 'passkey_removed']) {
      const rows = auditRows(type, account.id);
      expect(rows, type).toHaveLength(1);
      expect(rows[0]).toMatchObject({ outcome: 'success', ip: '127.0.0.1', ua: 'passkey-test' });
    }
    const signIns = auditRows('passkey_sign_in', account.id);
    expect(signIns.filter((r) => r.outcome === 'success')).toHaveLength(1);
    expect(auditRows('reauthenticated', account.id).at(-1)).toMatchObject({ outcome: 'success' });
  });

  it('a sign-in challenge is single-use: replaying the same answer, or a second answer to it, is refused', async () => {
    // Counter 0, like a synced passkey: only the challenge can stop the replay.
    const { authenticator } = await userWithPasskey('Synced', new SoftAuthenticator({ counterless: true }));
    const browser = new Client(agent.url);
    const options = await browser.post('/api/auth/passkeys/login/options', {});
    const handle = browser.cookie('nexus_passkey_login');
    expect(handle).toBeTruthy();
    expect(options.headers.getSetCookie().join('\n')).toMatch(/nexus_passkey_login=.*HttpOnly/i);
    const answer = authenticator.authenticate(options.json, { origin: origin() });
    const first = await browser.post('/api/auth/passkeys/login/verify', answer);
    expect(first.status, first.text).toBe(200);
    expect(browser.cookie('nexus_passkey_login')).toBeUndefined(); // spent

    // The same answer again, with the very handle the first one had (as an eavesdropper would).
    const attacker = new Client(agent.url);
    const replay = await attacker.post('/api/auth/passkeys/login/verify', answer, {
      cookie: `nexus_passkey_login=${handle}`,
    });
    expect(replay.status).toBe(401);
    expect(replay.json.message).toBe('Passkey sign-in failed');
    expect(attacker.cookie('nexus_session')).toBeUndefined();

    // A fresh handle does not make an old challenge valid either.
    await attacker.post('/api/auth/passkeys/login/options', {});
    const stale = await attacker.post(
      '/api/auth/passkeys/login/verify',
      authenticator.authenticate(options.json, { origin: origin() }),
    );
    expect(stale.status).toBe(401);
  });

  it('a registration challenge belongs to its session and is single-use', async () => {
    const { client } = await userWithPasskey();
    const options = await client.post('/api/auth/passkeys/register/options');
    const authenticator = new SoftAuthenticator();
    const answer = authenticator.register(options.json, { origin: origin() });

    // Another account's session cannot use it.
    const other = new Client(agent.url);
    await signUp(other);
    expect((await other.post('/api/auth/passkeys/register/verify', answer)).status).toBe(400);

    expect((await client.post('/api/auth/passkeys/register/verify', answer)).status).toBe(201);
    expect((await client.post('/api/auth/passkeys/register/verify', answer)).status).toBe(400);
  });

  it('refuses an answer made for another origin or RP ID, or without user verification', async () => {
    const { client, authenticator } = await userWithPasskey();

    const reg = await client.post('/api/auth/passkeys/register/options');
    const wrongOrigin = await client.post(
      '/api/auth/passkeys/register/verify',
      new SoftAuthenticator().register(reg.json, { origin: 'http://evil.example:8080' }),
    );
    expect(wrongOrigin.status).toBe(400);
    const reg2 = await client.post('/api/auth/passkeys/register/options');
    const wrongRp = await client.post(
      '/api/auth/passkeys/register/verify',
      new SoftAuthenticator().register(reg2.json, { origin: origin(), rpId: 'evil.example' }),
    );
    expect(wrongRp.status).toBe(400);

    for (const override of [
      { origin: 'http://evil.example:8080' },
      { origin: origin(), rpId: 'evil.example' },
      { origin: origin(), noUserVerification: true },
    ]) {
      const browser = new Client(agent.url);
      const options = await browser.post('/api/auth/passkeys/login/options', {});
      const res = await browser.post(
        '/api/auth/passkeys/login/verify',
        authenticator.authenticate(options.json, override),
      );
      expect(res.status, JSON.stringify(override)).toBe(401);
      expect(res.json.message).toBe('Passkey sign-in failed');
      expect(browser.cookie('nexus_session')).toBeUndefined();
    }
  });

  it("another user's passkey cannot be renamed or deleted (404), and is not in one's list", async () => {
    const { passkey } = await userWithPasskey('Theirs');
    const intruder = new Client(agent.url);
    await signUp(intruder);
    expect(
      (await intruder.request('PATCH', `/api/auth/passkeys/${passkey.id}`, { name: 'Mine' })).status,
    ).toBe(404);
    expect((await intruder.delete(`/api/auth/passkeys/${passkey.id}`)).status).toBe(404);
    expect((await intruder.get('/api/auth/passkeys')).json.passkeys).toEqual([]);
    // A stranger gets nothing at all.
    const stranger = new Client(agent.url);
    expect((await stranger.get('/api/auth/passkeys')).status).toBe(401);
    expect((await stranger.post('/api/auth/passkeys/register/options')).status).toBe(401);
    expect((await stranger.post('/api/auth/passkeys/reauth/options')).status).toBe(401);
  });

  it("re-authentication accepts only the account's own passkeys", async () => {
    const victim = await userWithPasskey();
    const { client, account } = await userWithPasskey();
    staleReauth(account.id);
    const options = await client.post('/api/auth/passkeys/reauth/options');
    const res = await client.post(
      '/api/auth/passkeys/reauth/verify',
      victim.authenticator.authenticate(options.json, { origin: origin() }),
    );
    expect(res.status).toBe(401);
    expect((await client.delete(`/api/auth/passkeys/${victim.passkey.id}`)).status).toBe(401);
  });

  it('a disabled account cannot sign in with its passkey, and the failure is recorded', async () => {
    const { account, authenticator } = await userWithPasskey();
    withDb((db) => db.prepare('update users set disabled_at = ? where id = ?').run(Date.now(), account.id));
    const res = await passkeySignIn(new Client(agent.url), authenticator);
    expect(res.status).toBe(401);
    expect(res.json.message).toBe('Passkey sign-in failed');
    const failures = auditRows('passkey_sign_in', account.id).filter((r) => r.outcome === 'failure');
    expect(failures).toHaveLength(1);
  });

  it('an unknown credential gets the same 401, and bodies are shape- and size-checked', async () => {
    const browser = new Client(agent.url);
    const stray = new SoftAuthenticator();
    stray.register({ challenge: 'x', rp: { id: '127.0.0.1' }, user: { id: 'AAAA' } }, { origin: origin() });
    const res = await passkeySignIn(browser, stray);
    expect(res.status).toBe(401);
    expect(res.json.message).toBe('Passkey sign-in failed');

    const bad = await browser.post('/api/auth/passkeys/login/verify', { id: 'x', type: 'public-key' });
    expect(bad.status).toBe(400);
    const huge = await browser.post('/api/auth/passkeys/login/verify', {
      id: 'a',
      rawId: 'a',
      type: 'public-key',
      response: { clientDataJSON: 'a'.repeat(9000), authenticatorData: 'a', signature: 'a' },
      clientExtensionResults: {},
    });
    expect(huge.status).toBe(400);
  });
});

describe('passkeys behind NEXUS_PUBLIC_URL', () => {
  const PUBLIC = 'https://hub.example:8443';
  let hub: RunningAgent;
  beforeAll(async () => {
    hub = await startAgent({ env: { NEXUS_PUBLIC_URL: `${PUBLIC}/console` } });
  });
  afterAll(async () => {
    await hub?.stop();
  });

  it("the relying party is the public URL's host and origin, whatever the request's Host", async () => {
    const client = new Client(hub.url);
    await signUp(client);
    const options = await client.post('/api/auth/passkeys/register/options');
    expect(options.json.rp.id).toBe('hub.example');

    const viaLoopback = await client.post(
      '/api/auth/passkeys/register/verify',
      new SoftAuthenticator().register(options.json, { origin: hub.url, rpId: '127.0.0.1' }),
    );
    expect(viaLoopback.status).toBe(400);

    const again = await client.post('/api/auth/passkeys/register/options');
    const authenticator = new SoftAuthenticator();
    const added = await client.post(
      '/api/auth/passkeys/register/verify',
      authenticator.register(again.json, { origin: PUBLIC }),
    );
    expect(added.status, added.text).toBe(201);

    const browser = new Client(hub.url);
    const login = await browser.post('/api/auth/passkeys/login/options', {});
    expect(login.json.rpId).toBe('hub.example');
    const ok = await browser.post(
      '/api/auth/passkeys/login/verify',
      authenticator.authenticate(login.json, { origin: PUBLIC }),
    );
    expect(ok.status, ok.text).toBe(200);
  });

  it('failed passkey sign-ins are throttled per address like wrong passwords (429), and audited', async () => {
    const stray = new SoftAuthenticator();
    stray.register({ challenge: 'x', rp: { id: 'hub.example' }, user: { id: 'AAAA' } }, { origin: PUBLIC });
    let status = 0;
    for (let i = 0; i < 25 && status !== 429; i++) {
      const browser = new Client(hub.url);
      const options = await browser.post('/api/auth/passkeys/login/options', {});
      status = (
        await browser.post(
          '/api/auth/passkeys/login/verify',
          stray.authenticate(options.json, { origin: PUBLIC }),
        )
      ).status;
      if (status !== 429) expect(status).toBe(401);
    }
    expect(status).toBe(429);
    // The password sign-in from this address is held back too: one throttle for both.
    const password = await new Client(hub.url).post('/api/auth/login', {
      email: 'nobody@example.com',
      password: 'whatever whatever',
    });
    expect(password.status).toBe(429);

    const db = new Database(path.join(hub.dataDir, 'nexus.db'), { readonly: true });
    try {
      const count = (type: string, outcome: string) =>
        (
          db
            .prepare('select count(*) as n from audit_events where type = ? and outcome = ?')
            .get(type, outcome) as {
            n: number;
          }
        ).n;
      expect(count('passkey_sign_in', 'failure')).toBeGreaterThanOrEqual(19);
      expect(count('sign_in_throttled', 'failure')).toBeGreaterThanOrEqual(1);
    } finally {
      db.close();
    }
  });
});
