import { describe, expect, it } from 'vitest';
import { LIVE_CLOSE_CODES, LIVE_RECONNECT_BACKOFF_MS } from '@nexus/agent/contract';
import { LiveClient, liveUrl, reconnectDelay } from './live';
import { fakeSockets } from './live.testing';

/** Timers the test fires by hand, in due order. */
class ManualTimers {
  now = 0;
  private next = 1;
  pending = new Map<number, { at: number; fn: () => void }>();
  set = (fn: () => void, ms: number) => {
    const id = this.next++;
    this.pending.set(id, { at: this.now + ms, fn });
    return id;
  };
  clear = (handle: unknown) => {
    this.pending.delete(handle as number);
  };
  /** Delays of the timers now pending, soonest first. */
  delays(): number[] {
    return [...this.pending.values()].map((t) => t.at - this.now).sort((a, b) => a - b);
  }
  advance(ms: number) {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.pending.entries()]
        .filter(([, t]) => t.at <= until)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
    }
    this.now = until;
  }
}

function setup(options: { random?: () => number; idleCloseMs?: number } = {}) {
  const { sockets, createSocket } = fakeSockets();
  const timers = new ManualTimers();
  let sessionEnded = 0;
  const client = new LiveClient({
    url: 'ws://hub.local/api/live',
    createSocket,
    random: options.random ?? (() => 0.5),
    setTimer: timers.set,
    clearTimer: timers.clear,
    idleCloseMs: options.idleCloseMs ?? 5_000,
    onSessionEnded: () => (sessionEnded += 1),
  });
  return { client, sockets, timers, last: () => sockets.at(-1)!, sessionEnded: () => sessionEnded };
}

describe('reconnectDelay', () => {
  const backoff = { initial: 1_000, max: 30_000 };

  it.each([
    // attempt, random, expected: the ceiling doubles 1, 2, 4, 8, 16 s and stops at 30 s; the wait is its upper half.
    [0, 0, 500],
    [0, 0.999_999, 1_000],
    [1, 0, 1_000],
    [2, 0.5, 3_000],
    [3, 0, 4_000],
    [4, 1, 16_000],
    [5, 0, 15_000],
    [5, 1, 30_000],
    [40, 0.5, 22_500],
  ])('attempt %i with random %d waits %i ms', (attempt, random, expected) => {
    expect(reconnectDelay(attempt, backoff, () => random)).toBe(expected);
  });

  it('never exceeds the cap nor falls under half of it once capped', () => {
    for (let attempt = 0; attempt < 30; attempt++) {
      for (const r of [0, 0.25, 0.5, 0.75, 0.999]) {
        const delay = reconnectDelay(attempt, LIVE_RECONNECT_BACKOFF_MS, () => r);
        expect(delay).toBeLessThanOrEqual(LIVE_RECONNECT_BACKOFF_MS.max);
        expect(delay).toBeGreaterThanOrEqual(LIVE_RECONNECT_BACKOFF_MS.initial / 2);
      }
    }
  });
});

describe('liveUrl', () => {
  it('follows the page: ws on http, wss on https', () => {
    expect(liveUrl({ protocol: 'http:', host: 'nexus.local:8080' })).toBe('ws://nexus.local:8080/api/live');
    expect(liveUrl({ protocol: 'https:', host: 'hub.example.com' })).toBe('wss://hub.example.com/api/live');
  });
});

describe('LiveClient subscriptions', () => {
  it('opens one socket for many listeners and subscribes each topic once', () => {
    const { client, sockets, last } = setup();
    const a: unknown[] = [];
    const b: unknown[] = [];
    client.subscribe('metrics', (d) => a.push(d));
    client.subscribe('metrics', (d) => b.push(d));
    client.subscribe('docker.logs.abc', () => {});
    expect(sockets).toHaveLength(1);
    expect(client.state).toBe('connecting');

    last().open();
    expect(client.state).toBe('open');
    expect(last().sent).toEqual([
      { type: 'subscribe', topic: 'metrics' },
      { type: 'subscribe', topic: 'docker.logs.abc' },
    ]);
    expect(client.listenerCount('metrics')).toBe(2);

    last().receive({ type: 'event', topic: 'metrics', data: { cpu: 12 } });
    last().receive({ type: 'event', topic: 'other', data: 1 });
    expect(a).toEqual([{ cpu: 12 }]);
    expect(b).toEqual([{ cpu: 12 }]);
  });

  it('unsubscribes from the agent only when the last listener of a topic leaves', () => {
    const { client, last } = setup();
    const first = client.subscribe('metrics', () => {});
    const second = client.subscribe('metrics', () => {});
    last().open();
    last().sent = [];

    first();
    first(); // a second call must not release the other listener
    expect(last().sent).toEqual([]);
    expect(client.listenerCount('metrics')).toBe(1);

    second();
    expect(last().sent).toEqual([{ type: 'unsubscribe', topic: 'metrics' }]);
    expect(client.topics).toEqual([]);
  });

  it('subscribes a topic added while the socket is open straight away, and not before it opens', () => {
    const { client, last } = setup();
    client.subscribe('metrics', () => {});
    expect(last().sent).toEqual([]);
    last().open();
    client.subscribe('ha.entities', () => {});
    expect(last().sent).toEqual([
      { type: 'subscribe', topic: 'metrics' },
      { type: 'subscribe', topic: 'ha.entities' },
    ]);
  });

  it('keeps the socket through a quick unsubscribe/subscribe and closes it when idle', () => {
    const { client, sockets, timers, last } = setup({ idleCloseMs: 5_000 });
    const off = client.subscribe('metrics', () => {});
    last().open();
    off();
    client.subscribe('metrics', () => {});
    timers.advance(10_000);
    expect(sockets).toHaveLength(1);
    expect(last().closedWith).toBeUndefined();

    client.dispose();
    expect(last().closedWith).toBe(1000);
    expect(client.state).toBe('idle');

    const again = client.subscribe('metrics', () => {});
    sockets[1]!.open();
    again();
    timers.advance(4_999);
    expect(sockets[1]!.closedWith).toBeUndefined();
    timers.advance(1);
    expect(sockets[1]!.closedWith).toBe(1000);
    expect(client.state).toBe('idle');
  });

  it('records a topic the agent refuses', () => {
    const { client, last } = setup();
    client.subscribe('nope', () => {});
    last().open();
    last().receive({ type: 'error', topic: 'nope', message: 'Unknown topic: nope' });
    expect(client.topicError('nope')).toBe('Unknown topic: nope');
  });

  it('ignores frames that are not the agent protocol', () => {
    const { client, last } = setup();
    const seen: unknown[] = [];
    client.subscribe('metrics', (d) => seen.push(d));
    last().open();
    last().onmessage?.({ data: 'not json' });
    last().receive({ type: 'mystery', topic: 'metrics' });
    last().onmessage?.({ data: new ArrayBuffer(2) });
    expect(seen).toEqual([]);
  });
});

describe('LiveClient confirms subscriptions', () => {
  it('tells a listener each time the agent confirms its topic, first and after a reconnect', () => {
    const { client, timers, last } = setup({ random: () => 0 });
    const confirmed: string[] = [];
    client.subscribe('metrics', () => {}, { onSubscribed: () => confirmed.push('metrics') });
    client.subscribe('ha.entities', () => {}, { onSubscribed: () => confirmed.push('ha.entities') });
    last().open();
    // Sent, not yet confirmed: events published meanwhile do not reach the tab.
    expect(confirmed).toEqual([]);
    last().receive({ type: 'subscribed', topic: 'metrics' });
    expect(confirmed).toEqual(['metrics']);
    last().receive({ type: 'subscribed', topic: 'ha.entities' });
    expect(confirmed).toEqual(['metrics', 'ha.entities']);

    last().drop();
    timers.advance(timers.delays()[0]!);
    last().open();
    last().receive({ type: 'subscribed', topic: 'metrics' });
    expect(confirmed).toEqual(['metrics', 'ha.entities', 'metrics']);
  });

  it('does not call a listener that has let go, nor one refused the topic', () => {
    const { client, last } = setup();
    const confirmed: string[] = [];
    const stop = client.subscribe('metrics', () => {}, { onSubscribed: () => confirmed.push('metrics') });
    client.subscribe('nope', () => {}, { onSubscribed: () => confirmed.push('nope') });
    last().open();
    stop();
    last().receive({ type: 'subscribed', topic: 'metrics' });
    last().receive({ type: 'error', topic: 'nope', message: 'Unknown topic: nope' });
    expect(confirmed).toEqual([]);
  });
});

describe('LiveClient reconnects', () => {
  it('backs off exponentially with jitter while the agent stays away, and resubscribes on return', () => {
    const { client, sockets, timers, last } = setup({ random: () => 0 });
    client.subscribe('metrics', () => {});
    client.subscribe('ha.entities', () => {});
    last().open();
    last().receive({ type: 'subscribed', topic: 'metrics' });

    // The agent goes away; each failed attempt doubles the wait (random 0 → half the ceiling).
    last().drop();
    expect(client.state).toBe('reconnecting');
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      waits.push(timers.delays()[0]!);
      timers.advance(timers.delays()[0]!);
      last().drop();
    }
    expect(waits).toEqual([500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000]);
    expect(sockets).toHaveLength(8);

    // It comes back: the new socket subscribes to every topic again.
    timers.advance(timers.delays()[0]!);
    last().open();
    expect(client.state).toBe('open');
    expect(last().sent).toEqual([
      { type: 'subscribe', topic: 'metrics' },
      { type: 'subscribe', topic: 'ha.entities' },
    ]);

    // Once the agent answers, the next drop starts the back-off from the beginning.
    last().receive({ type: 'subscribed', topic: 'metrics' });
    last().drop();
    expect(timers.delays()).toEqual([500]);
  });

  it('does not reset the back-off for an agent that accepts and closes without answering', () => {
    const { client, timers, last } = setup({ random: () => 0 });
    client.subscribe('metrics', () => {});
    last().drop();
    timers.advance(500);
    last().open();
    last().drop();
    expect(timers.delays()).toEqual([1_000]);
  });

  it('jitter spreads the waits between half the ceiling and the ceiling', () => {
    for (const [random, expected] of [
      [0, 500],
      [0.5, 750],
      [0.99, 995],
    ] as const) {
      const { client, timers, last } = setup({ random: () => random });
      client.subscribe('metrics', () => {});
      last().drop();
      expect(timers.delays()).toEqual([expected]);
    }
  });

  it('stops when the agent ends the session, and starts again for a new subscriber', () => {
    const { client, sockets, timers, last, sessionEnded } = setup();
    const off = client.subscribe('metrics', () => {});
    last().open();
    last().drop(LIVE_CLOSE_CODES.sessionEnded);
    expect(client.state).toBe('session-ended');
    expect(sessionEnded()).toBe(1);
    timers.advance(60_000);
    expect(sockets).toHaveLength(1);

    off();
    client.subscribe('metrics', () => {});
    expect(sockets).toHaveLength(2);
  });

  it('does not reconnect after a drop when nobody listens any more', () => {
    const { client, sockets, timers, last } = setup();
    const off = client.subscribe('metrics', () => {});
    last().open();
    off();
    last().drop();
    expect(client.state).toBe('idle');
    timers.advance(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('a listener leaving during the back-off cancels nothing it should not', () => {
    const { client, sockets, timers, last } = setup({ random: () => 0 });
    const off = client.subscribe('metrics', () => {});
    last().open();
    last().drop();
    off();
    // The idle close cancels the pending reconnect.
    timers.advance(10_000);
    expect(sockets).toHaveLength(1);
    expect(client.state).toBe('idle');
  });
});
