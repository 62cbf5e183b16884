import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOutboundGuard } from '../../adapters/outbound-guard.js';
import { openDatabase, type DbHandle } from '../../db/client.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { createAuthRepository } from '../auth/auth.repository.js';
import { createNotificationDelivery } from './delivery.service.js';
import { createNotificationService } from './notifications.service.js';
import { notificationDeliveries } from './notifications.table.js';

const log = pino({ level: 'silent' });
let dir: string;
let handle: DbHandle;
let clock: number;
const sentMail: string[] = [];
let haFails = false;
const haCalls: string[] = [];

function setup() {
  const notifications = createNotificationService({ db: handle.db, log, now: () => clock });
  const delivery = createNotificationDelivery({
    db: handle.db,
    log,
    secrets: createSecretBox(Buffer.alloc(32, 7)),
    notifications,
    mailer: { send: async (m) => void sentMail.push(m.to) },
    homeAssistant: {
      notify: async (service) => {
        haCalls.push(service);
        if (haFails) throw new Error('Home Assistant is not connected yet');
      },
      services: async () => [],
    },
    // Never dialled here: no channel in these tests goes over HTTP.
    guard: createOutboundGuard({ allowList: () => [], lookup: async () => [] }),
    publicUrl: null,
    hubName: () => 'Test hub',
    now: () => clock,
  });
  return { notifications, delivery };
}

const rows = () => handle.db.select().from(notificationDeliveries).all();

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-outbox-'));
  handle = openDatabase(dir);
  const users = createAuthRepository(handle.db);
  users.create({ name: 'Ada', email: 'ada@example.com', passwordHash: 'x' });
  users.create({ name: 'Ben', email: 'ben@example.com', passwordHash: 'x' });
  clock = Date.parse('2026-01-01T00:00:00Z');
  sentMail.length = 0;
  haCalls.length = 0;
  haFails = false;
});
afterEach(() => {
  handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the outbox', () => {
  it('sends personal channels once per recipient who wants them, hub-wide ones once if anyone does', async () => {
    const { notifications, delivery } = setup();
    await delivery.updateChannels({
      email: { enabled: true },
      homeAssistant: { enabled: true },
      ntfy: { enabled: true, url: 'https://ntfy.example.org', topic: 'nexus' },
      webhook: { enabled: true, url: 'https://hooks.example.org/x' },
    });
    // Ada wants containers by e-mail and ntfy; Ben by e-mail only; nobody by webhook or HA.
    delivery.preferences.update(1, {
      categories: { containers: { email: true, homeAssistant: false, webhook: false } },
    });
    delivery.preferences.update(2, {
      categories: { containers: { email: true, homeAssistant: false, ntfy: false, webhook: false } },
    });
    const n = notifications.notify({ category: 'containers', level: 'error', title: 'web died' });
    const queued = rows().map((r) => `${r.channel}:${r.userId}`);
    expect(queued.sort()).toEqual(['email:1', 'email:2', 'ntfy:null']);
    // What each person sees: their own personal deliveries and the hub-wide ones.
    const seenByBen = delivery.withDeliveries(2, { notifications: [n], unreadCount: 1 }).notifications[0]!;
    expect(seenByBen.deliveries.map((d) => d.channel).sort()).toEqual(['email', 'ntfy']);
    await vi.waitFor(() => expect(sentMail.sort()).toEqual(['ada@example.com', 'ben@example.com']));
  });

  it('writes nothing when every channel is off', () => {
    const { notifications } = setup();
    notifications.notify({ category: 'security', title: 'new sign-in' });
    expect(rows()).toEqual([]);
  });

  it('retries after 30 s, 2 min, 10 min and 1 h, then gives up with the last error', async () => {
    const { notifications, delivery } = setup();
    await delivery.updateChannels({ homeAssistant: { enabled: true } });
    haFails = true;
    notifications.notify({ userId: 1, category: 'security', level: 'warning', title: 'new device' });
    await vi.waitFor(() => expect(rows()[0]!.attempts).toBe(1));
    const waits = [30_000, 120_000, 600_000, 3_600_000];
    for (const [i, wait] of waits.entries()) {
      const row = rows()[0]!;
      expect(row.status).toBe('pending');
      expect(row.nextAttemptAt!.getTime() - clock).toBe(wait);
      clock += wait - 1;
      await delivery.runDue();
      expect(rows()[0]!.attempts, 'not due a millisecond early').toBe(i + 1);
      clock += 1;
      await delivery.runDue();
      expect(rows()[0]!.attempts).toBe(i + 2);
    }
    const last = rows()[0]!;
    expect(last).toMatchObject({ status: 'failed', attempts: 5 });
    expect(last.lastError).toMatch(/not connected yet/);
    clock += 10 * 3_600_000;
    await delivery.runDue();
    expect(haCalls).toHaveLength(5);
    const health = (await delivery.channels()).homeAssistant.health;
    expect(health).toMatchObject({ pending: 0, lastError: expect.stringMatching(/not connected/) });
  });

  it('keeps no timer while nothing is pending, and wakes for a pending retry when it is due', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    try {
      const { notifications, delivery } = setup();
      await delivery.updateChannels({ homeAssistant: { enabled: true } });
      const stop = delivery.start();
      // An idle hub: the worker's first pass found nothing and set no timer to look again.
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(0));
      haFails = true;
      notifications.notify({ userId: 1, category: 'security', title: 'new device' });
      await vi.waitFor(() => expect(rows()[0]!.attempts).toBe(1));
      // One retry pending in 30 s: one timer, at most the poll interval (5 s) away.
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
      await vi.advanceTimersByTimeAsync(5_000);
      expect(rows()[0]!.attempts, 'not due yet').toBe(1);
      expect(vi.getTimerCount()).toBe(1);
      haFails = false;
      clock += 30_000;
      await vi.advanceTimersByTimeAsync(5_000);
      await vi.waitFor(() => expect(rows()[0]).toMatchObject({ status: 'sent', attempts: 2 }));
      // Sent: nothing pending, no timer.
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(0));
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a retry that succeeds clears the error', async () => {
    const { notifications, delivery } = setup();
    await delivery.updateChannels({ homeAssistant: { enabled: true } });
    haFails = true;
    notifications.notify({ userId: 1, category: 'security', title: 'new device' });
    await vi.waitFor(() => expect(rows()[0]!.attempts).toBe(1));
    haFails = false;
    clock += 30_000;
    await delivery.runDue();
    expect(rows()[0]).toMatchObject({ status: 'sent', attempts: 2, lastError: null, nextAttemptAt: null });
    expect((await delivery.channels()).homeAssistant.health.lastError).toBeNull();
  });
});
