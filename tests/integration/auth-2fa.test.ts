import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { TEST_PASSWORD, signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { base32Decode, timeStep, totpAt } from '../support/totp.js';

/**
 * Two-factor sign-in with codes computed by the tests' own RFC 6238 implementation
 * (tests/support/totp.ts, node:crypto only), never by the agent's library.
 */

let agent: RunningAgent;
beforeAll(async () => {
  agent = await startAgent();
  // The first account is the owner; these tests work with ordinary accounts.
  await signUp(new Client(agent.url));
});
afterAll(async () => {
  await agent?.stop();
});

const client = () => new Client(agent.url);

/**
 * An authenticator app that never shows the same code twice: each code comes from a later time
 * step than the last, within the agent's one-step drift window. Steps are chosen so a code
 * stays valid for at least 10 seconds after it is made; only a fourth code within one 30-second
 * step has to wait for the clock.
 */
class Authenticator {
  private lastStep = -Infinity;
  constructor(readonly secret: string) {}

  async nextCode(): Promise<string> {
    for (;;) {
      const nowMs = Date.now();
      const current = timeStep(nowMs);
      const secondsIntoStep = (nowMs / 1000) % 30;
      const earliest = secondsIntoStep < 20 ? current - 1 : current;
      const step = Math.max(this.lastStep + 1, earliest);
      if (step <= current + 1) {
        this.lastStep = step;
        return totpAt(this.secret, step);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** The code this authenticator showed last (for replay attempts). */
  lastCode(): string {
    return totpAt(this.secret, this.lastStep);
  }

  /** A 6-digit code that is wrong for every step the agent could accept now. */
  wrongCode(): string {
    const current = timeStep(Date.now());
    const valid = new Set([-2, -1, 0, 1, 2].map((d) => totpAt(this.secret, current + d)));
    for (let n = 0; ; n++) {
      const candidate = String(n).padStart(6, '0');
      if (!valid.has(candidate)) return candidate;
    }
  }
}

/** Signs up an account and turns 2FA on for it; the client stays signed in. */
async function accountWithTwoFactor() {
  const c = client();
  const account = await signUp(c);
  const setup = await c.post('/api/auth/2fa/setup');
  expect(setup.status).toBe(200);
  const app = new Authenticator(setup.json.secret);
  const enabled = await c.post('/api/auth/2fa/enable', { code: await app.nextCode() });
  expect(enabled.status, enabled.text).toBe(200);
  return { ...account, client: c, app };
}

describe('2FA enrolment', () => {
  it('is only for signed-in users', async () => {
    for (const route of ['setup', 'enable', 'disable']) {
      const res = await client().post(`/api/auth/2fa/${route}`, { code: '123456' });
      expect(res.status).toBe(401);
    }
  });

  it('hands out a 160-bit secret and an otpauth URL with the issuer and the account email', async () => {
    const c = client();
    const { email } = await signUp(c);
    const res = await c.post('/api/auth/2fa/setup');
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['otpauthUrl', 'secret']);
    expect(base32Decode(res.json.secret)).toHaveLength(20);
    const url = new URL(res.json.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Nexus Console:${email}`);
    expect(url.searchParams.get('secret')).toBe(res.json.secret);
    expect(url.searchParams.get('issuer')).toBe('Nexus Console');

    // Setup alone does not turn 2FA on.
    expect((await c.get('/api/auth/user')).json.twoFactorEnabled).toBe(false);
    const login = await client().post('/api/auth/login', { email, password: TEST_PASSWORD });
    expect(login.status).toBe(200);

    // The secret is stored sealed, not in the clear.
    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    try {
      const sealed = db
        .prepare('select totp_secret_sealed from users where email_normalized = ?')
        .pluck()
        .get(email.toLowerCase()) as string;
      expect(sealed).toMatch(/^v1:/);
      expect(sealed).not.toContain(res.json.secret);
    } finally {
      db.close();
    }
  });

  it('turns on only with a correct code from the new secret', async () => {
    const c = client();
    await signUp(c);
    const before = await c.post('/api/auth/2fa/enable', { code: '123456' });
    expect(before.status).toBe(409);

    const setup = await c.post('/api/auth/2fa/setup');
    const app = new Authenticator(setup.json.secret);
    const wrong = await c.post('/api/auth/2fa/enable', { code: app.wrongCode() });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toMatch(/2FA code/i);
    expect((await c.get('/api/auth/user')).json.twoFactorEnabled).toBe(false);

    for (const body of [{}, { code: '12345' }, { code: 'abcdef' }, { code: 123456 }, [], null]) {
      const bad = await c.post('/api/auth/2fa/enable', JSON.stringify(body));
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }

    const ok = await c.post('/api/auth/2fa/enable', { code: await app.nextCode() });
    expect(ok.status).toBe(200);
    expect(ok.json.user.twoFactorEnabled).toBe(true);
    expect((await c.get('/api/auth/user')).json.twoFactorEnabled).toBe(true);

    const again = await c.post('/api/auth/2fa/setup');
    expect(again.status).toBe(409);
  });
});

describe('signing in with 2FA', () => {
  it('asks for the code after a right password, and signs in with a right one', async () => {
    const { email, app } = await accountWithTwoFactor();
    const c = client();

    const noCode = await c.post('/api/auth/login', { email, password: TEST_PASSWORD });
    expect(noCode.status).toBe(401);
    expect(noCode.json.message).toContain('2FA code required');
    expect(c.cookie('nexus_session')).toBeUndefined();

    // An empty code, as an empty form field sends it, is a missing code too.
    const empty = await c.post('/api/auth/login', { email, password: TEST_PASSWORD, totpCode: '' });
    expect(empty.status).toBe(401);
    expect(empty.json.message).toContain('2FA code required');

    const wrong = await c.post('/api/auth/login', {
      email,
      password: TEST_PASSWORD,
      totpCode: app.wrongCode(),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json.message).not.toContain('2FA code required');
    expect(c.cookie('nexus_session')).toBeUndefined();

    const ok = await c.post('/api/auth/login', {
      email,
      password: TEST_PASSWORD,
      totpCode: await app.nextCode(),
      rememberMe: true,
    });
    expect(ok.status).toBe(200);
    expect(ok.json.user).toMatchObject({ email, twoFactorEnabled: true });
    expect(c.lastSetCookie.join()).toMatch(/Max-Age=2592000/);
    expect((await c.get('/api/auth/user')).status).toBe(200);
  });

  it('gives the generic answer to a wrong password, even with a right code', async () => {
    const { email, app } = await accountWithTwoFactor();
    const res = await client().post('/api/auth/login', {
      email,
      password: 'wrong password 2',
      totpCode: await app.nextCode(),
    });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ message: 'Invalid email or password' });
  });

  it('never accepts a code twice for sign-in, including the code just used to enrol', async () => {
    const { email, app } = await accountWithTwoFactor();
    // Enrolling proves possession but does not spend the step: the code still on the phone signs in once.
    const enrolmentCode = app.lastCode();
    const withEnrolmentCode = await client().post('/api/auth/login', {
      email,
      password: TEST_PASSWORD,
      totpCode: enrolmentCode,
    });
    expect(withEnrolmentCode.status, withEnrolmentCode.text).toBe(200);
    const reuseEnrolment = await client().post('/api/auth/login', {
      email,
      password: TEST_PASSWORD,
      totpCode: enrolmentCode,
    });
    expect(reuseEnrolment.status).toBe(401);
    expect(reuseEnrolment.json.message).toMatch(/already used/i);

    const code = await app.nextCode();
    const first = await client().post('/api/auth/login', { email, password: TEST_PASSWORD, totpCode: code });
    expect(first.status).toBe(200);
    const replay = await client().post('/api/auth/login', { email, password: TEST_PASSWORD, totpCode: code });
    expect(replay.status).toBe(401);
    expect(replay.json.message).toMatch(/already used/i);
  });

  it('lets exactly one of two simultaneous sign-ins with the same code through', async () => {
    const { email, app } = await accountWithTwoFactor();
    const code = await app.nextCode();
    const results = await Promise.all(
      [client(), client(), client()].map((c) =>
        c.post('/api/auth/login', { email, password: TEST_PASSWORD, totpCode: code }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
  });

  it('counts wrong codes as failed sign-ins: the sixth attempt is refused with 429', async () => {
    const { email, app } = await accountWithTwoFactor();
    for (let i = 0; i < 5; i++) {
      const res = await client().post('/api/auth/login', {
        email,
        password: TEST_PASSWORD,
        totpCode: app.wrongCode(),
      });
      expect(res.status).toBe(401);
    }
    const blocked = await client().post('/api/auth/login', {
      email,
      password: TEST_PASSWORD,
      totpCode: await app.nextCode(),
    });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('turning 2FA off', () => {
  it('needs a current code; afterwards the password alone signs in', async () => {
    const { email, client: c, app } = await accountWithTwoFactor();
    const wrong = await c.post('/api/auth/2fa/disable', { code: app.wrongCode() });
    expect(wrong.status).toBe(400);
    expect((await c.get('/api/auth/user')).json.twoFactorEnabled).toBe(true);

    // A signed-in request proving possession: the code still on the phone (used to enrol) is enough.
    const ok = await c.post('/api/auth/2fa/disable', { code: app.lastCode() });
    expect(ok.status).toBe(200);
    expect(ok.json.user.twoFactorEnabled).toBe(false);
    const login = await client().post('/api/auth/login', { email, password: TEST_PASSWORD });
    expect(login.status).toBe(200);

    const notOn = await c.post('/api/auth/2fa/disable', { code: app.wrongCode() });
    expect(notOn.status).toBe(409);
  });

  it('can be set up again afterwards with a new secret', async () => {
    const { email, client: c, app } = await accountWithTwoFactor();
    expect((await c.post('/api/auth/2fa/disable', { code: await app.nextCode() })).status).toBe(200);
    const setup = await c.post('/api/auth/2fa/setup');
    expect(setup.json.secret).not.toBe(app.secret);
    const fresh = new Authenticator(setup.json.secret);
    expect((await c.post('/api/auth/2fa/enable', { code: await fresh.nextCode() })).status).toBe(200);
    const login = await client().post('/api/auth/login', { email, password: TEST_PASSWORD });
    expect(login.json.message).toContain('2FA code required');
  });
});

it('never writes a TOTP secret or a password to the log', () => {
  const logs = agent.logs.join('\n');
  expect(logs).not.toContain(TEST_PASSWORD);
  expect(logs).not.toMatch(/"secret":"[A-Z2-7]{16,}"/);
  expect(logs).not.toMatch(/otpauth:/);
});
