import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';

let agent: RunningAgent;
let owner: Client;
let member: Client;
let ownerId: number;
let memberId: number;

/** Other features create notifications through notify(); here the rows go straight into the agent's database. */
function insertNotification(row: { userId: number | null; title: string; level?: string; link?: string }) {
  const db = new Database(path.join(agent.dataDir, 'nexus.db'));
  try {
    return db
      .prepare(
        'insert into notifications (user_id, level, title, body, link, created_at) values (?, ?, ?, ?, ?, ?)',
      )
      .run(row.userId, row.level ?? 'info', row.title, `${row.title} body`, row.link ?? null, Date.now())
      .lastInsertRowid as number;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  agent = await startAgent();
  owner = new Client(agent.url);
  member = new Client(agent.url);
  ownerId = (
    await signUp(owner, { name: 'Ada Owner', email: 'ada@example.com', password: 'correct horse 1' })
  ).id;
  memberId = (
    await signUp(member, { name: 'Ben Member', email: 'ben@example.com', password: 'correct horse 2' })
  ).id;
});
afterAll(async () => {
  await agent?.stop();
});

describe('/api/notifications', () => {
  it('refuses signed-out callers', async () => {
    const res = await new Client(agent.url).get('/api/notifications');
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ message: expect.any(String) });
  });

  it('starts empty', async () => {
    const res = await owner.get('/api/notifications');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ notifications: [], unreadCount: 0 });
  });

  it("lists a user's own notifications and broadcasts, newest first, never another user's", async () => {
    const broadcast = insertNotification({ userId: null, title: 'Hub updated', level: 'success' });
    const forOwner = insertNotification({ userId: ownerId, title: 'For Ada', link: '/settings' });
    insertNotification({ userId: memberId, title: 'For Ben' });

    const res = await owner.get('/api/notifications');
    expect(res.status).toBe(200);
    expect(res.json.unreadCount).toBe(2);
    expect(res.json.notifications.map((n: { id: number }) => n.id)).toEqual([forOwner, broadcast]);
    expect(res.json.notifications[0]).toEqual({
      id: forOwner,
      level: 'info',
      category: 'system',
      title: 'For Ada',
      body: 'For Ada body',
      link: '/settings',
      broadcast: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      readAt: null,
      deliveries: [],
    });
    expect(res.json.notifications[1]).toMatchObject({
      title: 'Hub updated',
      broadcast: true,
      level: 'success',
    });

    const ben = await member.get('/api/notifications');
    expect(ben.json.notifications.map((n: { title: string }) => n.title)).toEqual(['For Ben', 'Hub updated']);
  });

  it('keeps read state per person, also for broadcasts', async () => {
    const list = await owner.get('/api/notifications');
    const broadcast = list.json.notifications.find((n: { broadcast: boolean }) => n.broadcast);
    const read = await owner.post(`/api/notifications/${broadcast.id}/read`);
    expect(read.status).toBe(200);
    expect(read.json.notification).toMatchObject({ id: broadcast.id, readAt: expect.any(String) });

    // Reading again keeps the first time.
    const again = await owner.post(`/api/notifications/${broadcast.id}/read`);
    expect(again.json.notification.readAt).toBe(read.json.notification.readAt);

    expect((await owner.get('/api/notifications')).json.unreadCount).toBe(1);
    expect((await member.get('/api/notifications')).json.unreadCount).toBe(2);
  });

  it("answers 404 for another user's notification and 400 for a bad id", async () => {
    const ben = await member.get('/api/notifications');
    const bensOwn = ben.json.notifications.find((n: { title: string }) => n.title === 'For Ben');
    expect((await owner.post(`/api/notifications/${bensOwn.id}/read`)).status).toBe(404);
    expect((await owner.post('/api/notifications/999999/read')).status).toBe(404);
    const bad = await owner.post('/api/notifications/abc/read');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ message: expect.stringContaining('param') });
  });

  it('marks everything read at once', async () => {
    const res = await member.post('/api/notifications/read-all');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ marked: 2 });
    expect((await member.get('/api/notifications')).json.unreadCount).toBe(0);
    expect((await member.post('/api/notifications/read-all')).json).toEqual({ marked: 0 });
    // Ada's read state is her own.
    expect((await owner.get('/api/notifications')).json.unreadCount).toBe(1);
  });

  it('honours and validates the limit', async () => {
    for (let i = 0; i < 5; i++) insertNotification({ userId: ownerId, title: `Batch ${i}` });
    const res = await owner.get('/api/notifications?limit=3');
    expect(res.json.notifications).toHaveLength(3);
    expect(res.json.notifications[0].title).toBe('Batch 4');
    expect(res.json.unreadCount).toBe(6);
    expect((await owner.get('/api/notifications?limit=0')).status).toBe(400);
    expect((await owner.get('/api/notifications?limit=101')).status).toBe(400);
    expect((await owner.get('/api/notifications?limit=ten')).status).toBe(400);
  });
});
