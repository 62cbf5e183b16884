import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveServerMessageSchema, type LiveServerMessage } from '../../contract/live.js';
import { openDatabase, type DbHandle } from '../../db/client.js';
import { createLiveHub, type LiveSocket } from '../../live/hub.js';
import { createAuthRepository } from '../auth/auth.repository.js';
import { publishNotifications } from './notifications.live.js';
import { createNotificationService } from './notifications.service.js';

class FakeSocket extends EventEmitter implements LiveSocket {
  sent: LiveServerMessage[] = [];
  bufferedAmount = 0;
  send(data: string) {
    this.sent.push(liveServerMessageSchema.parse(JSON.parse(data)));
  }
  close() {}
  ping() {}
  terminate() {}
}

const log = pino({ level: 'silent' });
const subscribe = (topic: string) => JSON.stringify({ type: 'subscribe', topic });
let dir: string;
let handle: DbHandle;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-notify-'));
  handle = openDatabase(dir);
  const users = createAuthRepository(handle.db);
  users.create({ name: 'Ada', email: 'ada@example.com', passwordHash: 'x' });
  users.create({ name: 'Ben', email: 'ben@example.com', passwordHash: 'x' });
});
afterEach(() => {
  handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('live notifications', () => {
  it("pushes a user's notifications to that user only, and broadcasts to everyone", () => {
    const hub = createLiveHub({ log });
    const notifications = createNotificationService({ db: handle.db, log });
    publishNotifications(notifications, hub);
    const ada = new FakeSocket();
    const ben = new FakeSocket();
    const adaConnection = hub.connect(ada, { id: 1, role: 'superadmin' });
    const benConnection = hub.connect(ben, { id: 2, role: 'user' });
    adaConnection.receive(subscribe('notifications.user.1'));
    adaConnection.receive(subscribe('notifications.all'));
    benConnection.receive(subscribe('notifications.all'));
    // Someone else's topic, and the bare prefix, are refused.
    benConnection.receive(subscribe('notifications.user.1'));
    benConnection.receive(subscribe('notifications'));
    expect(ben.sent.filter((m) => m.type === 'error')).toHaveLength(2);

    const mine = notifications.notify({ userId: 1, level: 'warning', title: 'Your password was reset' });
    const everyone = notifications.notify({ title: 'Hub updated', link: '/system-updates' });

    const events = (socket: FakeSocket) =>
      socket.sent.filter((m) => m.type === 'event').map((m) => (m as { topic: string }).topic);
    expect(events(ada)).toEqual(['notifications.user.1', 'notifications.all']);
    expect(events(ben)).toEqual(['notifications.all']);
    expect(ada.sent.find((m) => m.type === 'event')).toMatchObject({ data: mine });
    expect(ben.sent.find((m) => m.type === 'event')).toMatchObject({ data: everyone });
  });
});
