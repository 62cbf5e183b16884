import type { LiveServerMessage } from '../contract/live.js';
import { LIVE_CLOSE_CODES, liveClientMessageSchema } from '../contract/live.js';
import type { Logger } from '../lib/logger.js';

/** The user a socket belongs to, as far as the hub needs to know. */
export interface LiveUser {
  id: number;
  role: string;
}

/** What the hub needs from a WebSocket (the `ws` library's socket satisfies it). */
export interface LiveSocket {
  send(data: string): void;
  /** Bytes queued in the socket but not yet handed to the kernel. */
  readonly bufferedAmount: number;
  close(code?: number, reason?: string): void;
  ping(): void;
  terminate(): void;
  on(event: 'pong', listener: () => void): unknown;
}

export interface TopicOptions {
  /** Whether this user may subscribe to `topic`; any signed-in user by default. */
  allow?: (user: LiveUser, topic: string) => boolean;
  /** The first subscriber of a topic arrived (start producing), or the last one left (stop). */
  onActive?: (topic: string) => void;
  onIdle?: (topic: string) => void;
  /**
   * Snapshot topics (metrics, entity states) keep only the newest unsent event for a slow reader;
   * streams (logs) queue events and drop the oldest when the queue is full, telling the client.
   */
  latestOnly?: boolean;
}

export interface LiveHubOptions {
  log: Logger;
  /** Events a slow socket may have waiting before the oldest are dropped. */
  maxQueue?: number;
  /** Above this many unsent bytes a socket counts as slow and events wait in its queue. */
  highWaterBytes?: number;
  /** Ping interval; a socket that has not answered the previous ping is closed. */
  keepAliveMs?: number;
  maxSubscriptionsPerSocket?: number;
}

const FLUSH_RETRY_MS = 100;

interface Client {
  socket: LiveSocket;
  user: LiveUser;
  /** Re-checks the session; false closes the socket. */
  stillSignedIn: () => boolean;
  topics: Set<string>;
  queue: { topic: string; payload: string }[];
  latest: Map<string, string>;
  dropped: Map<string, number>;
  flushTimer: NodeJS.Timeout | null;
  alive: boolean;
  closed: boolean;
  /** Bytes handed to the socket so far, and how many of them had left it at the last keep-alive round. */
  queuedBytes: number;
  drainedAtCheck: number;
}

export interface LiveConnection {
  /** Hands over a text frame the browser sent. */
  receive(text: string): void;
  /** The socket closed. */
  close(): void;
}

/**
 * Topic publish/subscribe over the browsers' WebSockets. Features publish through `publish()`
 * without knowing who listens; each socket has a bounded queue so a slow tab cannot grow the
 * agent's memory.
 */
export function createLiveHub(opts: LiveHubOptions) {
  const maxQueue = opts.maxQueue ?? 256;
  const highWater = opts.highWaterBytes ?? 1024 * 1024;
  const keepAliveMs = opts.keepAliveMs ?? 30_000;
  const maxSubscriptions = opts.maxSubscriptionsPerSocket ?? 100;
  const topics = new Map<string, TopicOptions>();
  const subscribers = new Map<string, Set<Client>>();
  const clients = new Set<Client>();
  let keepAlive: NodeJS.Timeout | null = null;

  function topicOptions(topic: string): TopicOptions | undefined {
    let best: string | undefined;
    for (const prefix of topics.keys()) {
      if ((topic === prefix || topic.startsWith(`${prefix}.`)) && (!best || prefix.length > best.length)) {
        best = prefix;
      }
    }
    return best === undefined ? undefined : topics.get(best);
  }

  function sendNow(client: Client, payload: string) {
    try {
      client.socket.send(payload);
      client.queuedBytes += Buffer.byteLength(payload);
    } catch (err) {
      opts.log.debug({ err }, 'live: send failed');
    }
  }

  function reply(client: Client, message: LiveServerMessage) {
    sendNow(client, JSON.stringify(message));
  }

  function scheduleFlush(client: Client) {
    if (client.flushTimer || client.closed) return;
    client.flushTimer = setTimeout(() => {
      client.flushTimer = null;
      flush(client);
    }, FLUSH_RETRY_MS);
    client.flushTimer.unref();
  }

  function hasBacklog(client: Client) {
    return client.queue.length > 0 || client.latest.size > 0 || client.dropped.size > 0;
  }

  function flush(client: Client) {
    if (client.closed) return;
    for (const [topic, count] of client.dropped) {
      if (client.socket.bufferedAmount >= highWater) break;
      reply(client, { type: 'dropped', topic, count });
      client.dropped.delete(topic);
    }
    while (client.queue.length && client.socket.bufferedAmount < highWater) {
      sendNow(client, client.queue.shift()!.payload);
    }
    for (const [topic, payload] of client.latest) {
      if (client.socket.bufferedAmount >= highWater) break;
      sendNow(client, payload);
      client.latest.delete(topic);
    }
    if (hasBacklog(client)) scheduleFlush(client);
  }

  function deliver(client: Client, topic: string, payload: string, latestOnly: boolean) {
    if (!hasBacklog(client) && client.socket.bufferedAmount < highWater) {
      sendNow(client, payload);
      return;
    }
    if (latestOnly) {
      client.latest.set(topic, payload);
    } else {
      client.queue.push({ topic, payload });
      if (client.queue.length > maxQueue) {
        const oldest = client.queue.shift()!;
        client.dropped.set(oldest.topic, (client.dropped.get(oldest.topic) ?? 0) + 1);
      }
    }
    scheduleFlush(client);
  }

  function subscribe(client: Client, topic: string) {
    const options = topicOptions(topic);
    if (!options) return reply(client, { type: 'error', topic, message: `Unknown topic: ${topic}` });
    if (options.allow && !options.allow(client.user, topic)) {
      return reply(client, { type: 'error', topic, message: 'You do not have permission to do this' });
    }
    if (!client.topics.has(topic)) {
      if (client.topics.size >= maxSubscriptions) {
        return reply(client, { type: 'error', topic, message: 'Too many subscriptions on this connection' });
      }
      client.topics.add(topic);
      let set = subscribers.get(topic);
      if (!set) subscribers.set(topic, (set = new Set()));
      set.add(client);
      if (set.size === 1) options.onActive?.(topic);
    }
    reply(client, { type: 'subscribed', topic });
  }

  function unsubscribe(client: Client, topic: string, quiet = false) {
    if (client.topics.delete(topic)) {
      const set = subscribers.get(topic);
      set?.delete(client);
      if (set && set.size === 0) {
        subscribers.delete(topic);
        topicOptions(topic)?.onIdle?.(topic);
      }
      client.latest.delete(topic);
    }
    if (!quiet) reply(client, { type: 'unsubscribed', topic });
  }

  function drop(client: Client) {
    if (client.closed) return;
    client.closed = true;
    for (const topic of [...client.topics]) unsubscribe(client, topic, true);
    if (client.flushTimer) clearTimeout(client.flushTimer);
    client.queue = [];
    client.latest.clear();
    clients.delete(client);
    if (clients.size === 0 && keepAlive) {
      clearInterval(keepAlive);
      keepAlive = null;
    }
  }

  function checkClients() {
    for (const client of clients) {
      // A slow reader's pong waits behind the data queued ahead of it. While the socket is backed up
      // and data still leaves it, the browser is reading, so it is not taken for dead. (Without a
      // backlog the kernel takes data whether or not anyone reads, so only the pong counts.)
      const drained = client.queuedBytes - client.socket.bufferedAmount;
      const backedUp = client.socket.bufferedAmount > 0 || hasBacklog(client);
      const reading = backedUp && drained > client.drainedAtCheck;
      client.drainedAtCheck = drained;
      if (!client.alive && !reading) {
        opts.log.debug({ userId: client.user.id }, 'live: no pong, closing');
        client.socket.terminate();
        drop(client);
        continue;
      }
      if (!client.stillSignedIn()) {
        client.socket.close(LIVE_CLOSE_CODES.sessionEnded, 'Session ended');
        drop(client);
        continue;
      }
      client.alive = false;
      try {
        client.socket.ping();
      } catch {
        // A socket that cannot be pinged is closed on the next round.
      }
    }
  }

  return {
    /** Declares a topic (or a prefix: `docker.logs` covers `docker.logs.<id>`) clients may subscribe to. */
    registerTopic(prefix: string, options: TopicOptions = {}) {
      topics.set(prefix, options);
    },

    hasSubscribers(topic: string): boolean {
      return (subscribers.get(topic)?.size ?? 0) > 0;
    },

    /** Sends `data` to every socket subscribed to `topic`; a no-op without subscribers. */
    publish(topic: string, data: unknown): void {
      const set = subscribers.get(topic);
      if (!set?.size) return;
      const payload = JSON.stringify({ type: 'event', topic, data } satisfies LiveServerMessage);
      const latestOnly = topicOptions(topic)?.latestOnly ?? false;
      for (const client of set) deliver(client, topic, payload, latestOnly);
    },

    /** Attaches an open socket of a signed-in user. */
    connect(socket: LiveSocket, user: LiveUser, stillSignedIn: () => boolean = () => true): LiveConnection {
      const client: Client = {
        socket,
        user,
        stillSignedIn,
        topics: new Set(),
        queue: [],
        latest: new Map(),
        dropped: new Map(),
        flushTimer: null,
        alive: true,
        closed: false,
        queuedBytes: 0,
        drainedAtCheck: 0,
      };
      socket.on('pong', () => {
        client.alive = true;
      });
      clients.add(client);
      if (!keepAlive) {
        keepAlive = setInterval(checkClients, keepAliveMs);
        keepAlive.unref();
      }
      return {
        receive(text) {
          if (client.closed) return;
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            return reply(client, { type: 'error', message: 'Messages must be JSON' });
          }
          const message = liveClientMessageSchema.safeParse(parsed);
          if (!message.success) {
            return reply(client, {
              type: 'error',
              message: `Invalid message: ${message.error.issues[0]?.message ?? 'unknown shape'}`,
            });
          }
          if (message.data.type === 'subscribe') subscribe(client, message.data.topic);
          else unsubscribe(client, message.data.topic);
        },
        close() {
          drop(client);
        },
      };
    },

    /** For diagnostics and tests. */
    stats() {
      return {
        connections: clients.size,
        topics: Object.fromEntries([...subscribers].map(([t, s]) => [t, s.size])),
      };
    },

    /** Closes every socket, e.g. on shutdown. */
    closeAll(code = 1001, reason = 'Server shutting down') {
      for (const client of [...clients]) {
        client.socket.close(code, reason);
        drop(client);
      }
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
/** What features get: publish and declare topics. */
export type LivePublisher = Pick<LiveHub, 'publish' | 'registerTopic' | 'hasSubscribers'>;
