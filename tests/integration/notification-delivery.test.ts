import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHomeAssistantSim, type HomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { startNtfySim, type NtfySim } from '../fixtures/ntfy-sim.js';
import { startSmtpSink, type SmtpSink } from '../fixtures/smtp-sink.js';
import { startWebhookReceiver, type WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { waitFor } from '../support/wait-for.js';

/**
 * Issue 19, delivery: each channel's real counterpart on loopback (an SMTP server, the HA simulator
 * recording notify.* calls, an ntfy stand-in, a webhook receiver) gets the message with the right
 * content; failures are retried with back-off and then shown failed; preferences decide what goes
 * out; secrets never come back; members cannot touch channels or others' notifications.
 * Loopback is refused by the outbound guard unless an admin allows it, as for a LAN ntfy server.
 */

const PUBLIC_URL = 'https://nexus.example.test';
const NTFY_TOKEN = 'tk_ntfy-secret-token-1234567890';
const WEBHOOK_SECRET = 'whsec-very-secret-value-0987654321';

let agent: RunningAgent;
let sink: SmtpSink;
let sim: HomeAssistantSim;
let ntfy: NtfySim;
let hook: WebhookReceiver;
let owner: Client;
let member: Client;
let ownerEmail: string;
let memberId: number;

async function notifyViaFlow(client: Client, title: string, body: string, level = 'info') {
  const flow = await client.post('/api/flows', {
    name: `Tell ${title}`,
    trigger: { type: 'api' },
    stages: [{ id: 'tell', name: 'Tell', kind: 'notify', config: { title, body, level } }],
  });
  expect(flow.status, flow.text).toBe(201);
  const run = await client.post(`/api/flows/${flow.json.id}/run?wait=true`);
  expect(run.status, run.text).toBe(200);
  const list = await client.get('/api/notifications?limit=100');
  const found = list.json.notifications.find((n: { title: string }) => n.title === title);
  expect(found, `notification ${title}`).toBeTruthy();
  return found as { id: number; deliveries: { channel: string; status: string }[] };
}

async function deliveriesOf(client: Client, id: number) {
  const list = await client.get('/api/notifications?limit=100');
  const n = list.json.notifications.find((x: { id: number }) => x.id === id);
  return (n?.deliveries ?? []) as {
    channel: string;
    status: string;
    attempts: number;
    lastError: string | null;
    nextAttemptAt: string | null;
    sentAt: string | null;
  }[];
}

beforeAll(async () => {
  [sink, sim, ntfy, hook] = await Promise.all([
    startSmtpSink(),
    startHomeAssistantSim(),
    startNtfySim(),
    startWebhookReceiver(),
  ]);
  ntfy.token = NTFY_TOKEN;
  hook.secret = WEBHOOK_SECRET;
  agent = await startAgent({
    env: {
      SMTP_URL: sink.url,
      SMTP_FROM: 'Nexus <nexus@example.test>',
      NEXUS_PUBLIC_URL: PUBLIC_URL,
      HA_URL: sim.url,
      HA_TOKEN: sim.token,
      // Back-off in tens of ms instead of minutes.
      NEXUS_NOTIFY_RETRY_MS: '60,120',
      NEXUS_NOTIFY_POLL_MS: '25',
    },
  });
  owner = new Client(agent.url);
  member = new Client(agent.url);
  ownerEmail = (await signUp(owner, { name: 'Ada Owner' })).email;
  memberId = (await signUp(member, { name: 'Ben Member' })).id;
  // The admin allows the two loopback servers, as they would a LAN ntfy server.
  const allow = await owner.put('/api/settings/outbound', {
    allowList: [new URL(ntfy.url).host, new URL(hook.url).host],
  });
  expect(allow.status, allow.text).toBe(200);
});

afterAll(async () => {
  await agent?.stop();
  await Promise.all([sink?.close(), sim?.stop(), ntfy?.close(), hook?.close()]);
});

describe('channels (admin)', () => {
  it('refuses members and strangers', async () => {
    expect((await member.get('/api/notifications/channels')).status).toBe(403);
    expect((await member.put('/api/notifications/channels', { webhook: { enabled: false } })).status).toBe(
      403,
    );
    expect((await member.post('/api/notifications/channels/webhook/test')).status).toBe(403);
    expect((await new Client(agent.url).get('/api/notifications/channels')).status).toBe(401);
    expect((await new Client(agent.url).get('/api/notifications/preferences')).status).toBe(401);
  });

  it('saves every channel and never answers with the token or secret', async () => {
    const res = await owner.put('/api/notifications/channels', {
      email: { enabled: true },
      homeAssistant: { enabled: true, service: 'notify.notify' },
      ntfy: { enabled: true, url: ntfy.url, topic: 'nexus-alerts', token: NTFY_TOKEN },
      webhook: { enabled: true, url: `${hook.url}/hooks/nexus`, secret: WEBHOOK_SECRET },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      email: { enabled: true, configured: true },
      homeAssistant: { enabled: true, service: 'notify.notify' },
      ntfy: { enabled: true, url: ntfy.url, topic: 'nexus-alerts', hasToken: true },
      webhook: { enabled: true, url: `${hook.url}/hooks/nexus`, hasSecret: true },
    });
    const again = await owner.get('/api/notifications/channels');
    for (const text of [res.text, again.text]) {
      expect(text).not.toContain(NTFY_TOKEN);
      expect(text).not.toContain(WEBHOOK_SECRET);
    }
    // Sealed at rest too.
    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    try {
      const dump = JSON.stringify(db.prepare('select * from notification_channels').all());
      expect(dump).not.toContain(NTFY_TOKEN);
      expect(dump).not.toContain(WEBHOOK_SECRET);
    } finally {
      db.close();
    }
  });

  it('refuses to enable a channel that cannot send, and bad input, with 400', async () => {
    const noTopic = await owner.put('/api/notifications/channels', {
      ntfy: { enabled: true, url: ntfy.url, topic: 'bad topic!' },
    });
    expect(noTopic.status).toBe(400);
    const badUrl = await owner.put('/api/notifications/channels', {
      webhook: { enabled: true, url: 'file:///etc/passwd' },
    });
    expect(badUrl.status).toBe(400);
    const extra = await owner.put('/api/notifications/channels', {
      webhook: { enabled: true, hasSecret: true },
    });
    expect(extra.status).toBe(400);
  });

  it('lists the notify services Home Assistant offers', async () => {
    const res = await waitFor(
      () => owner.get('/api/notifications/channels'),
      (r) => r.json.homeAssistant.available.includes('notify.mobile_app_pixel_8'),
      { what: 'HA notify services' },
    );
    expect(res.json.homeAssistant.available).toContain('notify.notify');
  });
});

describe('preferences', () => {
  it('start with the documented defaults and save per user', async () => {
    const res = await member.get('/api/notifications/preferences');
    expect(res.status).toBe(200);
    expect(res.json.homeAssistantService).toBeNull();
    expect(res.json.categories.security).toEqual({
      email: true,
      homeAssistant: true,
      ntfy: true,
      webhook: true,
    });
    expect(res.json.categories.flows).toEqual({
      email: false,
      homeAssistant: false,
      ntfy: true,
      webhook: true,
    });
    const saved = await member.put('/api/notifications/preferences', {
      categories: { flows: { email: true } },
      homeAssistantService: 'notify.mobile_app_pixel_8',
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.categories.flows).toEqual({
      email: true,
      homeAssistant: false,
      ntfy: true,
      webhook: true,
    });
    // Another user's preferences are untouched.
    expect((await owner.get('/api/notifications/preferences')).json.categories.flows.email).toBe(false);
    expect(
      (await member.put('/api/notifications/preferences', { homeAssistantService: 'light.x' })).status,
    ).toBe(400);
    expect((await member.put('/api/notifications/preferences', { categories: { nope: {} } })).status).toBe(
      400,
    );
  });
});

describe('delivery', () => {
  it('carries one notification to e-mail, Home Assistant, ntfy and the webhook with the right content', async () => {
    const prefs = await owner.put('/api/notifications/preferences', {
      categories: { flows: { email: true, homeAssistant: true, ntfy: true, webhook: true } },
      homeAssistantService: 'notify.mobile_app_pixel_8',
    });
    expect(prefs.status, prefs.text).toBe(200);
    const callsBefore = sim.serviceCalls.length;
    const n = await notifyViaFlow(
      owner,
      'Garage left open',
      'The garage door is open since 21:00',
      'warning',
    );

    const mail = await sink.waitFor((m) => m.subject.includes('Garage left open'));
    expect(mail.to).toEqual([ownerEmail]);
    expect(mail.text).toContain('The garage door is open since 21:00');

    const call = await waitFor(
      () => sim.serviceCalls.slice(callsBefore).find((c) => c.domain === 'notify'),
      (c) => c !== undefined,
      { what: 'an HA notify call' },
    );
    expect(call).toMatchObject({
      service: 'mobile_app_pixel_8',
      serviceData: { title: 'Garage left open', message: 'The garage door is open since 21:00' },
    });

    const pushed = await waitFor(
      () => ntfy.messages.find((m) => m.title === 'Garage left open'),
      (m) => m !== undefined,
      { what: 'the ntfy message' },
    );
    expect(pushed).toMatchObject({
      topic: 'nexus-alerts',
      message: 'The garage door is open since 21:00',
      priority: 4,
      authorization: `Bearer ${NTFY_TOKEN}`,
    });
    expect(pushed!.tags).toEqual(['warning', 'flows']);

    const got = await waitFor(
      () => hook.received.find((r) => r.json.title === 'Garage left open'),
      (r) => r !== undefined,
      { what: 'the webhook' },
    );
    expect(got!.signatureValid).toBe(true);
    expect(got!.json).toMatchObject({
      id: n.id,
      category: 'flows',
      level: 'warning',
      title: 'Garage left open',
      body: 'The garage door is open since 21:00',
      link: null,
      hub: expect.any(String),
      createdAt: expect.stringMatching(/^\d{4}-/),
    });
    expect(Number(got!.headers['x-nexus-timestamp'])).toBe(
      Math.floor(Date.parse(got!.json.sentAt as string) / 1000),
    );

    const deliveries = await waitFor(
      () => deliveriesOf(owner, n.id),
      (d) => d.length === 4 && d.every((x) => x.status === 'sent'),
      { what: 'four sent deliveries' },
    );
    expect(deliveries.map((d) => d.channel).sort()).toEqual(['email', 'homeAssistant', 'ntfy', 'webhook']);
    expect(deliveries[0]).toMatchObject({ attempts: 1, lastError: null, nextAttemptAt: null });
    // Hub-wide channels are shown to everyone who sees the notification; personal ones to their owner only.
    expect(agent.logs.join('\n')).not.toContain(NTFY_TOKEN);
    expect(agent.logs.join('\n')).not.toContain(WEBHOOK_SECRET);
  });

  it('honours preferences: a category turned off for a channel is not sent there', async () => {
    await owner.put('/api/notifications/preferences', {
      categories: { flows: { email: true, homeAssistant: false, ntfy: false, webhook: false } },
    });
    const ntfyBefore = ntfy.messages.length;
    const hooksBefore = hook.hits.length;
    const n = await notifyViaFlow(owner, 'Quiet one', 'only by mail');
    // The deliveries are written with the notification: only e-mail.
    expect(n.deliveries.map((d) => d.channel)).toEqual(['email']);
    await sink.waitFor((m) => m.subject.includes('Quiet one'));
    expect(ntfy.messages.length).toBe(ntfyBefore);
    expect(hook.hits.length).toBe(hooksBefore);
  });

  it('retries a failing channel with back-off, then shows it failed with the error (list and health)', async () => {
    await owner.put('/api/notifications/preferences', {
      categories: { flows: { email: false, homeAssistant: false, ntfy: false, webhook: true } },
    });
    hook.failWith = 503;
    const hitsBefore = hook.hits.length;
    const n = await notifyViaFlow(owner, 'Will not arrive', 'receiver down');
    const [failed] = await waitFor(
      () => deliveriesOf(owner, n.id),
      (d) => d.length === 1 && d[0]!.status === 'failed',
      { what: 'a failed webhook delivery' },
    );
    expect(failed).toMatchObject({ channel: 'webhook', attempts: 5, nextAttemptAt: null, sentAt: null });
    expect(failed!.lastError).toMatch(/answered 503: receiver is down/);
    expect(failed!.lastError).not.toContain('/hooks/nexus');
    // Five attempts, each after the back-off (60 ms, then 120 ms and 120 ms again).
    const hits = hook.hits.slice(hitsBefore);
    expect(hits).toHaveLength(5);
    const gaps = hits.slice(1).map((t, i) => t - hits[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(55);
    for (const gap of gaps.slice(1)) expect(gap).toBeGreaterThanOrEqual(115);

    const channels = await owner.get('/api/notifications/channels');
    expect(channels.json.webhook.health).toMatchObject({
      lastError: expect.stringMatching(/503/),
      lastFailureAt: expect.any(String),
      pending: 0,
    });
    hook.failWith = null;
  });
});

describe('send test', () => {
  it('sends to each channel now and answers the real outcome', async () => {
    const callsBefore = sim.serviceCalls.length;
    const ntfyTest = await owner.post('/api/notifications/channels/ntfy/test');
    expect(ntfyTest.json).toEqual({ ok: true, message: expect.stringContaining('nexus-alerts') });
    expect(ntfy.messages.at(-1)).toMatchObject({
      title: 'Test notification from Nexus',
      click: `${PUBLIC_URL}/notifications`,
      priority: 3,
    });

    const haTest = await owner.post('/api/notifications/channels/homeAssistant/test');
    expect(haTest.json.ok, haTest.text).toBe(true);
    const call = sim.serviceCalls.slice(callsBefore).find((c) => c.domain === 'notify');
    expect(call).toMatchObject({
      serviceData: {
        title: 'Test notification from Nexus',
        data: { url: `${PUBLIC_URL}/notifications` },
      },
    });

    const mailTest = await owner.post('/api/notifications/channels/email/test');
    expect(mailTest.json.ok, mailTest.text).toBe(true);
    const mail = await sink.waitFor((m) => m.subject.includes('Test notification from Nexus'));
    expect(mail.text).toContain(`${PUBLIC_URL}/notifications`);

    hook.failWith = 500;
    const failing = await owner.post('/api/notifications/channels/webhook/test');
    expect(failing.status).toBe(200);
    expect(failing.json).toEqual({ ok: false, message: expect.stringMatching(/answered 500/) });
    hook.failWith = null;
    const ok = await owner.post('/api/notifications/channels/webhook/test');
    expect(ok.json.ok, ok.text).toBe(true);
    expect(hook.received.at(-1)!.signatureValid).toBe(true);
  });

  it('goes through the outbound guard: a LAN/loopback address the admin did not allow is refused', async () => {
    await owner.put('/api/notifications/channels', {
      // Loopback (never dialled: refused before connecting), on a port the admin did not allow.
      webhook: { enabled: true, url: `http://127.0.0.2:${new URL(hook.url).port}/never` },
    });
    const res = await owner.post('/api/notifications/channels/webhook/test');
    expect(res.json).toEqual({
      ok: false,
      message: expect.stringMatching(/Refused to connect to 127\.0\.0\.2:\d+/),
    });
    await owner.put('/api/notifications/channels', {
      webhook: { enabled: true, url: `${hook.url}/hooks/nexus` },
    });
  });

  it('sends the credentials of a URL as HTTP Basic, and never shows them in an error or a log line', async () => {
    const port = new URL(hook.url).port;
    await owner.put('/api/notifications/channels', {
      webhook: { enabled: true, url: `http://hooker:s3cr%3At@127.0.0.1:${port}/hooks/basic` },
    });
    expect((await owner.post('/api/notifications/channels/webhook/test')).json.ok).toBe(true);
    expect(hook.received.at(-1)!.headers.authorization).toBe(
      `Basic ${Buffer.from('hooker:s3cr:t').toString('base64')}`,
    );
    hook.failWith = 502;
    const failed = await owner.post('/api/notifications/channels/webhook/test');
    expect(failed.json.ok).toBe(false);
    expect(failed.text).not.toContain('s3cr');
    hook.failWith = null;
    expect(agent.logs.join('\n')).not.toContain('s3cr');
    await owner.put('/api/notifications/channels', {
      webhook: { enabled: true, url: `${hook.url}/hooks/nexus` },
    });
  });

  it('refuses an unknown channel with 400', async () => {
    expect((await owner.post('/api/notifications/channels/pigeon/test')).status).toBe(400);
  });
});

describe('list, filters and delete', () => {
  function insertBroadcast(title: string, category = 'system', level = 'info') {
    const db = new Database(path.join(agent.dataDir, 'nexus.db'));
    try {
      return db
        .prepare(
          'insert into notifications (user_id, level, category, title, created_at) values (null, ?, ?, ?, ?)',
        )
        .run(level, category, title, Date.now()).lastInsertRowid as number;
    } finally {
      db.close();
    }
  }

  it('filters by category, severity and read state, and pages with before', async () => {
    const disk = insertBroadcast('Disk almost full', 'system', 'error');
    insertBroadcast('VPN switched', 'vpn', 'warning');
    const bySeverity = await owner.get('/api/notifications?severity=error');
    expect(bySeverity.json.notifications.map((n: { id: number }) => n.id)).toContain(disk);
    expect(bySeverity.json.notifications.every((n: { level: string }) => n.level === 'error')).toBe(true);
    const byCategory = await owner.get('/api/notifications?category=vpn');
    expect(byCategory.json.notifications.map((n: { title: string }) => n.title)).toEqual(['VPN switched']);
    await owner.post(`/api/notifications/${disk}/read`);
    const read = await owner.get('/api/notifications?unread=false');
    expect(read.json.notifications.map((n: { id: number }) => n.id)).toEqual([disk]);
    const unread = await owner.get('/api/notifications?unread=true');
    expect(unread.json.notifications.map((n: { id: number }) => n.id)).not.toContain(disk);

    const first = await owner.get('/api/notifications?limit=2');
    expect(first.json.notifications).toHaveLength(2);
    const next = await owner.get(`/api/notifications?limit=2&before=${first.json.notifications[1].id}`);
    expect(next.json.notifications[0].id).toBeLessThan(first.json.notifications[1].id);
    expect((await owner.get('/api/notifications?category=nope')).status).toBe(400);
    expect((await owner.get('/api/notifications?severity=fatal')).status).toBe(400);
  });

  it("a member gets 404 for another user's notification, and hides a broadcast for themselves only", async () => {
    const ownersOwn = await notifyViaFlow(owner, 'Only for Ada', 'private');
    expect((await member.delete(`/api/notifications/${ownersOwn.id}`)).status).toBe(404);
    expect((await member.post(`/api/notifications/${ownersOwn.id}/read`)).status).toBe(404);
    expect((await member.delete('/api/notifications/0')).status).toBe(400);
    expect((await member.delete('/api/notifications/99999999')).status).toBe(404);

    const broadcast = insertBroadcast('Hub updated');
    expect((await member.delete(`/api/notifications/${broadcast}`)).status).toBe(204);
    const memberList = await member.get('/api/notifications?limit=100');
    expect(memberList.json.notifications.map((n: { id: number }) => n.id)).not.toContain(broadcast);
    const ownerList = await owner.get('/api/notifications?limit=100');
    expect(ownerList.json.notifications.map((n: { id: number }) => n.id)).toContain(broadcast);
    // Hidden means gone for the member: no read, no second delete.
    expect((await member.post(`/api/notifications/${broadcast}/read`)).status).toBe(404);

    expect((await owner.delete(`/api/notifications/${ownersOwn.id}`)).status).toBe(204);
    const after = await owner.get('/api/notifications?limit=100');
    expect(after.json.notifications.map((n: { id: number }) => n.id)).not.toContain(ownersOwn.id);
    expect(memberId).toBeGreaterThan(0);
  });
});

describe('restart', () => {
  it('resumes pending deliveries after a restart', async () => {
    const dataDir = agent.dataDir;
    await agent.stop();
    const db = new Database(path.join(dataDir, 'nexus.db'));
    try {
      const id = db
        .prepare(
          "insert into notifications (user_id, level, category, title, created_at) values (null, 'error', 'backups', 'Left behind', ?)",
        )
        .run(Date.now()).lastInsertRowid as number;
      db.prepare(
        "insert into notification_deliveries (notification_id, user_id, channel, status, attempts, next_attempt_at, created_at) values (?, null, 'webhook', 'pending', 1, ?, ?)",
      ).run(id, Date.now(), Date.now());
    } finally {
      db.close();
    }
    agent = await startAgent({
      dataDir,
      env: {
        NEXUS_PUBLIC_URL: PUBLIC_URL,
        NEXUS_NOTIFY_RETRY_MS: '60,120',
        NEXUS_NOTIFY_POLL_MS: '25',
      },
    });
    const got = await waitFor(
      () => hook.received.find((r) => r.json.title === 'Left behind'),
      (r) => r !== undefined,
      { what: 'the resumed delivery' },
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${agent.logs.slice(-15).join('\n')}`);
    });
    expect(got!.signatureValid).toBe(true);
  });
});
