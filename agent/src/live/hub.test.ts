import { EventEmitter } from 'node:events';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveServerMessageSchema, type LiveServerMessage } from '../contract/live.js';
import { createLiveHub, type LiveSocket } from './hub.js';

class FakeSocket extends EventEmitter implements LiveSocket {
  sent: LiveServerMessage[] = [];
  bufferedAmount = 0;
  closedWith: number | null = null;
  terminated = false;
  pings = 0;
  send(data: string) {
    this.sent.push(liveServerMessageSchema.parse(JSON.parse(data)));
  }
  close(code?: number) {
    this.closedWith = code ?? 1000;
  }
  ping() {
    this.pings++;
  }
  terminate() {
    this.terminated = true;
  }
  events(topic?: string) {
    return this.sent.filter((m) => m.type === 'event' && (!topic || m.topic === topic));
  }
}

const log = pino({ level: 'silent' });
const user = { id: 1, role: 'user' };
const subscribe = (topic: string) => JSON.stringify({ type: 'subscribe', topic });

afterEach(() => {
  vi.useRealTimers();
});

describe('live hub', () => {
  it('delivers events only to subscribers of the topic', () => {
    const hub = createLiveHub({ log });
    hub.registerTopic('metrics');
    hub.registerTopic('docker.logs');
    const a = new FakeSocket();
    const b = new FakeSocket();
    hub.connect(a, user).receive(subscribe('metrics'));
    hub.connect(b, user).receive(subscribe('docker.logs.abc'));
    expect(a.sent).toEqual([{ type: 'subscribed', topic: 'metrics' }]);
    expect(b.sent).toEqual([{ type: 'subscribed', topic: 'docker.logs.abc' }]);

    hub.publish('metrics', { cpu: 5 });
    hub.publish('docker.logs.abc', { line: 'tick' });
    hub.publish('docker.logs.other', { line: 'nobody' });
    expect(a.events()).toEqual([{ type: 'event', topic: 'metrics', data: { cpu: 5 } }]);
    expect(b.events()).toEqual([{ type: 'event', topic: 'docker.logs.abc', data: { line: 'tick' } }]);
  });

  it('answers bad messages, unknown topics and forbidden topics with an error, and keeps the socket', () => {
    const hub = createLiveHub({ log });
    hub.registerTopic('admin.only', { allow: (u) => u.role === 'admin' });
    const s = new FakeSocket();
    const conn = hub.connect(s, user);
    conn.receive('not json');
    conn.receive(JSON.stringify({ type: 'shout', topic: 'x' }));
    conn.receive(subscribe('nope'));
    conn.receive(subscribe('admin.only'));
    expect(s.sent.map((m) => m.type)).toEqual(['error', 'error', 'error', 'error']);
    expect(s.sent[2]).toMatchObject({ topic: 'nope', message: 'Unknown topic: nope' });
    expect(s.closedWith).toBeNull();
  });

  it('tells a topic when its first subscriber arrives and its last leaves', () => {
    const hub = createLiveHub({ log });
    const onActive = vi.fn();
    const onIdle = vi.fn();
    hub.registerTopic('docker.logs', { onActive, onIdle });
    const a = hub.connect(new FakeSocket(), user);
    const b = hub.connect(new FakeSocket(), user);
    a.receive(subscribe('docker.logs.c1'));
    b.receive(subscribe('docker.logs.c1'));
    expect(onActive).toHaveBeenCalledTimes(1);
    expect(onActive).toHaveBeenCalledWith('docker.logs.c1');
    a.receive(JSON.stringify({ type: 'unsubscribe', topic: 'docker.logs.c1' }));
    expect(onIdle).not.toHaveBeenCalled();
    b.close();
    expect(onIdle).toHaveBeenCalledWith('docker.logs.c1');
    expect(hub.hasSubscribers('docker.logs.c1')).toBe(false);
  });

  it('keeps only the newest snapshot for a slow reader of a latest-only topic', () => {
    vi.useFakeTimers();
    const hub = createLiveHub({ log, highWaterBytes: 1000 });
    hub.registerTopic('metrics', { latestOnly: true });
    const s = new FakeSocket();
    hub.connect(s, user).receive(subscribe('metrics'));
    s.bufferedAmount = 5000;
    for (let i = 0; i < 50; i++) hub.publish('metrics', { i });
    expect(s.events()).toHaveLength(0);
    s.bufferedAmount = 0;
    vi.advanceTimersByTime(150);
    expect(s.events()).toEqual([{ type: 'event', topic: 'metrics', data: { i: 49 } }]);
  });

  it('queues a stream for a slow reader, drops the oldest beyond the bound and says how many', () => {
    vi.useFakeTimers();
    const hub = createLiveHub({ log, highWaterBytes: 1000, maxQueue: 10 });
    hub.registerTopic('docker.logs');
    const s = new FakeSocket();
    hub.connect(s, user).receive(subscribe('docker.logs.c1'));
    s.bufferedAmount = 5000;
    for (let i = 0; i < 25; i++) hub.publish('docker.logs.c1', { i });
    s.bufferedAmount = 0;
    vi.advanceTimersByTime(150);
    expect(s.sent.find((m) => m.type === 'dropped')).toEqual({
      type: 'dropped',
      topic: 'docker.logs.c1',
      count: 15,
    });
    expect(s.events().map((m) => (m as { data: { i: number } }).data.i)).toEqual([
      15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
    ]);
  });

  it('pings, closes sockets that never answer, and closes sockets whose session ended', () => {
    vi.useFakeTimers();
    const hub = createLiveHub({ log, keepAliveMs: 1000 });
    const silent = new FakeSocket();
    const alive = new FakeSocket();
    const signedOut = new FakeSocket();
    let signedIn = true;
    hub.connect(silent, user);
    hub.connect(alive, user);
    hub.connect(signedOut, user, () => signedIn);
    vi.advanceTimersByTime(1000);
    expect(silent.pings).toBe(1);
    alive.emit('pong');
    signedOut.emit('pong');
    signedIn = false;
    vi.advanceTimersByTime(1000);
    expect(silent.terminated).toBe(true);
    expect(alive.terminated).toBe(false);
    expect(alive.pings).toBe(2);
    expect(signedOut.closedWith).toBe(4401);
    expect(hub.stats().connections).toBe(1);
  });

  it('keeps a slow reader whose pong is stuck behind data, as long as its backlog drains', () => {
    vi.useFakeTimers();
    const hub = createLiveHub({ log, keepAliveMs: 1000, highWaterBytes: 1000 });
    hub.registerTopic('docker.logs');
    const slow = new FakeSocket();
    hub.connect(slow, user).receive(subscribe('docker.logs.c1'));
    // Backed up: 5 KB unsent, and the pong never arrives in time.
    hub.publish('docker.logs.c1', { line: 'x'.repeat(100) });
    slow.bufferedAmount = 5000;
    vi.advanceTimersByTime(1000);
    slow.bufferedAmount = 3000;
    vi.advanceTimersByTime(1000);
    expect(slow.terminated).toBe(false);
    // No longer draining: now the missing pong counts.
    vi.advanceTimersByTime(1000);
    expect(slow.terminated).toBe(true);
  });

  it('bounds the subscriptions of one socket', () => {
    const hub = createLiveHub({ log, maxSubscriptionsPerSocket: 2 });
    hub.registerTopic('t');
    const s = new FakeSocket();
    const conn = hub.connect(s, user);
    conn.receive(subscribe('t.1'));
    conn.receive(subscribe('t.2'));
    conn.receive(subscribe('t.3'));
    expect(s.sent.at(-1)).toMatchObject({ type: 'error', topic: 't.3' });
  });
});
