import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  licenceActivatedSchema,
  licenceHistorySchema,
  subscriptionStatusSchema,
  type LicencePayload,
} from '../../agent/src/contract/subscription.js';
import { signLicenceKey } from '../../agent/src/features/subscription/licence-key.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { waitFor } from '../support/wait-for.js';

/**
 * Licence keys end to end (issue 22): the vendor's tool makes a key pair and signs a key, and the
 * real agent, given the public key, activates it; refusals name their reason; members and
 * strangers cannot change the licence; a plan change deletes nothing.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const DAY_S = 24 * 60 * 60;
const nowS = () => Math.floor(Date.now() / 1000);

/** The vendor's tool as a vendor runs it (npx tsx scripts/licence.ts …). */
function licenceTool(args: string[]): { stdout: string; stderr: string } {
  const stderrFile = path.join(keysDir, 'stderr.txt');
  const stdout = execFileSync(
    path.join(repoRoot, 'node_modules/.bin/tsx'),
    [path.join(repoRoot, 'scripts/licence.ts'), ...args],
    { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', fs.openSync(stderrFile, 'w')] },
  );
  return { stdout, stderr: fs.readFileSync(stderrFile, 'utf8') };
}

let keysDir: string;
let agent: RunningAgent;
let owner: Client;
let member: Client;
let stranger: Client;
let hubId: string;
let vendorPrivateKey: ReturnType<typeof generateKeyPairSync>['privateKey'];

beforeAll(async () => {
  // Made for this run only, in a temporary directory: no test key is ever committed.
  keysDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-licence-keys-'));
  licenceTool(['keygen', '--out', keysDir]);
  const { createPrivateKey } = await import('node:crypto');
  vendorPrivateKey = createPrivateKey(fs.readFileSync(path.join(keysDir, 'private.pem')));
  agent = await startAgent({
    env: {
      // One line with \n escapes, as an env file holds it.
      NEXUS_LICENCE_PUBLIC_KEY: fs
        .readFileSync(path.join(keysDir, 'public.pem'), 'utf8')
        .replace(/\n/g, '\\n'),
      NEXUS_LICENCE_STORE_URL: 'https://store.example/buy',
      // The "licence ends in N days" alert is checked this often (half as often as the fast checks).
      NEXUS_ALERT_POLL_MS: '200',
    },
  });
  owner = new Client(agent.url);
  await signUp(owner, { name: 'Owner' });
  member = new Client(agent.url);
  await signUp(member, { name: 'Member' });
  stranger = new Client(agent.url);
  hubId = subscriptionStatusSchema.parse((await owner.get('/api/subscription/status')).json).hubId;
});

afterAll(async () => {
  await agent?.stop();
  fs.rmSync(keysDir, { recursive: true, force: true });
});

const key = (over: Partial<LicencePayload> = {}) =>
  signLicenceKey(
    {
      lid: `lic-${Math.random().toString(36).slice(2)}`,
      hub: hubId,
      plan: 'pro',
      iat: nowS(),
      exp: nowS() + 30 * DAY_S,
      ...over,
    },
    vendorPrivateKey,
  );

describe('licence activation', () => {
  it('activates a key printed by the vendor’s tool; the status and history follow it; the receipt downloads', async () => {
    const before = subscriptionStatusSchema.parse((await owner.get('/api/subscription/status')).json);
    expect(before).toMatchObject({ plan: 'pro', status: 'trialing', licence: null });
    expect(before.storeUrl).toBe(`https://store.example/buy?hub=${hubId}`);

    const signed = licenceTool([
      'sign',
      '--key',
      path.join(keysDir, 'private.pem'),
      '--hub',
      hubId,
      '--plan',
      'max',
      '--days',
      '365',
      '--seats',
      '2',
      '--lid',
      'order-1001',
    ]);
    const printed = signed.stdout.trim();
    expect(printed).toMatch(/^NXL1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(signed.stderr).toContain('Licence id:  order-1001');
    expect(signed.stderr).toContain('Plan:        Max');
    expect(signed.stderr).toContain(`Hub id:      ${hubId}`);

    const res = await owner.post('/api/subscription/licence', { key: printed });
    expect(res.status, res.text).toBe(200);
    const activated = licenceActivatedSchema.parse(res.json);
    expect(activated.status).toMatchObject({
      plan: 'max',
      status: 'active',
      licence: { lid: 'order-1001', plan: 'max', inGrace: false, graceEndsAt: null },
    });
    expect(activated.licence).toMatchObject({
      lid: 'order-1001',
      hub: hubId,
      seats: 2,
      state: 'in-force',
      key: printed,
    });
    const expires = Date.parse(activated.licence.expiresAt) - Date.now();
    expect(expires).toBeGreaterThan(364 * DAY_S * 1000);

    // The same key again (a double click, the activation link opened twice) changes nothing.
    const again = await owner.post('/api/subscription/licence', { key: `${printed}\n` });
    expect(again.status, again.text).toBe(200);
    expect(again.json.licence).toEqual(res.json.licence);

    const status = subscriptionStatusSchema.parse((await member.get('/api/subscription/status')).json);
    expect(status).toMatchObject({ plan: 'max', licence: { lid: 'order-1001' } });

    const receipt = await owner.get('/api/subscription/licences/order-1001/receipt');
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(receipt.headers.get('content-disposition')).toBe(
      'attachment; filename="nexus-licence-order-1001.txt"',
    );
    expect(receipt.text).toContain('Plan:        Max');
    expect(receipt.text).toContain(printed);

    const audit = await owner.get('/api/audit?type=licence_activated');
    expect(audit.status, audit.text).toBe(200);
    const events = (audit.json.events as { type: string; target: string }[]).filter(
      (e) => e.type === 'licence_activated',
    );
    expect(events.map((e) => e.target)).toEqual(['order-1001']);
  });

  it('lets members see the history without keys, and nothing else', async () => {
    const history = licenceHistorySchema.parse((await member.get('/api/subscription/licences')).json);
    expect(history.licences.length).toBeGreaterThan(0);
    for (const licence of history.licences) expect(licence).not.toHaveProperty('key');
    const adminView = licenceHistorySchema.parse((await owner.get('/api/subscription/licences')).json);
    expect(adminView.licences[0]!.key).toMatch(/^NXL1\./);

    // A member cannot activate (even a genuine key), deactivate or download a receipt (it holds the key).
    expect((await member.post('/api/subscription/licence', { key: key() })).status).toBe(403);
    expect((await member.delete('/api/subscription/licence')).status).toBe(403);
    expect(
      (await member.get(`/api/subscription/licences/${adminView.licences[0]!.lid}/receipt`)).status,
    ).toBe(403);
    // Strangers cannot even read.
    expect((await stranger.get('/api/subscription/licences')).status).toBe(401);
    expect((await stranger.post('/api/subscription/licence', { key: key() })).status).toBe(401);
    expect((await owner.get('/api/subscription/licences/no-such-licence/receipt')).status).toBe(404);
  });

  it('refuses keys with their reason: 400 malformed, 422 bad signature, another hub, expired, not yet valid', async () => {
    const forger = generateKeyPairSync('ed25519');
    const genuine = key();
    const [prefix, payload, signature] = genuine.split('.');
    const tampered = `${prefix}.${payload!.slice(0, 10)}${payload![10] === 'A' ? 'B' : 'A'}${payload!.slice(11)}.${signature}`;
    const cases: [string, unknown, number, string][] = [
      ['garbage', { key: 'not a licence' }, 400, 'malformed'],
      ['wrong prefix', { key: `NXL9.${payload}.${signature}` }, 400, 'malformed'],
      ['extra segments', { key: `${genuine}.AAAA` }, 400, 'malformed'],
      ['huge', { key: `NXL1.${'A'.repeat(200_000)}.${signature}` }, 400, 'malformed'],
      ['one byte changed', { key: tampered }, 422, 'bad-signature'],
      [
        'another key',
        { key: signLicenceKey({ ...decode(genuine), plan: 'max' }, forger.privateKey) },
        422,
        'bad-signature',
      ],
      ['another hub', { key: key({ hub: 'zzzzzzzzzzzzzzzzzzzzzzzzzz' }) }, 422, 'another-hub'],
      ['expired', { key: key({ iat: nowS() - 40 * DAY_S, exp: nowS() - DAY_S }) }, 422, 'expired'],
      [
        'not yet valid',
        { key: key({ nbf: nowS() + DAY_S, exp: nowS() + 40 * DAY_S }) },
        422,
        'not-yet-valid',
      ],
    ];
    for (const [name, body, status, reason] of cases) {
      const res = await owner.post('/api/subscription/licence', body);
      expect(res.status, `${name}: ${res.text.slice(0, 300)}`).toBe(status);
      expect(res.json.details.reason, name).toBe(reason);
      expect(typeof res.json.message).toBe('string');
    }
    const otherHub = await owner.post('/api/subscription/licence', {
      key: key({ hub: 'zzzzzzzzzzzzzzzzzzzzzzzzzz' }),
    });
    expect(otherHub.json.message).toBe(
      `This key is for another hub (hub id zzzzzzzzzzzzzzzzzzzzzzzzzz); this hub’s id is ${hubId}.`,
    );
    // Not a body at all is still a 400.
    expect((await owner.post('/api/subscription/licence', { licence: genuine })).status).toBe(400);
    // Nothing refused was recorded.
    const history = licenceHistorySchema.parse((await owner.get('/api/subscription/licences')).json);
    expect(history.licences.map((l) => l.lid)).toEqual(['order-1001']);
  });

  it('warns a week before the licence in force ends, following its expiry', async () => {
    const short = await owner.post('/api/subscription/licence', {
      key: key({ lid: 'short-1', plan: 'max', exp: nowS() + 3 * DAY_S }),
    });
    expect(short.status, short.text).toBe(200);
    const list = await waitFor(
      async () => (await owner.get('/api/notifications?category=subscription')).json,
      (body: { notifications: { title: string; link: string | null }[] }) =>
        body.notifications.some((n) => n.title === 'Your licence ends in 3 days'),
      { what: 'the licence ending alert' },
    );
    expect(list.notifications.find((n) => n.title === 'Your licence ends in 3 days')?.link).toBe('/billing');
  });

  it('deactivating returns to the trial and deletes nothing made meanwhile', async () => {
    const flow = await owner.post('/api/flows', {
      name: 'Made on Max',
      trigger: { type: 'webhook' },
      stages: [{ id: 'tell', name: 'Tell me', kind: 'notify', config: { title: 'Hi', body: 'there' } }],
    });
    expect(flow.status, flow.text).toBe(201);

    const res = await owner.delete('/api/subscription/licence');
    expect(res.status, res.text).toBe(200);
    expect(subscriptionStatusSchema.parse(res.json)).toMatchObject({
      plan: 'pro',
      status: 'trialing',
      licence: null,
    });
    expect((await owner.delete('/api/subscription/licence')).status).toBe(404);

    expect((await owner.get(`/api/flows/${flow.json.id}`)).status).toBe(200);
    const history = licenceHistorySchema.parse((await owner.get('/api/subscription/licences')).json);
    expect(history.licences.map((l) => [l.lid, l.state])).toEqual([
      ['short-1', 'deactivated'],
      ['order-1001', 'replaced'],
    ]);
    const audit = await owner.get('/api/audit?type=licence_deactivated');
    expect((audit.json.events as { type: string }[]).some((e) => e.type === 'licence_deactivated')).toBe(
      true,
    );
  });
});

describe('the vendor key', () => {
  it('stops the start with a clear message when NEXUS_LICENCE_PUBLIC_KEY is not an Ed25519 public key', async () => {
    const privatePem = fs.readFileSync(path.join(keysDir, 'private.pem'), 'utf8');
    for (const bad of ['not a pem', privatePem])
      await expect(startAgent({ env: { NEXUS_LICENCE_PUBLIC_KEY: bad } })).rejects.toThrow(
        /NEXUS_LICENCE_PUBLIC_KEY: must be an Ed25519 public key in PEM form/,
      );
  });

  it('without NEXUS_LICENCE_PUBLIC_KEY, checks keys against the key shipped in the build', async () => {
    const plain = await startAgent();
    try {
      const admin = new Client(plain.url);
      await signUp(admin, { name: 'Owner' });
      const hub = subscriptionStatusSchema.parse((await admin.get('/api/subscription/status')).json);
      expect(hub.storeUrl).toBeNull();
      const res = await admin.post('/api/subscription/licence', {
        key: signLicenceKey(
          { lid: 'x', hub: hub.hubId, plan: 'max', iat: nowS(), exp: nowS() + DAY_S },
          vendorPrivateKey,
        ),
      });
      expect(res.status).toBe(422);
      expect(res.json.details.reason).toBe('bad-signature');
    } finally {
      await plain.stop();
    }
  });
});

function decode(k: string): LicencePayload {
  return JSON.parse(Buffer.from(k.split('.')[1]!, 'base64url').toString('utf8')) as LicencePayload;
}
