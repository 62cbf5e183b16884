import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { startHomeAssistantSim, type HomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { waitFor } from '../support/wait-for.js';

const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

let agent: RunningAgent;
let sim: HomeAssistantSim;
let owner: Client;
let alice: Client;
let aliceAccount: { id: number; email: string };
let bob: Client;

beforeAll(async () => {
  sim = await startHomeAssistantSim();
  // Ollama on a loopback port nothing listens on: no model, answered at once.
  agent = await startAgent({ env: { OLLAMA_URL: 'http://127.0.0.1:9' } });
  owner = new Client(agent.url);
  await signUp(owner, { name: 'Owner' });
  alice = new Client(agent.url);
  aliceAccount = await signUp(alice, { name: 'Alice' });
  bob = new Client(agent.url);
  await signUp(bob, { name: 'Bob' });
});

afterAll(async () => {
  await agent?.stop();
  await sim?.stop();
});

const tokenOf = (url: string) => new URL(url).hash.slice(1);

async function makePairing(c: Client, name = 'Kitchen phone') {
  const res = await c.post('/api/auth/phones/pairings', { name });
  expect(res.status, res.text).toBe(201);
  return res.json as { id: number; name: string; url: string; expiresAt: string };
}

/** A fresh phone (no cookies) that opens the link. */
async function pairPhone(token: string) {
  const phone = new Client(agent.url, { 'user-agent': PHONE_UA });
  const res = await phone.post('/api/auth/phones/pair', { token });
  return { phone, res };
}

function withDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(path.join(agent.dataDir, 'nexus.db'));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

describe('pairing a phone', () => {
  it('needs a signed-in user to make a link', async () => {
    expect((await new Client(agent.url).post('/api/auth/phones/pairings', { name: 'X' })).status).toBe(401);
    expect((await alice.post('/api/auth/phones/pairings', { name: '' })).status).toBe(400);
  });

  it('gives a one-time link with a 256-bit token in its fragment, stored hashed, expiring in 10 minutes', async () => {
    const before = Date.now();
    const pairing = await makePairing(alice);
    const url = new URL(pairing.url);
    expect(url.origin).toBe(agent.url);
    expect(url.pathname).toBe('/pair');
    expect(url.search).toBe('');
    const token = tokenOf(pairing.url);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const expires = Date.parse(pairing.expiresAt) - before;
    expect(expires).toBeGreaterThan(9 * 60_000);
    expect(expires).toBeLessThanOrEqual(10 * 60_000 + 1000);
    const stored = withDb((db) =>
      db.prepare('select token_hash from phone_pairings where id = ?').get(pairing.id),
    ) as { token_hash: string };
    expect(stored.token_hash).not.toContain(token);
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs a fresh client in once, as a named phone session of the user who made the link', async () => {
    const pairing = await makePairing(alice, 'Alice’s Pixel');
    const waiting = await alice.get(`/api/auth/phones/pairings/${pairing.id}`);
    expect(waiting.json).toMatchObject({ status: 'waiting', pairedAt: null });

    const { phone, res } = await pairPhone(tokenOf(pairing.url));
    expect(res.status, res.text).toBe(200);
    // The cookie is set as sign-in sets it: HttpOnly, SameSite=Lax, kept 30 days.
    const cookie = phone.lastSetCookie.find((c) => c.startsWith('nexus_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=2592000/i);
    const me = await phone.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ id: aliceAccount.id, email: aliceAccount.email });

    const paired = await alice.get(`/api/auth/phones/pairings/${pairing.id}`);
    expect(paired.json).toMatchObject({ status: 'paired', pairedAt: expect.any(String) });

    const list = await alice.get('/api/auth/phones');
    expect(list.status).toBe(200);
    const entry = list.json.phones.find((p: { name: string }) => p.name === 'Alice’s Pixel');
    expect(entry).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]+$/), device: 'Safari on iOS' });
    const row = withDb((db) =>
      db.prepare('select kind, device_name, persistent from sessions where public_id = ?').get(entry.id),
    );
    expect(row).toEqual({ kind: 'phone', device_name: 'Alice’s Pixel', persistent: 1 });

    // Single use: a second phone with the same link gets nothing.
    const again = await pairPhone(tokenOf(pairing.url));
    expect(again.res.status).toBe(404);
    expect(again.res.json.message).toMatch(/expired or was already used/);
    expect(again.phone.cookie('nexus_session')).toBeUndefined();

    const audit = withDb((db) =>
      db.prepare("select actor_user_id, target from audit_events where type = 'phone_paired'").all(),
    );
    expect(audit).toContainEqual({ actor_user_id: aliceAccount.id, target: 'Alice’s Pixel' });
  });

  it('refuses an expired link and an unknown token', async () => {
    const pairing = await makePairing(alice);
    withDb((db) =>
      db.prepare('update phone_pairings set expires_at = ? where id = ?').run(Date.now() - 1, pairing.id),
    );
    const expired = await pairPhone(tokenOf(pairing.url));
    expect(expired.res.status).toBe(404);
    expect(expired.phone.cookie('nexus_session')).toBeUndefined();
    expect((await alice.get(`/api/auth/phones/pairings/${pairing.id}`)).json.status).toBe('expired');

    const unknown = await pairPhone('A'.repeat(43));
    expect(unknown.res.status).toBe(404);
    expect((await pairPhone('').then((r) => r.res)).status).toBe(400);
  });

  it('refuses a link made by an account that was disabled since', async () => {
    const carol = new Client(agent.url);
    const account = await signUp(carol, { name: 'Carol' });
    const pairing = await makePairing(carol);
    withDb((db) => db.prepare('update users set disabled_at = ? where id = ?').run(Date.now(), account.id));
    const { res, phone } = await pairPhone(tokenOf(pairing.url));
    expect(res.status).toBe(403);
    expect(phone.cookie('nexus_session')).toBeUndefined();
  });

  it('switches a browser that was signed in as someone else, ending its old session', async () => {
    const pairing = await makePairing(alice, 'Shared tablet');
    const tablet = new Client(agent.url);
    await signUp(tablet, { name: 'Dave' });
    const old = tablet.cookie('nexus_session')!;
    expect((await tablet.post('/api/auth/phones/pair', { token: tokenOf(pairing.url) })).status).toBe(200);
    expect((await tablet.get('/api/auth/user')).json.id).toBe(aliceAccount.id);
    const stale = new Client(agent.url, { cookie: `nexus_session=${old}` });
    expect((await stale.get('/api/auth/user')).status).toBe(401);
  });

  it('never writes the token to the log', async () => {
    const pairing = await makePairing(alice, 'Log check');
    const token = tokenOf(pairing.url);
    expect((await pairPhone(token)).res.status).toBe(200);
    expect((await pairPhone(token)).res.status).toBe(404);
    await waitFor(
      () => agent.logs.join('\n'),
      (logs) => logs.includes('phone paired'),
      { what: 'the pairing log line' },
    );
    expect(agent.logs.join('\n')).not.toContain(token);
  });
});

describe('paired phones', () => {
  it('a member cannot see, poll or revoke another user’s phones', async () => {
    const pairing = await makePairing(alice, 'Not Bob’s');
    const { phone } = await pairPhone(tokenOf(pairing.url));
    const alicePhones = (await alice.get('/api/auth/phones')).json.phones as { id: string; name: string }[];
    const target = alicePhones.find((p) => p.name === 'Not Bob’s')!;

    expect((await bob.get('/api/auth/phones')).json.phones).toEqual([]);
    expect((await bob.get(`/api/auth/phones/pairings/${pairing.id}`)).status).toBe(404);
    expect((await bob.delete(`/api/auth/phones/${target.id}`)).status).toBe(404);
    // Admins do not revoke members' phones here either (the sessions screen is for that).
    expect((await owner.delete(`/api/auth/phones/${target.id}`)).status).toBe(404);
    expect((await phone.get('/api/auth/user')).status).toBe(200);
    expect((await new Client(agent.url).delete(`/api/auth/phones/${target.id}`)).status).toBe(401);
  });

  it('revoking ends the phone’s session on its next request', async () => {
    const pairing = await makePairing(alice, 'To revoke');
    const { phone } = await pairPhone(tokenOf(pairing.url));
    expect((await phone.get('/api/auth/user')).status).toBe(200);
    const target = ((await alice.get('/api/auth/phones')).json.phones as { id: string; name: string }[]).find(
      (p) => p.name === 'To revoke',
    )!;
    const res = await alice.delete(`/api/auth/phones/${target.id}`);
    expect(res.status, res.text).toBe(200);
    expect((await phone.get('/api/auth/user')).status).toBe(401);
    expect((await alice.get('/api/auth/phones')).json.phones.map((p: { id: string }) => p.id)).not.toContain(
      target.id,
    );
    expect((await alice.delete(`/api/auth/phones/${target.id}`)).status).toBe(404);
    // Alice's own browser session is untouched.
    expect((await alice.get('/api/auth/user')).status).toBe(200);
  });

  it('throttles an address that keeps presenting bad tokens', async () => {
    // 20 failures per 15 minutes; earlier tests of this file spent a few of them.
    let status = 0;
    for (let i = 0; i < 25 && status !== 429; i++) {
      status = (await pairPhone(`bad-${i}`.padEnd(43, 'x'))).res.status;
    }
    expect(status).toBe(429);
  });
});

describe('GET /api/onboarding', () => {
  const item = async (c: Client, id: string) => {
    const res = await c.get('/api/onboarding');
    expect(res.status, res.text).toBe(200);
    return (res.json.items as { id: string; done: boolean; detail: string }[]).find((i) => i.id === id)!;
  };

  it('needs a signed-in user', async () => {
    expect((await new Client(agent.url).get('/api/onboarding')).status).toBe(401);
  });

  it('lists every step with a link, backups among them', async () => {
    const res = await bob.get('/api/onboarding');
    expect(res.json.items.map((i: { id: string }) => i.id)).toEqual([
      'home-assistant',
      'model',
      'satellite',
      'wake-word',
      'flow',
      'second-factor',
      'backup',
    ]);
    for (const i of res.json.items) expect(i.href).toMatch(/^\//);
    expect(res.json.items.at(-1)).toMatchObject({
      available: true,
      done: false,
      detail: 'No backup of the hub yet',
      href: '/nexus-management#backups',
    });
    expect(res.json.total).toBe(7);
    expect(await item(bob, 'model')).toMatchObject({ done: false });
  });

  it('follows Home Assistant being connected', async () => {
    expect(await item(owner, 'home-assistant')).toMatchObject({ done: false, detail: 'Not set up yet' });
    const put = await owner.put('/api/settings/home-assistant', { url: sim.url, token: sim.token });
    expect(put.status, put.text).toBe(200);
    await waitFor(
      () => item(owner, 'home-assistant'),
      (i) => i.done,
      { what: 'the Home Assistant step done' },
    );
  });

  it('follows the viewer’s flows', async () => {
    expect((await item(bob, 'flow')).done).toBe(false);
    const created = await bob.post('/api/flows', {
      name: 'Bob’s hook',
      trigger: { type: 'webhook' },
      stages: [{ id: 'tell', name: 'Tell', kind: 'notify', config: { title: 'Hi', body: 'Hello' } }],
    });
    expect(created.status, created.text).toBe(201);
    expect(await item(bob, 'flow')).toMatchObject({ done: true, detail: '1 flow' });
    // Another member's flows are not this member's progress.
    expect((await item(alice, 'flow')).done).toBe(false);
  });

  it('follows 2FA being on for the viewer', async () => {
    expect((await item(alice, 'second-factor')).done).toBe(false);
    withDb((db) => db.prepare('update users set totp_enabled = 1 where id = ?').run(aliceAccount.id));
    expect(await item(alice, 'second-factor')).toMatchObject({ done: true, detail: '2FA is on' });
  });
});
