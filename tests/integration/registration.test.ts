import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  INVITE_EXPIRED_MESSAGE,
  INVITE_INVALID_MESSAGE,
  INVITE_REVOKED_MESSAGE,
  INVITE_USED_MESSAGE,
  LOCAL_ONLY_MESSAGE,
  REGISTRATION_CLOSED_MESSAGE,
  REGISTRATION_NEEDS_INVITE_MESSAGE,
  createdInviteSchema,
  inviteListSchema,
  registrationStatusSchema,
} from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { TEST_PASSWORD, signUp, uniqueEmail } from '../support/auth.js';
import { Client } from '../support/http.js';

/** Issue 14, "Open registration forever": registration modes, one-time invites, claiming a fresh hub. */

const stranger = (agent: RunningAgent, name = 'Stranger', inviteCode?: string) =>
  new Client(agent.url).post('/api/auth/register', {
    name,
    email: uniqueEmail('stranger'),
    password: TEST_PASSWORD,
    ...(inviteCode === undefined ? {} : { inviteCode }),
  });

describe('a hub in invite mode (the default)', () => {
  let agent: RunningAgent;
  let owner: Client;
  let member: Client;

  beforeAll(async () => {
    agent = await startAgent();
    owner = new Client(agent.url);
    member = new Client(agent.url);
    expect((await signUp(owner, { name: 'Olive Owner' })).role).toBe('superadmin');
    expect((await signUp(member, { name: 'Mo Member' })).role).toBe('user');
  });
  afterAll(() => agent.stop());

  const invite = async (body: object = { role: 'user', expiresInHours: 24 }) => {
    const res = await owner.post('/api/invites', body);
    expect(res.status, res.text).toBe(201);
    return createdInviteSchema.parse(res.json);
  };

  it('tells a signed-out visitor the mode', async () => {
    const res = await new Client(agent.url).get('/api/auth/registration');
    expect(res.status).toBe(200);
    expect(registrationStatusSchema.parse(res.json)).toEqual({ mode: 'invite', firstAccount: false });
  });

  it('refuses a stranger without an invite, or with a made-up one', async () => {
    const none = await stranger(agent);
    expect(none.status).toBe(403);
    expect(none.json.message).toBe(REGISTRATION_NEEDS_INVITE_MESSAGE);
    const empty = await stranger(agent, 'Empty', '  ');
    expect(empty.status).toBe(403);
    expect(empty.json.message).toBe(REGISTRATION_NEEDS_INVITE_MESSAGE);
    const wrong = await stranger(agent, 'Guesser', 'AAAAAAAAAAAAAAAAAAAAAA');
    expect(wrong.status).toBe(403);
    expect(wrong.json.message).toBe(INVITE_INVALID_MESSAGE);
  });

  it('does not tell a stranger without an invite which emails have accounts', async () => {
    const ownerEmail = (await owner.get('/api/auth/user')).json.email;
    const res = await new Client(agent.url).post('/api/auth/register', {
      name: 'Prober',
      email: ownerEmail,
      password: TEST_PASSWORD,
    });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(REGISTRATION_NEEDS_INVITE_MESSAGE);
  });

  it('registers once with an invite, with its link and role, and never again with the same code', async () => {
    const created = await invite({ role: 'user', expiresInHours: 24 });
    expect(created.url).toBe(`${agent.url}/auth?invite=${created.code}`);
    expect(created.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const expires = Date.parse(created.expiresAt) - Date.now();
    expect(expires).toBeGreaterThan(23.9 * 3600_000);
    expect(expires).toBeLessThanOrEqual(24 * 3600_000);

    const guest = new Client(agent.url);
    const first = await guest.post('/api/auth/register', {
      name: 'Invited Ivy',
      email: uniqueEmail('ivy'),
      password: TEST_PASSWORD,
      inviteCode: created.code,
    });
    expect(first.status, first.text).toBe(201);
    expect(first.json.user.role).toBe('user');
    expect((await guest.get('/api/auth/user')).json.name).toBe('Invited Ivy');

    const again = await stranger(agent, 'Second Go', created.code);
    expect(again.status).toBe(403);
    expect(again.json.message).toBe(INVITE_USED_MESSAGE);

    const list = inviteListSchema.parse((await owner.get('/api/invites')).json);
    const listed = list.invites.find((i) => i.id === created.id);
    expect(listed).toMatchObject({
      status: 'used',
      role: 'user',
      createdBy: { name: 'Olive Owner' },
      usedBy: { name: 'Invited Ivy' },
    });
    expect(JSON.stringify(list)).not.toContain(created.code);
  });

  it('gives the account the invite’s role: an admin invite makes an admin', async () => {
    const created = await invite({ role: 'admin', expiresInHours: 1 });
    const res = await stranger(agent, 'Invited Admin', created.code);
    expect(res.status, res.text).toBe(201);
    expect(res.json.user.role).toBe('admin');
  });

  it('does not consume an invite when the registration fails for another reason', async () => {
    const created = await invite();
    const taken = await new Client(agent.url).post('/api/auth/register', {
      name: 'Dup',
      email: (await owner.get('/api/auth/user')).json.email,
      password: TEST_PASSWORD,
      inviteCode: created.code,
    });
    expect(taken.status).toBe(409);
    expect((await stranger(agent, 'After Dup', created.code)).status).toBe(201);
  });

  it('refuses a revoked invite', async () => {
    const created = await invite();
    expect((await owner.delete(`/api/invites/${created.id}`)).status).toBe(200);
    const res = await stranger(agent, 'Too Late', created.code);
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(INVITE_REVOKED_MESSAGE);
    const listed = inviteListSchema.parse((await owner.get('/api/invites')).json).invites;
    expect(listed.find((i) => i.id === created.id)?.status).toBe('revoked');
    expect((await owner.delete('/api/invites/999999')).status).toBe(404);
  });

  it('refuses an expired invite', async () => {
    const created = await invite({ role: 'user', expiresInHours: 1 });
    // An hour is long for a test: the clock of this one invite is moved, as time would.
    const db = new Database(path.join(agent.dataDir, 'nexus.db'));
    db.prepare('UPDATE invites SET expires_at = ? WHERE id = ?').run(Date.now() - 1000, created.id);
    db.close();
    const res = await stranger(agent, 'Expired', created.code);
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(INVITE_EXPIRED_MESSAGE);
    const listed = inviteListSchema.parse((await owner.get('/api/invites')).json).invites;
    expect(listed.find((i) => i.id === created.id)?.status).toBe('expired');
  });

  it('lets exactly one of many concurrent registrations use one invite', async () => {
    const created = await invite();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => stranger(agent, `Racer ${i}`, created.code)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 403)).toHaveLength(7);
  });

  it('stores only a SHA-256 of the code', async () => {
    const created = await invite();
    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    const rows = db.prepare('SELECT * FROM invites').all() as Record<string, unknown>[];
    db.close();
    const hash = createHash('sha256').update(created.code).digest('hex');
    expect(rows.some((r) => r.code_hash === hash)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(created.code);
    for (const file of ['nexus.db', 'nexus.db-wal']) {
      const full = path.join(agent.dataDir, file);
      if (fs.existsSync(full)) expect(fs.readFileSync(full).includes(created.code)).toBe(false);
    }
    expect(agent.logs.join('\n')).not.toContain(created.code);
  });

  it('bounds an invite’s lifetime and its role', async () => {
    for (const body of [
      { role: 'user', expiresInHours: 0 },
      { role: 'user', expiresInHours: 721 },
      { role: 'user', expiresInHours: 1.5 },
      { role: 'superadmin', expiresInHours: 1 },
    ]) {
      const res = await owner.post('/api/invites', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('lets neither a member nor a signed-out visitor manage invites or the mode', async () => {
    const anon = new Client(agent.url);
    const created = await invite();
    for (const [client, status] of [
      [member, 403],
      [anon, 401],
    ] as const) {
      expect((await client.post('/api/invites', { role: 'user', expiresInHours: 1 })).status).toBe(status);
      expect((await client.post('/api/invites', { role: 'admin', expiresInHours: 1 })).status).toBe(status);
      expect((await client.get('/api/invites')).status).toBe(status);
      expect((await client.delete(`/api/invites/${created.id}`)).status).toBe(status);
      expect((await client.put('/api/auth/registration', { mode: 'open' })).status).toBe(status);
    }
    expect((await new Client(agent.url).get('/api/auth/registration')).json.mode).toBe('invite');
    // The invite the member tried to revoke still works.
    expect((await stranger(agent, 'Still Invited', created.code)).status).toBe(201);
  });

  it('closed refuses everyone, even with an invite; open lets anyone in as a member', async () => {
    const created = await invite();
    expect((await owner.put('/api/auth/registration', { mode: 'closed' })).json.mode).toBe('closed');
    const closed = await stranger(agent, 'Shut Out', created.code);
    expect(closed.status).toBe(403);
    expect(closed.json.message).toBe(REGISTRATION_CLOSED_MESSAGE);
    expect((await stranger(agent, 'Shut Out Too')).json.message).toBe(REGISTRATION_CLOSED_MESSAGE);

    expect((await owner.put('/api/auth/registration', { mode: 'open' })).status).toBe(200);
    const open = await stranger(agent, 'Walk In');
    expect(open.status, open.text).toBe(201);
    expect(open.json.user.role).toBe('user');
    expect((await owner.put('/api/auth/registration', { mode: 'invite' })).status).toBe(200);
    expect((await owner.put('/api/auth/registration', { mode: 'wide-open' })).status).toBe(400);
  });
});

describe('NEXUS_REGISTRATION', () => {
  const agents: RunningAgent[] = [];
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.stop()));
  });

  it('sets the first mode; once an admin chooses, the stored mode wins', async () => {
    const agent = await startAgent({ env: { NEXUS_REGISTRATION: 'open' } });
    agents.push(agent);
    const owner = new Client(agent.url);
    expect((await new Client(agent.url).get('/api/auth/registration')).json).toEqual({
      mode: 'open',
      firstAccount: true,
    });
    await signUp(owner, { name: 'Owner' });
    expect((await stranger(agent, 'Open Door')).status).toBe(201);
    expect((await owner.put('/api/auth/registration', { mode: 'closed' })).status).toBe(200);
    await agent.stop();

    const again = await startAgent({ dataDir: agent.dataDir, env: { NEXUS_REGISTRATION: 'open' } });
    agents.push(again);
    expect((await new Client(again.url).get('/api/auth/registration')).json.mode).toBe('closed');
    expect((await stranger(again, 'Door Shut')).status).toBe(403);
  });

  it('refuses a value it does not know', async () => {
    await expect(startAgent({ env: { NEXUS_REGISTRATION: 'sometimes' } })).rejects.toThrow(
      /NEXUS_REGISTRATION/,
    );
  });
});

describe('claiming a fresh hub', () => {
  const agents: RunningAgent[] = [];
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.stop()));
  });

  /** Behind a trusted proxy the client address is the proxy's X-Forwarded-For; nothing is dialled. */
  async function proxiedHub() {
    const agent = await startAgent({ env: { NEXUS_TRUST_PROXY: 'true' } });
    agents.push(agent);
    return agent;
  }
  const from = (agent: RunningAgent, address: string) =>
    new Client(agent.url, { 'x-forwarded-for': address });
  const owner = () => ({ name: 'Ada Owner', email: uniqueEmail('owner'), password: TEST_PASSWORD });

  it('refuses the first account, the setup and skipping it from a public address', async () => {
    const agent = await proxiedHub();
    const outsider = from(agent, '203.0.113.9');
    const register = await outsider.post('/api/auth/register', owner());
    expect(register.status).toBe(403);
    expect(register.json.message).toBe(LOCAL_ONLY_MESSAGE);
    const setup = await outsider.post('/api/setup', { hubName: 'Mine Now', owner: owner() });
    expect(setup.status).toBe(403);
    expect(setup.json.message).toBe(LOCAL_ONLY_MESSAGE);
    const skip = await outsider.post('/api/setup/skip');
    expect(skip.status).toBe(403);
    // The hub is still waiting for its owner.
    expect((await outsider.get('/api/setup/status')).json.needsSetup).toBe(true);
    expect((await outsider.get('/api/auth/registration')).json.firstAccount).toBe(true);
  });

  it('accepts the owner from the home network (a private address), exactly once', async () => {
    const agent = await proxiedHub();
    const home = from(agent, '192.168.1.23');
    const setup = await home.post('/api/setup', { hubName: 'Home Hub', owner: owner() });
    expect(setup.status, setup.text).toBe(201);
    expect(setup.json.user.role).toBe('superadmin');
    const again = await from(agent, '192.168.1.24').post('/api/setup', { hubName: 'Again', owner: owner() });
    expect(again.status).toBe(409);
    // After the owner exists, a registration from home is an ordinary one: it needs an invite.
    const later = await from(agent, '192.168.1.25').post('/api/auth/register', owner());
    expect(later.status).toBe(403);
    expect(later.json.message).toBe(REGISTRATION_NEEDS_INVITE_MESSAGE);
  });

  it('accepts the first account over Tailscale (CGNAT) through the Register tab', async () => {
    const agent = await proxiedHub();
    const res = await from(agent, '100.101.102.103').post('/api/auth/register', owner());
    expect(res.status, res.text).toBe(201);
    expect(res.json.user.role).toBe('superadmin');
  });
});
