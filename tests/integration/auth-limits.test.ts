import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { TEST_PASSWORD, createInvite, signUp, uniqueEmail } from '../support/auth.js';
import { Client } from '../support/http.js';

/**
 * Sign-in rate limits at their defaults (5 failures per account and 20 per client address in
 * 15 minutes; 100 sign-ups per address an hour), and what a trusted proxy changes.
 *
 * The agent here runs with NEXUS_TRUST_PROXY=true, so each test speaks from its own client
 * address through X-Forwarded-For and the tests do not share an address's budget.
 */

let agent: RunningAgent;
let addressCounter = 0;

beforeAll(async () => {
  agent = await startAgent({ env: { NEXUS_TRUST_PROXY: 'true' } });
  await signUp(new Client(agent.url, { 'x-forwarded-for': '10.99.0.1' }));
});
afterAll(async () => {
  await agent?.stop();
});

/** A browser at its own address (as the proxy reports it). */
function browserAt(address = `10.0.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`) {
  return new Client(agent.url, { 'x-forwarded-for': address });
}

function expectThrottled(res: Awaited<ReturnType<Client['post']>>, maxSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.json.message).toMatch(/too many/i);
  expect(res.json.message).toMatch(/try again in \d+ (minute|second)s?/i);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

describe('failed sign-ins per account', () => {
  it('refuses the sixth attempt within 15 minutes, even with the right password and from elsewhere', async () => {
    const { email } = await signUp(browserAt());
    const attacker = browserAt();
    for (let i = 0; i < 5; i++) {
      const res = await attacker.post('/api/auth/login', { email, password: `guess ${i}` });
      expect(res.status).toBe(401);
    }
    expectThrottled(await attacker.post('/api/auth/login', { email, password: TEST_PASSWORD }), 900);
    expectThrottled(await browserAt().post('/api/auth/login', { email, password: TEST_PASSWORD }), 900);

    // Other accounts are not affected by this one's lock.
    const other = await signUp(browserAt());
    expect(
      (await attacker.post('/api/auth/login', { email: other.email, password: TEST_PASSWORD })).status,
    ).toBe(200);
  });

  it('treats an unknown email exactly like a known one', async () => {
    const email = uniqueEmail('ghost');
    const c = browserAt();
    for (let i = 0; i < 5; i++) {
      const res = await c.post('/api/auth/login', { email, password: `guess ${i}` });
      expect(res.status).toBe(401);
      expect(res.json.message).toBe('Invalid email or password');
    }
    expectThrottled(await c.post('/api/auth/login', { email, password: 'guess 5' }), 900);
  });

  it('counts the email without regard to case', async () => {
    const { email } = await signUp(browserAt());
    const c = browserAt();
    for (let i = 0; i < 5; i++) {
      const variant = i % 2 ? email.toUpperCase() : email;
      expect((await c.post('/api/auth/login', { email: variant, password: `guess ${i}` })).status).toBe(401);
    }
    expectThrottled(await c.post('/api/auth/login', { email, password: TEST_PASSWORD }), 900);
  });

  it('starts counting afresh after a successful sign-in', async () => {
    const { email } = await signUp(browserAt());
    const c = browserAt();
    for (let i = 0; i < 4; i++) {
      expect((await c.post('/api/auth/login', { email, password: `guess ${i}` })).status).toBe(401);
    }
    expect((await c.post('/api/auth/login', { email, password: TEST_PASSWORD })).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await c.post('/api/auth/login', { email, password: `guess ${i}` })).status).toBe(401);
    }
    expectThrottled(await c.post('/api/auth/login', { email, password: TEST_PASSWORD }), 900);
  });

  it('holds against parallel guesses: no more than 5 get a password check', async () => {
    const { email } = await signUp(browserAt());
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        browserAt().post('/api/auth/login', { email, password: `guess ${i}` }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('also limits wrong current passwords on the change-password form', async () => {
    const c = browserAt();
    const { email } = await signUp(c);
    for (let i = 0; i < 5; i++) {
      const res = await c.put('/api/auth/password', {
        currentPassword: `guess ${i}`,
        newPassword: 'new password 9',
      });
      expect(res.status).toBe(400);
    }
    const blocked = await c.put('/api/auth/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'new password 9',
    });
    expect(blocked.status).toBe(429);
    expect((await browserAt().post('/api/auth/login', { email, password: TEST_PASSWORD })).status).toBe(429);
  });
});

describe('failed sign-ins per client address', () => {
  it('refuses an address after 20 failures across accounts, other addresses still sign in', async () => {
    const { email } = await signUp(browserAt());
    const stuffer = browserAt('203.0.113.7');
    for (let i = 0; i < 20; i++) {
      const res = await stuffer.post('/api/auth/login', { email: uniqueEmail('list'), password: 'leaked 1' });
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    expectThrottled(await stuffer.post('/api/auth/login', { email, password: TEST_PASSWORD }), 900);
    expect((await browserAt().post('/api/auth/login', { email, password: TEST_PASSWORD })).status).toBe(200);
  });

  it('takes the address the proxy appended last, not what the client put first', async () => {
    const c = new Client(agent.url, { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' });
    // 203.0.113.7 is the address the previous test locked out.
    const res = await c.post('/api/auth/login', { email: uniqueEmail(), password: 'x' });
    expect(res.status).toBe(429);
  });
});

describe('sign-ups per client address', () => {
  it('allows 100 an hour from one address, then answers 429', async () => {
    const c = browserAt();
    await signUp(c, { name: 'Many' });
    // Attempts count whether they succeed or not; ones without an invite are quick to refuse.
    for (let i = 1; i < 100; i++) {
      const res = await c.post('/api/auth/register', {
        name: 'Many',
        email: uniqueEmail(),
        password: TEST_PASSWORD,
      });
      expect(res.status).toBe(403);
    }
    // Even a valid invite waits once the address has used its budget.
    const { code } = await createInvite(agent.url);
    const res = await c.post('/api/auth/register', {
      name: 'Many',
      email: uniqueEmail(),
      password: TEST_PASSWORD,
      inviteCode: code,
    });
    expectThrottled(res, 3600);
    await signUp(browserAt(), { name: 'Else', inviteCode: code });
  });
});

describe('behind a TLS-terminating proxy', () => {
  it('marks the session cookie Secure when the proxy says https', async () => {
    const c = new Client(agent.url, { 'x-forwarded-for': '10.200.0.1', 'x-forwarded-proto': 'https' });
    await signUp(c);
    const header = c.lastSetCookie.find((h) => h.startsWith('nexus_session='));
    expect(header).toMatch(/;\s*Secure/i);
    expect(header).toMatch(/;\s*HttpOnly/i);
    expect(header).toMatch(/;\s*SameSite=Lax/i);

    const plain = browserAt();
    await signUp(plain);
    expect(plain.lastSetCookie.find((h) => h.startsWith('nexus_session='))).not.toMatch(/;\s*Secure/i);
  });
});

describe('without a trusted proxy (the default)', () => {
  let direct: RunningAgent;
  beforeAll(async () => {
    direct = await startAgent();
  });
  afterAll(async () => {
    await direct?.stop();
  });

  it('ignores X-Forwarded-Proto and X-Forwarded-For, which any client can send', async () => {
    const c = new Client(direct.url, { 'x-forwarded-proto': 'https' });
    await signUp(c);
    expect(c.lastSetCookie.find((h) => h.startsWith('nexus_session='))).not.toMatch(/;\s*Secure/i);

    // Changing X-Forwarded-For on every request does not escape the per-address limit.
    for (let i = 0; i < 20; i++) {
      const res = await new Client(direct.url, { 'x-forwarded-for': `10.1.1.${i}` }).post('/api/auth/login', {
        email: uniqueEmail('spoof'),
        password: 'x',
      });
      expect(res.status).toBe(401);
    }
    const res = await new Client(direct.url, { 'x-forwarded-for': '10.1.1.99' }).post('/api/auth/login', {
      email: uniqueEmail('spoof'),
      password: 'x',
    });
    expect(res.status).toBe(429);
  });
});
