import { execFile } from 'node:child_process';
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { mountTmpfs, tmpfsUnavailable, type Tmpfs } from '../support/tmpfs.js';
import { silentWav } from '../support/wav.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The owner's command line (npm run cli -- …) on a data directory. */
function cli(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, 'agent/dist/cli.js'), ...args],
      { cwd: repoRoot, env: { PATH: process.env.PATH, NEXUS_DATA_DIR: dataDir } },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

const mode = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

/** Starts an agent that is expected not to start: its exit message (stderr and log). */
async function failedStart(dataDir: string): Promise<string> {
  const error = await startAgent({ dataDir }).then(
    async (agent) => {
      await agent.stop();
      throw new Error('the agent started');
    },
    (e: Error) => e,
  );
  return error.message;
}

const aFlow = {
  name: 'Has a webhook secret',
  trigger: { type: 'webhook' },
  stages: [{ id: 'tell', name: 'Tell', kind: 'notify', config: { title: 'hi' } }],
};

/** A stopped hub with a sealed secret in its database: every flow has a sealed webhook secret. */
async function hubWithSealedSecret(prefix: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const agent = await startAgent({ dataDir });
  const client = new Client(agent.url);
  const account = await signUp(client);
  const flow = await client.post('/api/flows', aFlow);
  expect(flow.status).toBe(201);
  await agent.stop();
  return { dataDir, account, flow: flow.json };
}

describe('the data directory', () => {
  it('is the agent’s alone: the directory 0700, the database, its WAL files and secret.key 0600', async () => {
    // A directory that does not exist yet: the agent creates it, whatever the umask (022 here).
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-modes-')), 'data');
    let agent = await startAgent({ dataDir });
    const client = new Client(agent.url);
    await signUp(client);
    // A voice run keeps its clip under flows/clips.
    const flow = await client.post('/api/flows', aFlow);
    const run = await fetch(`${agent.url}/api/flows/${flow.json.id}/run`, {
      method: 'POST',
      headers: { 'content-type': 'audio/wav', cookie: `nexus_session=${client.cookie('nexus_session')}` },
      body: new Uint8Array(silentWav()),
    });
    expect(run.status, await run.text()).toBe(202);
    expect(mode(dataDir)).toBe('700');
    for (const file of ['nexus.db', 'nexus.db-wal', 'nexus.db-shm', 'secret.key'])
      expect([file, mode(path.join(dataDir, file))]).toEqual([file, '600']);
    for (const dir of ['flows', 'flows/clips'])
      expect([dir, mode(path.join(dataDir, dir))]).toEqual([dir, '700']);
    const clips = fs.readdirSync(path.join(dataDir, 'flows/clips'));
    expect(clips.length).toBeGreaterThan(0);
    for (const clip of clips)
      expect([clip, mode(path.join(dataDir, 'flows/clips', clip))]).toEqual([clip, '600']);
    await agent.stop();

    // Files left world-readable by an older version or a restore (cp) are made private on start.
    fs.chmodSync(dataDir, 0o755);
    const files = ['nexus.db', 'nexus.db-wal', 'nexus.db-shm', 'secret.key'].filter((f) =>
      fs.existsSync(path.join(dataDir, f)),
    );
    for (const file of files) fs.chmodSync(path.join(dataDir, file), 0o644);
    fs.chmodSync(path.join(dataDir, 'flows/clips'), 0o755);
    agent = await startAgent({ dataDir });
    expect(mode(dataDir)).toBe('700');
    for (const file of files) expect([file, mode(path.join(dataDir, file))]).toEqual([file, '600']);
    expect(mode(path.join(dataDir, 'flows/clips'))).toBe('700');
    await agent.stop();
  }, 60_000);

  it('refuses to start without the secret.key that sealed its secrets, and does not make a new one', async () => {
    const { dataDir } = await hubWithSealedSecret('nexus-key-');
    const keyFile = path.join(dataDir, 'secret.key');
    const key = fs.readFileSync(keyFile);

    fs.rmSync(keyFile);
    const missing = await failedStart(dataDir);
    expect(missing).toMatch(/exited with 1 before listening/);
    expect(missing).toContain(`${keyFile} is missing`);
    expect(missing).toContain('Restore secret.key from the backup of NEXUS_DATA_DIR');
    expect(missing).toContain('npm run cli -- secrets:reset');
    expect(missing).not.toMatch(/^\s+at /m);
    expect(fs.existsSync(keyFile)).toBe(false);

    // Another key (a backup of another hub) would not open them either.
    fs.writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    expect(await failedStart(dataDir)).toContain('is not the key this database');

    // The right key restored: the agent starts and its secrets open again.
    fs.writeFileSync(keyFile, key, { mode: 0o644 });
    const restored = await startAgent({ dataDir });
    expect(mode(keyFile)).toBe('600');
    await restored.stop();
  }, 60_000);

  it('stops the start on an unreadable or damaged secret.key with what to do, and leaves the key as it was', async () => {
    const { dataDir } = await hubWithSealedSecret('nexus-badkey-');
    const keyFile = path.join(dataDir, 'secret.key');
    const key = fs.readFileSync(keyFile);

    // A directory in its place (tests run as root, so mode 000 would not stop the read): EISDIR.
    fs.rmSync(keyFile);
    fs.mkdirSync(keyFile);
    const unreadable = await failedStart(dataDir);
    expect(unreadable).toContain(`${keyFile} cannot be read (EISDIR)`);
    expect(unreadable).toContain('Restore secret.key from the backup of NEXUS_DATA_DIR');
    expect(unreadable).not.toMatch(/^\s+at /m);
    expect(fs.statSync(keyFile).isDirectory()).toBe(true);
    expect(fs.readdirSync(keyFile)).toEqual([]);
    fs.rmdirSync(keyFile);

    // Garbage of the wrong length: the same refusal, and the file is not rewritten.
    const garbage = Buffer.from('not a key at all\n');
    fs.writeFileSync(keyFile, garbage, { mode: 0o600 });
    const damaged = await failedStart(dataDir);
    expect(damaged).toContain(`${keyFile} does not hold a 32-byte key`);
    expect(damaged).not.toMatch(/^\s+at /m);
    expect(fs.readFileSync(keyFile)).toEqual(garbage);

    // The right key back: the agent starts as before.
    fs.writeFileSync(keyFile, key, { mode: 0o600 });
    const restored = await startAgent({ dataDir });
    await restored.stop();
    expect(fs.readFileSync(keyFile)).toEqual(key);
  }, 60_000);

  it('refuses to start without secret.key on a database from before key ids were recorded, when it holds sealed secrets', async () => {
    const { dataDir } = await hubWithSealedSecret('nexus-oldkey-');
    // What an older version left: sealed secrets, but no record of the key that sealed them.
    const db = new Database(path.join(dataDir, 'nexus.db'));
    db.prepare("DELETE FROM settings WHERE key = 'secret-box.key-id'").run();
    db.close();
    const keyFile = path.join(dataDir, 'secret.key');
    fs.rmSync(keyFile);

    const missing = await failedStart(dataDir);
    expect(missing).toContain(`${keyFile} is missing, and the database holds secrets sealed with it`);
    expect(missing).toContain('npm run cli -- secrets:reset');
    expect(fs.existsSync(keyFile)).toBe(false);
  }, 60_000);

  it('starts again after `secrets:reset` when the key is lost for good, with the secrets to enter again', async () => {
    const { dataDir, account, flow } = await hubWithSealedSecret('nexus-reset-');
    fs.rmSync(path.join(dataDir, 'secret.key'));

    const unconfirmed = await cli(dataDir, 'secrets:reset');
    expect(unconfirmed.code).toBe(2);
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
    const reset = await cli(dataDir, 'secrets:reset', '--yes');
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toContain('flow webhook URLs changed');
    expect(mode(path.join(dataDir, 'secret.key'))).toBe('600');

    const again = await startAgent({ dataDir });
    const owner = new Client(again.url);
    expect(
      (await owner.post('/api/auth/login', { email: account.email, password: account.password })).status,
    ).toBe(200);
    const read = await owner.get(`/api/flows/${flow.id}`);
    expect(read.status, read.text).toBe(200);
    // The old webhook secret cannot be opened any more: the flow has a new one.
    expect(read.json.webhook.productionPath).not.toBe(flow.webhook.productionPath);
    await again.stop();
  }, 60_000);
});

const unavailable = tmpfsUnavailable();

describe.skipIf(unavailable !== null)('a read-only data directory', () => {
  let tmpfs: Tmpfs;
  beforeAll(() => {
    tmpfs = mountTmpfs('4m');
  });
  afterAll(() => tmpfs?.unmount());

  it('stops the start with a message that names it, not a stack trace', async () => {
    const dataDir = path.join(tmpfs.dir, 'data');
    const agent = await startAgent({ dataDir });
    await agent.stop();
    // chmod would not stop root: the file system itself is made read-only.
    tmpfs.remount('ro');
    try {
      const message = await failedStart(dataDir);
      expect(message).toMatch(/exited with 1 before listening/);
      expect(message).toMatch(
        new RegExp(
          `NEXUS_DATA_DIR ${dataDir} is not writable by user \\S+: the file system is read-only \\(EROFS\\)`,
        ),
      );
      expect(message).not.toMatch(/^\s+at /m);
    } finally {
      tmpfs.remount('rw');
    }
  }, 60_000);
});

if (unavailable !== null) it.skip(`a read-only data directory: ${unavailable}`, () => {});
