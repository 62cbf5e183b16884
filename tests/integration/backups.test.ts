import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupListSchema, restoreAcceptedSchema } from '../../agent/src/contract/backups.js';
import { createEncryptStream } from '../../agent/src/features/backups/backup-format.js';
import { createSecretBox } from '../../agent/src/lib/secret-box.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { TEST_PASSWORD, rememberOwner, signUp } from '../support/auth.js';
import { Client } from '../support/http.js';

const PASS = 'correct horse battery backup';
const CLOUD_KEY = 'sk-test-backup-secret-0123456789';

const agents: RunningAgent[] = [];
afterAll(async () => {
  if (process.env.DEBUG_BACKUPS) for (const a of agents) console.log(a.logs.slice(-15).join('\n'));
  for (const a of agents) await a.stop();
});

async function start(opts: Parameters<typeof startAgent>[0] = {}) {
  const agent = await startAgent(opts);
  agents.push(agent);
  return agent;
}

function exitCode(agent: RunningAgent): Promise<number | null> {
  return new Promise((resolve) => {
    if (agent.process.exitCode !== null) return resolve(agent.process.exitCode);
    agent.process.once('exit', (code) => resolve(code));
  });
}

async function upload(
  client: Client | null,
  url: string,
  urlPath: string,
  file: Buffer,
  passphrase: string,
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  form.set('passphrase', passphrase);
  form.set('file', new Blob([new Uint8Array(file)]), 'backup.nexusbackup');
  const cookie = client?.cookie('nexus_session');
  const res = await fetch(url + urlPath, {
    method: 'POST',
    body: form,
    headers: { ...(cookie ? { cookie: `nexus_session=${cookie}` } : {}), ...headers },
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
}

/** Every file of the data directory but the live database (which a request may touch), with its hash. */
function hashDataDir(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const rel = prefix + e.name;
      if (/^nexus\.db(-wal|-shm)?$/.test(rel)) continue;
      if (e.isDirectory()) walk(path.join(d, e.name), `${rel}/`);
      else
        out[rel] = createHash('sha256')
          .update(fs.readFileSync(path.join(d, e.name)))
          .digest('hex');
    }
  };
  walk(dir, '');
  return out;
}

async function download(owner: Client, id: string): Promise<Buffer> {
  const res = await fetch(`${owner.baseUrl}/api/backups/${id}/download`, {
    headers: { cookie: `nexus_session=${owner.cookie('nexus_session')}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${id}.nexusbackup"`);
  return Buffer.from(await res.arrayBuffer());
}

describe('backups', () => {
  let agent: RunningAgent;
  let owner: Client;
  let member: Client;

  beforeAll(async () => {
    agent = await start();
    owner = new Client(agent.url);
    await signUp(owner);
    member = new Client(agent.url);
    await signUp(member, { role: 'user' });
  });

  it('is for admins: 401 signed out and 403 for a member on every route', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/backups'],
      ['POST', '/api/backups', { passphrase: PASS }],
      ['GET', '/api/backups/schedule'],
      ['PUT', '/api/backups/schedule', { enabled: false, hour: 3, keep: 7, directory: '/tmp' }],
      ['GET', '/api/backups/nexus-2026-01-01-0300-abcd/download'],
      ['DELETE', '/api/backups/nexus-2026-01-01-0300-abcd'],
      ['POST', '/api/backups/restore/confirm'],
      ['POST', '/api/backups/restore/revert'],
    ];
    const stranger = new Client(agent.url);
    for (const [method, url, body] of routes) {
      expect((await stranger.request(method, url, body)).status, `${method} ${url}`).toBe(401);
      expect((await member.request(method, url, body)).status, `${method} ${url}`).toBe(403);
    }
    expect((await upload(null, agent.url, '/api/backups/restore', Buffer.from('x'), PASS)).status).toBe(401);
    expect((await upload(member, agent.url, '/api/backups/restore', Buffer.from('x'), PASS)).status).toBe(
      403,
    );
  });

  it('creates, lists, downloads and deletes a backup; a short passphrase and a bad id are 400s', async () => {
    expect((await owner.post('/api/backups', { passphrase: 'short' })).status).toBe(400);
    const created = await owner.post('/api/backups', { passphrase: PASS });
    expect(created.status, created.text).toBe(201);
    expect(created.json.id).toMatch(/^nexus-\d{4}-\d{2}-\d{2}-\d{4}-[0-9a-f]{4}$/);
    const list = backupListSchema.parse((await owner.get('/api/backups')).json);
    expect(list.backups[0]).toMatchObject({
      id: created.json.id,
      trigger: 'manual',
      size: created.json.size,
    });
    expect(list.lastRun).toMatchObject({ ok: true, id: created.json.id, trigger: 'manual' });
    expect(list.pendingRestore).toBeNull();
    const file = path.join(agent.dataDir, 'backups', `${created.json.id}.nexusbackup`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await download(owner, created.json.id)).equals(fs.readFileSync(file))).toBe(true);
    // A download is a read, outside the audit scope: the route says who asked and from where.
    const downloaded = (await owner.get('/api/audit?type=backup_downloaded')).json.events;
    expect(downloaded).toEqual([
      expect.objectContaining({
        target: created.json.id,
        actor: expect.objectContaining({ email: expect.stringContaining('@') }),
        ipAddress: '127.0.0.1',
      }),
    ]);
    // A non-backup file in the folder is not listed; ids cannot name paths.
    fs.writeFileSync(path.join(agent.dataDir, 'backups', 'notes.nexusbackup'), 'not a backup');
    expect(backupListSchema.parse((await owner.get('/api/backups')).json).backups).toHaveLength(1);
    expect((await owner.get('/api/backups/..%2Fsecret.key/download')).status).toBe(400);
    expect((await owner.get('/api/backups/UPPER/download')).status).toBe(400);
    expect((await owner.delete(`/api/backups/${created.json.id}`)).status).toBe(204);
    expect(fs.existsSync(file)).toBe(false);
    expect((await owner.delete(`/api/backups/${created.json.id}`)).status).toBe(404);
    const onboarding = (await owner.get('/api/onboarding')).json;
    expect(onboarding.items.find((i: { id: string }) => i.id === 'backup')).toMatchObject({
      available: true,
      done: true,
    });
  });

  it('schedule: defaults, checks the folder, needs a passphrase to be enabled, never returns it', async () => {
    const view = (await owner.get('/api/backups/schedule')).json;
    expect(view).toEqual({
      enabled: true,
      hour: 3,
      keep: 7,
      directory: path.join(agent.dataDir, 'backups'),
      hasPassphrase: false,
    });
    const base = { enabled: true, hour: 4, keep: 3 };
    const relative = await owner.put('/api/backups/schedule', { ...base, directory: 'backups' });
    expect(relative.status).toBe(400);
    expect(relative.json.message).toMatch(/absolute/);
    const inside = await owner.put('/api/backups/schedule', {
      ...base,
      directory: path.join(agent.dataDir, 'flows'),
    });
    expect(inside.status).toBe(400);
    const file = path.join(agent.dataDir, 'secret.key');
    expect((await owner.put('/api/backups/schedule', { ...base, directory: file })).status).toBe(400);
    const noPass = await owner.put('/api/backups/schedule', { ...base, directory: os.tmpdir() });
    expect(noPass.status).toBe(400);
    expect(noPass.json.message).toMatch(/passphrase/);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-backup-dest-'));
    const ok = await owner.put('/api/backups/schedule', { ...base, directory: folder, passphrase: PASS });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toEqual({ ...base, directory: folder, hasPassphrase: true });
    expect(ok.text).not.toContain(PASS);
    expect((await owner.get('/api/backups')).text).not.toContain(PASS);
    // Back to the default folder for the tests below.
    const back = await owner.put('/api/backups/schedule', {
      ...base,
      directory: path.join(agent.dataDir, 'backups'),
    });
    expect(back.status).toBe(200);
    expect(back.json.hasPassphrase).toBe(true);
  });

  it('refuses a wrong passphrase, a cut or changed file, a non-backup and a newer backup; nothing changes', async () => {
    const created = await owner.post('/api/backups', { passphrase: PASS });
    const good = await download(owner, created.json.id);
    expect((await owner.post('/api/auth/reauth', { password: TEST_PASSWORD })).status).toBe(200);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 40]! ^= 0x80;
    const newer = await (async () => {
      const { stream } = await createEncryptStream(
        {
          createdAt: new Date().toISOString(),
          trigger: 'manual',
          hubName: 'future',
          appVersion: '99.0.0',
          schemaLevel: 999,
        },
        PASS,
        { N: 2 ** 10 },
      );
      const parts: Buffer[] = [];
      stream.on('data', (d: Buffer) => parts.push(d));
      await pipeline(Readable.from([Buffer.from('whatever')]), stream);
      return Buffer.concat(parts);
    })();
    const before = hashDataDir(agent.dataDir);
    const users = (await owner.get('/api/users')).json;
    const cases: [string, Buffer, string, RegExp][] = [
      ['wrong passphrase', good, 'not the right passphrase', /passphrase is wrong/],
      ['truncated', good.subarray(0, good.length - 100), PASS, /cut short/],
      ['flipped byte', flipped, PASS, /damaged/],
      [
        'not a backup',
        Buffer.from('PK\u0003\u0004 a zip file, not a backup at all'),
        PASS,
        /not a Nexus backup/,
      ],
      ['newer', newer, PASS, /made by version 99\.0\.0.*update this hub first/],
    ];
    for (const [name, bytes, passphrase, message] of cases) {
      const res = await upload(owner, agent.url, '/api/backups/restore', bytes, passphrase);
      expect(res.status, `${name}: ${res.text}`).toBe(400);
      expect(res.json.message, name).toMatch(message);
    }
    // A multipart body that ends inside the file part: the parser and the file's write both fail,
    // and the agent answers 400 instead of ending on the write's unhandled rejection.
    const boundary = 'nexus-cut-short';
    const cut = await fetch(`${agent.url}/api/backups/restore`, {
      method: 'POST',
      headers: {
        cookie: `nexus_session=${owner.cookie('nexus_session')}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body:
        `--${boundary}\r\nContent-Disposition: form-data; name="passphrase"\r\n\r\n${PASS}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.nexusbackup"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\nNEXUSBAK and then nothing',
    });
    expect(cut.status).toBe(400);
    expect((await cut.json()).message).toMatch(/cut short|malformed/);
    expect(hashDataDir(agent.dataDir)).toEqual(before);
    expect((await owner.get('/api/users')).json).toEqual(users);
    expect(agent.process.exitCode).toBeNull();

    // By hand: the CLI checks and unpacks the same file.
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-cli-'));
    fs.writeFileSync(path.join(work, 'b.nexusbackup'), good);
    const cli = path.resolve('agent/dist/cli.js');
    const env = { PATH: process.env.PATH, NODE_ENV: 'test', NEXUS_DATA_DIR: work };
    const wrongCli = spawnSync(
      process.execPath,
      [cli, 'backup:decrypt', path.join(work, 'b.nexusbackup'), path.join(work, 'x')],
      {
        env: { ...env, NEXUS_BACKUP_PASSPHRASE: 'the wrong passphrase' },
      },
    );
    expect(wrongCli.status).toBe(1);
    expect(wrongCli.stderr.toString()).toMatch(/passphrase is wrong/);
    const outDir = path.join(work, 'out');
    execFileSync(process.execPath, [cli, 'backup:decrypt', path.join(work, 'b.nexusbackup'), outDir], {
      env,
      input: `${PASS}\n`,
    });
    expect(fs.readFileSync(path.join(outDir, 'secret.key'))).toEqual(
      fs.readFileSync(path.join(agent.dataDir, 'secret.key')),
    );
    expect(fs.statSync(path.join(outDir, 'nexus.db')).mode & 0o777).toBe(0o600);
    fs.rmSync(work, { recursive: true, force: true });
  });
});

describe('restore round trip', () => {
  it('restores the old data and secrets, restarts, reverts, restores again and confirms', async () => {
    let agent = await start();
    const dataDir = agent.dataDir;
    let owner = new Client(agent.url);
    const account = await signUp(owner);
    const provider = await owner.post('/api/llm/providers', {
      kind: 'openai',
      name: 'cloud',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: CLOUD_KEY,
      priority: 50,
    });
    expect(provider.status, provider.text).toBe(201);
    const flow = await owner.post('/api/flows', {
      name: 'Before backup',
      trigger: { type: 'webhook' },
      stages: [],
    });
    expect(flow.status, flow.text).toBe(201);
    fs.mkdirSync(path.join(dataDir, 'wake-words'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'wake-words', 'sample-1.wav'), 'RIFF old sample');
    const created = await owner.post('/api/backups', { passphrase: PASS });
    expect(created.status, created.text).toBe(201);
    const file = await download(owner, created.json.id);

    // Change the data after the backup.
    expect((await owner.delete(`/api/flows/${flow.json.id}`)).status).toBe(204);
    await owner.post('/api/flows', { name: 'After backup', trigger: { type: 'webhook' }, stages: [] });
    fs.rmSync(path.join(dataDir, 'wake-words', 'sample-1.wav'));
    fs.writeFileSync(path.join(dataDir, 'wake-words', 'sample-2.wav'), 'RIFF new sample');

    const restore = async () => {
      expect((await owner.post('/api/auth/reauth', { password: account.password })).status).toBe(200);
      const exited = exitCode(agent);
      const res = await upload(owner, agent.url, '/api/backups/restore', file, PASS);
      expect(res.status, res.text).toBe(202);
      expect(restoreAcceptedSchema.parse(res.json)).toMatchObject({ restarting: true });
      expect(await exited).toBe(75);
      agent = await start({ dataDir });
      owner = new Client(agent.url);
      expect(
        (await owner.post('/api/auth/login', { email: account.email, password: account.password })).status,
      ).toBe(200);
    };
    const flowNames = async () =>
      ((await owner.get('/api/flows')).json as { name: string }[]).map((f) => f.name);

    await restore();
    expect(await flowNames()).toEqual(['Before backup']);
    expect(fs.readFileSync(path.join(dataDir, 'wake-words', 'sample-1.wav'), 'utf8')).toBe('RIFF old sample');
    expect(fs.existsSync(path.join(dataDir, 'wake-words', 'sample-2.wav'))).toBe(false);
    expect(fs.statSync(path.join(dataDir, 'wake-words')).mode & 0o777).toBe(0o700);
    // The sealed API key opens with the restored secret.key.
    const key = Buffer.from(fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8').trim(), 'base64');
    const sqlite = new Database(path.join(dataDir, 'nexus.db'), { readonly: true });
    const row = sqlite
      .prepare("SELECT api_key_sealed AS k FROM llm_providers WHERE name = 'cloud'")
      .get() as { k: string };
    sqlite.close();
    expect(createSecretBox(key).open(row.k)).toBe(CLOUD_KEY);
    let list = backupListSchema.parse((await owner.get('/api/backups')).json);
    expect(list.pendingRestore).toMatchObject({ backupCreatedAt: created.json.createdAt });
    expect(list.backups.some((b) => b.id === created.json.id)).toBe(true);

    // Revert: the data from before the restore comes back.
    expect((await owner.post('/api/auth/reauth', { password: account.password })).status).toBe(200);
    const exited = exitCode(agent);
    expect((await owner.post('/api/backups/restore/revert')).status).toBe(202);
    expect(await exited).toBe(75);
    agent = await start({ dataDir });
    owner = new Client(agent.url);
    expect(
      (await owner.post('/api/auth/login', { email: account.email, password: account.password })).status,
    ).toBe(200);
    expect(await flowNames()).toEqual(['After backup']);
    const reverted = (await owner.get('/api/audit?type=restore_reverted')).json;
    expect(reverted.events).toHaveLength(1);
    expect(fs.existsSync(path.join(dataDir, 'wake-words', 'sample-2.wav'))).toBe(true);
    expect(backupListSchema.parse((await owner.get('/api/backups')).json).pendingRestore).toBeNull();

    // Restore again, then confirm: the replaced data is gone for good.
    await restore();
    expect(await flowNames()).toEqual(['Before backup']);
    expect(fs.existsSync(path.join(dataDir, '.restore', 'previous'))).toBe(true);
    expect((await owner.post('/api/backups/restore/confirm')).status).toBe(200);
    expect(fs.existsSync(path.join(dataDir, '.restore', 'previous'))).toBe(false);
    list = backupListSchema.parse((await owner.get('/api/backups')).json);
    expect(list.pendingRestore).toBeNull();
    expect((await owner.post('/api/backups/restore/confirm')).status).toBe(409);
    const audit = (
      await owner.get('/api/audit?type=backup_restored,restore_reverted,restore_confirmed,backup_created')
    ).json;
    const types = (audit.events as { type: string }[]).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['restore_confirmed', 'backup_restored']));

    // A damaged database stops the start and names the newest backup; it is never recreated.
    await agent.stop();
    const db = path.join(dataDir, 'nexus.db');
    const bytes = fs.readFileSync(db);
    bytes.fill(0x41, 4096, 8192);
    fs.writeFileSync(db, bytes);
    for (const suffix of ['-wal', '-shm']) fs.rmSync(db + suffix, { force: true });
    const failed = await startAgent({ dataDir }).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(failed).toMatch(/exited with 1/);
    expect(failed).toMatch(/damaged/);
    expect(failed).toContain(path.join(dataDir, 'backups', `${created.json.id}.nexusbackup`));
    expect(failed).toMatch(/backup:decrypt/);
    expect(fs.readFileSync(db).equals(bytes)).toBe(true);
  });
});

describe('first-boot restore', () => {
  it('restores onto a fresh hub from the home network only, and not once the hub has an account', async () => {
    const source = await start();
    const owner = new Client(source.url);
    const account = await signUp(owner);
    const created = await owner.post('/api/backups', { passphrase: PASS });
    const file = await download(owner, created.json.id);

    const fresh = await start({ env: { NEXUS_TRUST_PROXY: 'true' } });
    const stranger = await upload(null, fresh.url, '/api/setup/restore', file, PASS, {
      'x-forwarded-for': '203.0.113.9',
    });
    expect(stranger.status).toBe(403);
    const wrong = await upload(null, fresh.url, '/api/setup/restore', file, 'the wrong passphrase');
    expect(wrong.status).toBe(400);
    const exited = exitCode(fresh);
    const res = await upload(null, fresh.url, '/api/setup/restore', file, PASS);
    expect(res.status, res.text).toBe(202);
    expect(await exited).toBe(75);
    const again = await start({ dataDir: fresh.dataDir, env: { NEXUS_TRUST_PROXY: 'true' } });
    const client = new Client(again.url);
    rememberOwner(again.url, account);
    expect(
      (await client.post('/api/auth/login', { email: account.email, password: account.password })).status,
    ).toBe(200);
    // Set up now: the wizard's restore is closed.
    const setUp = await upload(null, again.url, '/api/setup/restore', file, PASS);
    expect(setUp.status).toBe(409);
  });
});
