import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { TEST_PASSWORD, signUp, uniqueEmail } from '../support/auth.js';
import { Client } from '../support/http.js';
import { totpAt } from '../support/totp.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const PUBLIC_USER_KEYS = ['createdAt', 'disabled', 'email', 'id', 'name', 'role', 'twoFactorEnabled'];

let agent: RunningAgent;
/** The first account: superadmin. */
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

const client = () => new Client(agent.url);
const patch = (c: Client, id: number | string, body: unknown) => c.request('PATCH', `/api/users/${id}`, body);

/** Signs up a user, and makes it the given role through the owner. */
async function member(role: 'user' | 'admin' | 'superadmin' = 'user') {
  const c = client();
  const account = await signUp(c);
  if (role !== 'user') expect((await patch(owner, account.id, { role })).status).toBe(200);
  return { ...account, client: c };
}

describe('the user list', () => {
  it('is for admins and superadmins: 401 signed out, 403 for a user', async () => {
    expect((await client().get('/api/users')).status).toBe(401);
    const { client: user } = await member('user');
    const res = await user.get('/api/users');
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ message: expect.any(String) });

    const { client: admin } = await member('admin');
    expect((await admin.get('/api/users')).status).toBe(200);
    const list = await owner.get('/api/users');
    expect(list.status).toBe(200);
    expect(list.json.users.length).toBeGreaterThanOrEqual(3);
    for (const u of list.json.users) expect(Object.keys(u).sort()).toEqual(PUBLIC_USER_KEYS);
    expect(list.json.users[0]).toMatchObject({ id: ownerId, role: 'superadmin' });
  });
});

describe('changing roles', () => {
  it('takes effect at once, on the sessions the account already has', async () => {
    const { id, client: c } = await member('user');
    expect((await c.get('/api/users')).status).toBe(403);
    const promoted = await patch(owner, id, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.json.user).toMatchObject({ id, role: 'admin' });
    expect((await c.get('/api/auth/user')).json.role).toBe('admin');
    expect((await c.get('/api/users')).status).toBe(200);
    expect((await patch(owner, id, { role: 'user' })).status).toBe(200);
    expect((await c.get('/api/users')).status).toBe(403);
  });

  it('lets an admin move accounts between user and admin, but not touch superadmin', async () => {
    const { client: admin } = await member('admin');
    const target = await member('user');
    expect((await patch(admin, target.id, { role: 'admin' })).status).toBe(200);
    expect((await patch(admin, target.id, { role: 'user' })).status).toBe(200);
    const grant = await patch(admin, target.id, { role: 'superadmin' });
    expect(grant.status).toBe(403);
    expect(grant.json.message).toMatch(/superadmin/);
    expect((await patch(admin, ownerId, { role: 'user' })).status).toBe(403);
    expect((await owner.get('/api/auth/user')).json.role).toBe('superadmin');
  });

  it('is refused to a plain user (403) and to nobody signed in (401)', async () => {
    const { client: user, id } = await member('user');
    expect((await patch(user, id, { role: 'admin' })).status).toBe(403);
    expect((await patch(client(), id, { role: 'admin' })).status).toBe(401);
    expect((await user.get('/api/auth/user')).json.role).toBe('user');
  });

  it('never leaves the hub without a superadmin', async () => {
    const last = await patch(owner, ownerId, { role: 'admin' });
    expect(last.status).toBe(409);
    expect(last.json.message).toMatch(/last superadmin/i);

    const second = await member('superadmin');
    expect((await second.client.get('/api/auth/user')).json.role).toBe('superadmin');
    // With two, one may step down; then the other is the last again.
    expect((await patch(second.client, second.id, { role: 'user' })).status).toBe(200);
    expect((await patch(owner, ownerId, { role: 'user' })).status).toBe(409);
  });

  it('validates the id and the body (400) and answers 404 for no such user', async () => {
    const { id } = await member('user');
    for (const body of [{}, { role: 'king' }, { role: 1 }, { role: null }, [], 'admin']) {
      const res = await patch(owner, id, JSON.stringify(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      expect((await patch(owner, bad, { role: 'admin' })).status, bad).toBe(400);
    }
    expect((await patch(owner, 999_999, { role: 'admin' })).status).toBe(404);
  });
});

describe('deleting accounts', () => {
  it('removes the account and its sessions; the email can register again', async () => {
    const target = await member('user');
    const res = await owner.delete(`/api/users/${target.id}`);
    expect(res.status).toBe(200);
    expect((await target.client.get('/api/auth/user')).status).toBe(401);
    expect(
      (await client().post('/api/auth/login', { email: target.email, password: TEST_PASSWORD })).status,
    ).toBe(401);
    const again = await signUp(client(), { name: 'Back', email: target.email });
    expect(again.role).toBe('user');
  });

  it('refuses deleting yourself, a superadmin as an admin, and what is not there', async () => {
    const self = await owner.delete(`/api/users/${ownerId}`);
    expect(self.status).toBe(409);
    const { client: admin } = await member('admin');
    expect((await admin.delete(`/api/users/${ownerId}`)).status).toBe(403);
    expect((await owner.delete('/api/users/999999')).status).toBe(404);
    expect((await owner.delete('/api/users/abc')).status).toBe(400);
    const { client: user, id } = await member('user');
    expect((await user.delete(`/api/users/${id}`)).status).toBe(403);
    expect((await client().delete(`/api/users/${id}`)).status).toBe(401);
  });
});

/** Runs the owner's command line against this agent's data directory. */
function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, 'agent/dist/cli.js'), ...args],
      { cwd: repoRoot, env: { PATH: process.env.PATH, NEXUS_DATA_DIR: agent.dataDir } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('the command line (npm run cli -- …)', () => {
  it('resets a forgotten password to a generated one, printed once, and signs the account out', async () => {
    const { email, client: c } = await member('user');
    const res = await cli('users:reset-password', '--email', email.toUpperCase());
    expect(res.code, res.stderr).toBe(0);
    const generated = /New password \(shown once\): (\S+)/.exec(res.stdout)?.[1];
    expect(generated).toBeDefined();
    expect(generated!.length).toBeGreaterThanOrEqual(20);
    expect((await c.get('/api/auth/user')).status).toBe(401);
    expect((await client().post('/api/auth/login', { email, password: TEST_PASSWORD })).status).toBe(401);
    expect((await client().post('/api/auth/login', { email, password: generated })).status).toBe(200);
    expect(agent.logs.join('\n')).not.toContain(generated);
  });

  it('sets a chosen password with --password', async () => {
    const { email } = await member('user');
    const res = await cli('users:reset-password', '--email', email, '--password', 'chosen password 7');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).not.toContain('chosen password 7');
    expect((await client().post('/api/auth/login', { email, password: 'chosen password 7' })).status).toBe(
      200,
    );
    const short = await cli('users:reset-password', '--email', email, '--password', 'short');
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/8 to 256 characters/);
  });

  it('sets roles, effective at once for the running agent', async () => {
    const { email, client: c } = await member('user');
    const res = await cli('users:set-role', '--email', email, '--role', 'admin');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`${email} is now admin`);
    expect((await c.get('/api/users')).status).toBe(200);

    const bad = await cli('users:set-role', '--email', email, '--role', 'king');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--role must be one of: user, admin, superadmin/);

    const owners = await cli('users:list');
    const ownerEmail = owners.stdout.split('\n')[0]!.trim().split(/\s+/)[3]!;
    const lastSuperadmin = await cli('users:set-role', '--email', ownerEmail, '--role', 'user');
    expect(lastSuperadmin.code).toBe(1);
    expect(lastSuperadmin.stderr).toMatch(/last superadmin/);
  });

  it('turns off 2FA for an owner who lost the phone', async () => {
    const { email, client: c } = await member('user');
    const setup = await c.post('/api/auth/2fa/setup');
    expect((await c.post('/api/auth/2fa/enable', { code: totpAt(setup.json.secret) })).status).toBe(200);
    expect(
      (await client().post('/api/auth/login', { email, password: TEST_PASSWORD })).json.message,
    ).toContain('2FA code required');
    const res = await cli('users:disable-2fa', '--email', email);
    expect(res.code, res.stderr).toBe(0);
    expect((await client().post('/api/auth/login', { email, password: TEST_PASSWORD })).status).toBe(200);
  });

  it('lists accounts with their roles', async () => {
    const res = await cli('users:list');
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^\s*1\s+superadmin\s+-\s+\S+@example\.com\s+\(Owner\)$/);
  });

  it('fails clearly: unknown email exit 1, a wrong command line exit 2', async () => {
    const unknown = await cli('users:reset-password', '--email', uniqueEmail('nobody'));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No account with the email/);
    for (const args of [[], ['users:frobnicate'], ['users:reset-password'], ['users:list', '--bogus']]) {
      const res = await cli(...args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toContain('Usage: npm run cli -- <command>');
    }
    const help = await cli('help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('users:reset-password');
  });
});
