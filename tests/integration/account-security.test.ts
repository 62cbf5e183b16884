import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { TEST_PASSWORD, signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { timeStep, totpAt } from '../support/totp.js';

/**
 * Issue 18: recovery codes, /2fa-test, re-authentication, sessions and the user-management rules,
 * against the real agent. Codes come from the tests' own RFC 6238 implementation.
 */

let agent: RunningAgent;
let owner: Client;
let ownerId: number;
beforeAll(async () => {
  agent = await startAgent();
  owner = new Client(agent.url);
  ownerId = (await signUp(owner, { name: 'Owner' })).id;
});
afterAll(async () => {
  await agent?.stop();
});

const client = (userAgent?: string) => new Client(agent.url, userAgent ? { 'user-agent': userAgent } : {});
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Ages every session of the account beyond the 5-minute re-authentication window, in the database itself. */
function ageReauth(userId: number) {
  const db = new Database(path.join(agent.dataDir, 'nexus.db'));
  try {
    db.prepare('update sessions set reauth_at = ? where user_id = ?').run(Date.now() - 6 * 60_000, userId);
  } finally {
    db.close();
  }
}

async function member(role: 'user' | 'admin' = 'user', userAgent?: string) {
  const c = client(userAgent);
  const account = await signUp(c, { role });
  return { ...account, client: c };
}

/** A new account with 2FA on; returns its secret and the ten recovery codes. */
async function withTwoFactor() {
  const m = await member();
  const setup = await m.client.post('/api/auth/2fa/setup');
  expect(setup.status).toBe(200);
  const enabled = await m.client.post('/api/auth/2fa/enable', { code: totpAt(setup.json.secret) });
  expect(enabled.status, enabled.text).toBe(200);
  return { ...m, secret: setup.json.secret as string, codes: enabled.json.recoveryCodes as string[] };
}

const signIn = (c: Client, email: string, totpCode?: string, password = TEST_PASSWORD) =>
  c.post('/api/auth/login', { email, password, ...(totpCode ? { totpCode } : {}) });

describe('recovery codes', () => {
  it('enrolment returns ten distinct codes once; the database keeps only SHA-256 hashes', async () => {
    const { id, codes, client: c } = await withTwoFactor();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
    expect((await c.get('/api/auth/recovery-codes')).json).toEqual({ remaining: 10, total: 10 });
    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    const rows = db.prepare('select code_hash from recovery_codes where user_id = ?').all(id) as {
      code_hash: string;
    }[];
    db.close();
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(codes.some((code) => row.code_hash.includes(code.replace('-', '')))).toBe(false);
    }
  });

  it('signs in once, and not a second time', async () => {
    const { email, codes, client: c } = await withTwoFactor();
    const first = await signIn(client(), email, codes[0]);
    expect(first.status, first.text).toBe(200);
    // Typed without the hyphen and in capitals: the same code, already spent.
    const again = await signIn(client(), email, codes[0]!.replace('-', '').toUpperCase());
    expect(again.status).toBe(401);
    expect(again.json.message).toBe('Invalid 2FA code');
    expect((await c.get('/api/auth/recovery-codes')).json.remaining).toBe(9);
    // A made-up code of the right shape is refused too.
    expect((await signIn(client(), email, 'aaaaa-aaaaa')).status).toBe(401);
  });

  it('regenerating needs recent authentication, and the old codes stop working', async () => {
    const { id, email, codes, client: c } = await withTwoFactor();
    ageReauth(id);
    const stale = await c.post('/api/auth/recovery-codes');
    expect(stale.status).toBe(401);
    expect(stale.json.details).toEqual({ code: 'reauth_required' });
    expect((await c.post('/api/auth/reauth', { password: TEST_PASSWORD })).status).toBe(200);
    const fresh = await c.post('/api/auth/recovery-codes');
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.json.recoveryCodes).toHaveLength(10);
    expect((await signIn(client(), email, codes[1])).status).toBe(401);
    expect((await signIn(client(), email, fresh.json.recoveryCodes[0])).status).toBe(200);
  });

  it('is refused without 2FA and for strangers', async () => {
    expect((await client().post('/api/auth/recovery-codes')).status).toBe(401);
    const { client: c } = await member();
    expect((await c.post('/api/auth/recovery-codes')).status).toBe(409);
  });

  it('turns 2FA off (after re-authentication) in place of a code', async () => {
    const { codes, client: c } = await withTwoFactor();
    const off = await c.post('/api/auth/2fa/disable', { code: codes[3] });
    expect(off.status, off.text).toBe(200);
    expect(off.json.user.twoFactorEnabled).toBe(false);
    expect((await c.get('/api/auth/recovery-codes')).json.remaining).toBe(0);
  });
});

describe('POST /api/auth/2fa/test', () => {
  it('reports which step matched for a clock that runs ahead or behind, without spending the code', async () => {
    const { email, secret, client: c } = await withTwoFactor();
    // Far from a step boundary, so "now" on the agent and here name the same step.
    const msIntoStep = Date.now() % 30_000;
    if (msIntoStep > 25_000) await new Promise((r) => setTimeout(r, 30_500 - msIntoStep));
    const now = timeStep(Date.now());
    const ahead = await c.post('/api/auth/2fa/test', { code: totpAt(secret, now + 4) });
    expect(ahead.json).toEqual({
      valid: true,
      matchedStep: 4,
      driftSeconds: 120,
      withinSignInWindow: false,
      searchedSteps: 10,
    });
    const behind = await c.post('/api/auth/2fa/test', { code: totpAt(secret, now - 2) });
    expect(behind.json).toMatchObject({ valid: true, matchedStep: -2, driftSeconds: -60 });
    const current = await c.post('/api/auth/2fa/test', { code: totpAt(secret, now) });
    expect(current.json).toMatchObject({ valid: true, matchedStep: 0, withinSignInWindow: true });
    // Sign-in keeps its narrow window: the +4 code does not sign in, the tested current one still does.
    expect((await signIn(client(), email, totpAt(secret, now + 4))).status).toBe(401);
    expect((await signIn(client(), email, totpAt(secret, now))).status).toBe(200);
  });

  it('says invalid for a code from no step near now; needs 2FA on and a session', async () => {
    const { secret, client: c } = await withTwoFactor();
    const near = new Set(Array.from({ length: 25 }, (_, i) => totpAt(secret, timeStep(Date.now()) + i - 12)));
    let wrong = '000000';
    for (let n = 0; near.has(wrong); n++) wrong = String(n).padStart(6, '0');
    const res = await c.post('/api/auth/2fa/test', { code: wrong });
    expect(res.json).toMatchObject({ valid: false, matchedStep: null, driftSeconds: null });
    expect((await client().post('/api/auth/2fa/test', { code: '123456' })).status).toBe(401);
    const { client: plain } = await member();
    expect((await plain.post('/api/auth/2fa/test', { code: '123456' })).status).toBe(409);
  });
});

describe('re-authentication', () => {
  it('changing the password, turning 2FA off and changing a role need a proof younger than 5 minutes', async () => {
    const { id, secret, client: c } = await withTwoFactor();
    const target = await member();
    ageReauth(id);
    ageReauth(ownerId);
    const refusals = [
      await c.put('/api/auth/password', {
        currentPassword: TEST_PASSWORD,
        newPassword: 'another long password',
      }),
      await c.post('/api/auth/2fa/disable', { code: totpAt(secret) }),
      await owner.request('PATCH', `/api/users/${target.id}`, { role: 'admin' }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(401);
      expect(res.json.details).toEqual({ code: 'reauth_required' });
      expect(res.json.message).toMatch(/password/i);
    }
    // The sessions were not ended by the refusal.
    expect((await c.get('/api/auth/user')).status).toBe(200);

    expect((await c.post('/api/auth/reauth', { password: TEST_PASSWORD })).status).toBe(200);
    expect((await owner.post('/api/auth/reauth', { password: TEST_PASSWORD })).status).toBe(200);
    expect(
      (
        await c.put('/api/auth/password', {
          currentPassword: TEST_PASSWORD,
          newPassword: 'another long password',
        })
      ).status,
    ).toBe(200);
    expect((await c.post('/api/auth/2fa/disable', { code: totpAt(secret) })).status).toBe(200);
    expect((await owner.request('PATCH', `/api/users/${target.id}`, { role: 'admin' })).status).toBe(200);
  });

  it('refuses a wrong password with 401 and throttles guessing', async () => {
    const { id, client: c } = await member();
    ageReauth(id);
    const wrong = await c.post('/api/auth/reauth', { password: 'not my password' });
    expect(wrong.status).toBe(401);
    expect(wrong.json.details).toBeUndefined();
    let last = wrong.status;
    for (let i = 0; i < 6 && last !== 429; i++)
      last = (await c.post('/api/auth/reauth', { password: 'guess' + i })).status;
    expect(last).toBe(429);
    // Throttled: even the right password waits, and the session stays unproven.
    expect((await c.post('/api/auth/reauth', { password: TEST_PASSWORD })).status).toBe(429);
    expect((await c.post('/api/auth/recovery-codes')).status).toBe(401);
    expect((await client().post('/api/auth/reauth', { password: TEST_PASSWORD })).status).toBe(401);
  });
});

describe('sessions', () => {
  it('lists where one is signed in, with browser and OS, this one marked, and no secrets', async () => {
    const m = await member('user', CHROME_LINUX);
    const other = client(FIREFOX_MAC);
    expect((await signIn(other, m.email)).status).toBe(200);
    const res = await m.client.get('/api/auth/sessions');
    expect(res.status).toBe(200);
    expect(res.json.sessions).toHaveLength(2);
    const current = res.json.sessions.find((s: { current: boolean }) => s.current);
    expect(current).toMatchObject({
      kind: 'browser',
      browser: 'Chrome 131',
      os: 'Linux',
      ipAddress: '127.0.0.1',
    });
    const firefox = res.json.sessions.find((s: { current: boolean }) => !s.current);
    expect(firefox).toMatchObject({
      browser: 'Firefox 133',
      os: expect.stringMatching(/^macOS/),
      current: false,
    });
    expect(res.json.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(res.text).not.toContain(m.client.cookie('nexus_session')!);
    expect(res.text).not.toMatch(/idHash|id_hash/);
  });

  it('revoking one ends that browser on its next request', async () => {
    const m = await member();
    const other = client();
    await signIn(other, m.email);
    expect((await other.get('/api/auth/user')).status).toBe(200);
    const list = (await m.client.get('/api/auth/sessions')).json.sessions;
    const victim = list.find((s: { current: boolean }) => !s.current);
    const del = await m.client.delete(`/api/auth/sessions/${victim.id}`);
    expect(del.status).toBe(200);
    expect((await other.get('/api/auth/user')).status).toBe(401);
    expect((await m.client.get('/api/auth/user')).status).toBe(200);
    expect((await m.client.delete(`/api/auth/sessions/${victim.id}`)).status).toBe(404);
  });

  it('"sign out everywhere else" keeps this one', async () => {
    const m = await member();
    const others = [client(), client()];
    for (const o of others) await signIn(o, m.email);
    const res = await m.client.post('/api/auth/sessions/revoke-others');
    expect(res.json).toEqual({ revoked: 2 });
    for (const o of others) expect((await o.get('/api/auth/user')).status).toBe(401);
    expect((await m.client.get('/api/auth/user')).status).toBe(200);
  });

  it("a member can neither list nor revoke another user's sessions", async () => {
    const victim = await member();
    const attacker = await member();
    const victimSession = (await victim.client.get('/api/auth/sessions')).json.sessions[0].id;
    // Through the own-session endpoint: someone else's id is "no such session".
    expect((await attacker.client.delete(`/api/auth/sessions/${victimSession}`)).status).toBe(404);
    expect((await attacker.client.get(`/api/users/${victim.id}/sessions`)).status).toBe(403);
    expect((await attacker.client.delete(`/api/users/${victim.id}/sessions/${victimSession}`)).status).toBe(
      403,
    );
    expect((await client().get('/api/auth/sessions')).status).toBe(401);
    expect((await victim.client.get('/api/auth/user')).status).toBe(200);
  });

  it('an admin lists and revokes any user’s session; not a superadmin’s', async () => {
    const admin = await member('admin');
    const target = await member();
    const list = await admin.client.get(`/api/users/${target.id}/sessions`);
    expect(list.status).toBe(200);
    expect(list.json.sessions).toHaveLength(1);
    expect(list.json.sessions[0].current).toBe(false);
    const sid = list.json.sessions[0].id;
    expect((await admin.client.delete(`/api/users/${target.id}/sessions/${sid}`)).status).toBe(200);
    expect((await target.client.get('/api/auth/user')).status).toBe(401);
    const ownerSession = (await admin.client.get(`/api/users/${ownerId}/sessions`)).json.sessions[0].id;
    expect((await admin.client.delete(`/api/users/${ownerId}/sessions/${ownerSession}`)).status).toBe(403);
    // A session id belonging to another user than the one in the URL is not found.
    const third = await member();
    const thirdSession = (await third.client.get('/api/auth/sessions')).json.sessions[0].id;
    expect((await admin.client.delete(`/api/users/${target.id}/sessions/${thirdSession}`)).status).toBe(404);
    expect((await third.client.get('/api/auth/user')).status).toBe(200);
  });
});

describe('user management rules', () => {
  it('the last superadmin cannot be demoted, disabled or deleted (409 with why)', async () => {
    const demote = await owner.request('PATCH', `/api/users/${ownerId}`, { role: 'admin' });
    expect(demote.status).toBe(409);
    expect(demote.json.message).toMatch(/last superadmin/);
    const del = await owner.delete(`/api/users/${ownerId}`);
    expect(del.status).toBe(409);
    // Nobody disables themselves.
    const self = await owner.post(`/api/users/${ownerId}/disable`);
    expect(self.status).toBe(409);
    expect(self.json.message).toMatch(/your own/);
  });

  it('a superadmin whose only fellow superadmin is disabled is still the last one', async () => {
    const second = await member('admin');
    expect((await owner.request('PATCH', `/api/users/${second.id}`, { role: 'superadmin' })).status).toBe(
      200,
    );
    expect((await owner.post(`/api/users/${second.id}/disable`)).status).toBe(200);
    const demote = await owner.request('PATCH', `/api/users/${ownerId}`, { role: 'admin' });
    expect(demote.status).toBe(409);
    expect((await owner.post(`/api/users/${second.id}/enable`)).status).toBe(200);
    // Enabled again, the second superadmin counts: it may step down itself, leaving the owner the last one.
    const relogin = client();
    expect((await signIn(relogin, second.email)).status).toBe(200);
    expect((await relogin.request('PATCH', `/api/users/${second.id}`, { role: 'admin' })).status).toBe(200);
    expect((await owner.post(`/api/users/${ownerId}/disable`)).status).toBe(409);
  });

  it('an admin cannot raise anyone above their own role, nor touch a superadmin (403)', async () => {
    const admin = await member('admin');
    const target = await member();
    const raise = await admin.client.request('PATCH', `/api/users/${target.id}`, { role: 'superadmin' });
    expect(raise.status).toBe(403);
    expect((await admin.client.request('PATCH', `/api/users/${target.id}`, { role: 'admin' })).status).toBe(
      200,
    );
    expect((await admin.client.request('PATCH', `/api/users/${ownerId}`, { role: 'user' })).status).toBe(403);
    expect((await admin.client.post(`/api/users/${ownerId}/disable`)).status).toBe(403);
    expect((await admin.client.delete(`/api/users/${ownerId}`)).status).toBe(403);
    const { client: plain } = await member();
    expect((await plain.post(`/api/users/${target.id}/disable`)).status).toBe(403);
    expect((await plain.request('PATCH', `/api/users/${target.id}`, { role: 'admin' })).status).toBe(403);
  });

  it('a disabled account cannot sign in, and its live session gets 401 at once; enabling lets it back', async () => {
    const admin = await member('admin');
    const target = await member();
    expect((await target.client.get('/api/auth/user')).status).toBe(200);
    const disabled = await admin.client.post(`/api/users/${target.id}/disable`);
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.json.user.disabled).toBe(true);
    expect((await target.client.get('/api/auth/user')).status).toBe(401);
    const again = await signIn(client(), target.email);
    expect(again.status).toBe(403);
    expect(again.json.message).toMatch(/disabled/);
    // A wrong password says only "invalid", so the state is not told to strangers.
    expect((await signIn(client(), target.email, undefined, 'wrong password')).json.message).toBe(
      'Invalid email or password',
    );
    const listed = (await admin.client.get('/api/users')).json.users.find(
      (u: { id: number }) => u.id === target.id,
    );
    expect(listed.disabled).toBe(true);
    expect((await admin.client.post(`/api/users/${target.id}/enable`)).status).toBe(200);
    expect((await signIn(client(), target.email)).status).toBe(200);
  });

  it('records the events of this slice in the audit log', async () => {
    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    const types = new Set(
      (db.prepare('select distinct type from audit_events').all() as { type: string }[]).map((r) => r.type),
    );
    const details = (
      db.prepare('select details from audit_events where details is not null').all() as {
        details: string;
      }[]
    ).map((r) => r.details);
    db.close();
    for (const t of [
      'recovery_codes_generated',
      'recovery_code_used',
      'reauthenticated',
      'session_revoked',
      'sessions_revoked',
      'account_disabled',
      'account_enabled',
    ])
      expect(types).toContain(t);
    // No code, token or password in any row's details.
    for (const d of details) expect(d).not.toMatch(/[0-9a-z]{5}-[0-9a-z]{5}|horse/);
  });
});
