import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import {
  LIVE_CLOSE_CODES,
  LIVE_PATH,
  LIVE_RECONNECT_BACKOFF_MS,
  type LiveClientMessage,
  type LiveServerMessage,
  type LiveTopicData,
} from '@nexus/agent/contract';
import {
  byKey,
  literal,
  object,
  optional,
  parseShape,
  positiveInteger,
  string,
  unknown,
  type Shape,
} from './answer-shape';
import { queryClient } from './query-client';

type Message<T extends LiveServerMessage['type']> = Extract<LiveServerMessage, { type: T }>;

/**
 * contract/live.ts liveServerMessageSchema, as a small shape (lib/answer-shape): the console's
 * frame opens the live channel without loading zod (issue 26).
 */
export const liveServerMessageShape: Shape<LiveServerMessage> = byKey<LiveServerMessage>('type', {
  event: object<Message<'event'>>({ type: literal('event'), topic: string, data: unknown }),
  subscribed: object<Message<'subscribed'>>({ type: literal('subscribed'), topic: string }),
  unsubscribed: object<Message<'unsubscribed'>>({ type: literal('unsubscribed'), topic: string }),
  error: object<Message<'error'>>({ type: literal('error'), topic: optional(string), message: string }),
  dropped: object<Message<'dropped'>>({ type: literal('dropped'), topic: string, count: positiveInteger }),
});

/**
 * The browser's end of the agent's live channel: ONE WebSocket per tab at /api/live, shared by
 * every screen. Screens subscribe to topics; the socket carries one `subscribe` per topic however
 * many components listen, reconnects with capped exponential back-off and jitter, and subscribes
 * again to everything after a reconnect.
 */

/** The parts of a browser WebSocket the client uses, so tests can hand in a fake. */
export interface LiveSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason?: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

const SOCKET_OPEN = 1;

/**
 * idle: no socket (nobody listens); connecting: the first attempt; open; reconnecting: waiting to
 * try again after a drop; session-ended: the agent closed the socket because the session ended,
 * so nothing reconnects until someone subscribes afresh.
 */
export type LiveConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'session-ended';

export type TopicData<T extends string> = T extends keyof LiveTopicData ? LiveTopicData[T] : unknown;

export interface Backoff {
  initial: number;
  max: number;
}

export interface LiveClientOptions {
  url: string | (() => string);
  createSocket?: (url: string) => LiveSocketLike;
  backoff?: Backoff;
  /** 0 ≤ x < 1; Math.random by default, fixed in tests. */
  random?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /**
   * How long the socket stays open after the last listener leaves: moving between screens
   * unsubscribes and subscribes again within a render, and should not cost a new handshake.
   */
  idleCloseMs?: number;
  onSessionEnded?: () => void;
}

/**
 * The wait before reconnect attempt `attempt` (0-based): the ceiling doubles from `initial` up to
 * `max`, and the wait is drawn from its upper half ("equal jitter") so tabs that lost the agent
 * together do not all come back in the same instant, yet none retries sooner than half the ceiling.
 */
export function reconnectDelay(attempt: number, backoff: Backoff, random: () => number): number {
  const ceiling = Math.min(backoff.max, backoff.initial * 2 ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** ws:// for a page served over http, wss:// over https, on the page's own host. */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${LIVE_PATH}`;
}

type Listener = (data: unknown) => void;
interface Subscription {
  listener: Listener;
  onSubscribed?: () => void;
}

export class LiveClient {
  private readonly subscriptions = new Map<string, Set<Subscription>>();
  private readonly topicErrors = new Map<string, string>();
  private readonly stateListeners = new Set<() => void>();
  private socket: LiveSocketLike | null = null;
  private reconnectTimer: unknown = null;
  private idleTimer: unknown = null;
  private attempt = 0;
  private currentState: LiveConnectionState = 'idle';
  private readonly backoff: Backoff;
  private readonly random: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly idleCloseMs: number;

  constructor(private readonly options: LiveClientOptions) {
    this.backoff = options.backoff ?? LIVE_RECONNECT_BACKOFF_MS;
    this.random = options.random ?? Math.random;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer =
      options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
    this.idleCloseMs = options.idleCloseMs ?? 5_000;
  }

  get state(): LiveConnectionState {
    return this.currentState;
  }

  /** How many listeners a topic has (the socket carries one subscription per topic regardless). */
  listenerCount(topic: string): number {
    return this.subscriptions.get(topic)?.size ?? 0;
  }

  /** The topics the socket should be subscribed to. */
  get topics(): string[] {
    return [...this.subscriptions.keys()];
  }

  /** The agent's refusal of a topic (unknown topic, not allowed), if any. */
  topicError(topic: string): string | undefined {
    return this.topicErrors.get(topic);
  }

  /** Number of reconnect attempts since the agent last answered. */
  get reconnectAttempt(): number {
    return this.attempt;
  }

  onStateChange(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /**
   * Listens to `topic` until the returned function is called (calling it twice is harmless).
   * `onSubscribed` runs each time the agent confirms the topic on a connection: the first time,
   * and again after every reconnect. Events published before then never reached this tab, so a
   * listener that keeps a list reads it again there (a listener added while the topic is already
   * confirmed has missed nothing and is not called).
   */
  subscribe<T extends string>(
    topic: T,
    listener: (data: TopicData<T>) => void,
    options: { onSubscribed?: () => void } = {},
  ): () => void {
    const subscription: Subscription = { listener: listener as Listener, onSubscribed: options.onSubscribed };
    let set = this.subscriptions.get(topic);
    const first = !set;
    if (!set) this.subscriptions.set(topic, (set = new Set()));
    set.add(subscription);
    this.cancelIdleClose();
    if (first) {
      this.topicErrors.delete(topic);
      if (this.socket?.readyState === SOCKET_OPEN) this.send({ type: 'subscribe', topic });
    }
    this.ensureConnected();

    let active = true;
    return () => {
      if (!active) return;
      active = false;
      this.release(topic, subscription);
    };
  }

  /** Closes the socket and forgets every listener (sign-out, tests). */
  dispose(): void {
    this.subscriptions.clear();
    this.cancelIdleClose();
    this.cancelReconnect();
    this.closeSocket();
    this.setState('idle');
  }

  private release(topic: string, subscription: Subscription) {
    const set = this.subscriptions.get(topic);
    if (!set?.delete(subscription) || set.size > 0) return;
    this.subscriptions.delete(topic);
    this.topicErrors.delete(topic);
    if (this.socket?.readyState === SOCKET_OPEN) this.send({ type: 'unsubscribe', topic });
    if (this.subscriptions.size === 0) this.scheduleIdleClose();
  }

  private ensureConnected() {
    if (this.socket || this.reconnectTimer !== null) return;
    this.connect();
  }

  private connect() {
    this.reconnectTimer = null;
    if (this.subscriptions.size === 0) {
      this.setState('idle');
      return;
    }
    const url = typeof this.options.url === 'function' ? this.options.url() : this.options.url;
    const create = this.options.createSocket ?? ((u: string) => new WebSocket(u) as LiveSocketLike);
    let socket: LiveSocketLike;
    try {
      socket = create(url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.setState(this.attempt === 0 ? 'connecting' : 'reconnecting');

    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.setState('open');
      for (const topic of this.subscriptions.keys()) this.send({ type: 'subscribe', topic });
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      this.handleMessage(event.data);
    };
    socket.onerror = () => {
      // A close event always follows; the reconnect is decided there.
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (event.code === LIVE_CLOSE_CODES.sessionEnded) {
        this.attempt = 0;
        this.setState('session-ended');
        this.options.onSessionEnded?.();
        return;
      }
      if (this.subscriptions.size === 0) {
        this.setState('idle');
        return;
      }
      this.scheduleReconnect();
    };
  }

  private handleMessage(raw: unknown) {
    if (typeof raw !== 'string') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return;
    }
    let message: LiveServerMessage;
    try {
      message = parseShape(liveServerMessageShape, parsed);
    } catch {
      return;
    }
    // The agent answered on this connection, so the next drop starts the back-off afresh. Resetting
    // on open alone would let an agent that accepts and at once closes be hammered every second.
    this.attempt = 0;
    if (message.type === 'event') {
      const set = this.subscriptions.get(message.topic);
      if (!set) return;
      for (const subscription of [...set]) subscription.listener(message.data);
    } else if (message.type === 'subscribed') {
      for (const subscription of [...(this.subscriptions.get(message.topic) ?? [])]) {
        subscription.onSubscribed?.();
      }
    } else if (message.type === 'error' && message.topic) {
      this.topicErrors.set(message.topic, message.message);
      this.emitState();
    }
  }

  private scheduleReconnect() {
    const delay = reconnectDelay(this.attempt, this.backoff, this.random);
    this.attempt += 1;
    this.setState('reconnecting');
    this.reconnectTimer = this.setTimer(() => this.connect(), delay);
  }

  private cancelReconnect() {
    if (this.reconnectTimer !== null) this.clearTimer(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private scheduleIdleClose() {
    this.cancelIdleClose();
    this.idleTimer = this.setTimer(() => {
      this.idleTimer = null;
      if (this.subscriptions.size > 0) return;
      this.cancelReconnect();
      this.closeSocket();
      this.attempt = 0;
      this.setState('idle');
    }, this.idleCloseMs);
  }

  private cancelIdleClose() {
    if (this.idleTimer !== null) this.clearTimer(this.idleTimer);
    this.idleTimer = null;
  }

  private closeSocket() {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    try {
      socket.close(1000, 'No listeners');
    } catch {
      // Closing a socket that never opened can throw in some browsers; it is dropped either way.
    }
  }

  private send(message: LiveClientMessage) {
    try {
      this.socket?.send(JSON.stringify(message));
    } catch {
      // The close event that follows a failed send schedules the reconnect.
    }
  }

  private setState(next: LiveConnectionState) {
    if (this.currentState === next) return;
    this.currentState = next;
    this.emitState();
  }

  private emitState() {
    for (const listener of [...this.stateListeners]) listener();
  }
}

let sharedClient: LiveClient | null = null;

/** The tab's one live client, created on first use. */
export function getLiveClient(): LiveClient {
  sharedClient ??= new LiveClient({
    url: () => liveUrl(window.location),
    // The agent closes the socket when the session ends; re-checking every query finds out who
    // is signed in now (the user check answers 401 and the console shows the sign-in screen).
    onSessionEnded: () => void queryClient.invalidateQueries(),
  });
  return sharedClient;
}

export interface UseLiveTopicOptions<T extends string> {
  /** false (e.g. while signed out) keeps the hook from subscribing. Default true. */
  enabled?: boolean;
  /** Called for every event, for screens that keep a history rather than the latest value. */
  onEvent?: (data: TopicData<T>) => void;
  /**
   * Called when the agent confirms the topic, first and after every reconnect: what was published
   * before then was missed, so a list kept from the events is read again here.
   */
  onSubscribed?: () => void;
  client?: LiveClient;
}

export interface LiveTopicResult<T extends string> {
  /** The newest event's data, undefined until the first arrives. */
  data: TopicData<T> | undefined;
  state: LiveConnectionState;
  /** Why the agent refused the topic, if it did. */
  error: string | undefined;
}

/** Subscribes the component to a live topic for as long as it is mounted (and enabled). */
export function useLiveTopic<T extends string>(
  topic: T,
  options: UseLiveTopicOptions<T> = {},
): LiveTopicResult<T> {
  const { enabled = true, onEvent, onSubscribed } = options;
  const client = options.client ?? getLiveClient();
  const [data, setData] = useState<TopicData<T> | undefined>(undefined);
  const onEventRef = useRef(onEvent);
  const onSubscribedRef = useRef(onSubscribed);
  useEffect(() => {
    onEventRef.current = onEvent;
    onSubscribedRef.current = onSubscribed;
  });

  useEffect(() => {
    if (!enabled) return;
    return client.subscribe(
      topic,
      (value) => {
        setData(() => value);
        onEventRef.current?.(value);
      },
      { onSubscribed: () => onSubscribedRef.current?.() },
    );
  }, [client, topic, enabled]);

  const state = useSyncExternalStore(
    (notify) => client.onStateChange(notify),
    () => client.state,
    () => 'idle' as const,
  );
  const error = useSyncExternalStore(
    (notify) => client.onStateChange(notify),
    () => client.topicError(topic),
    () => undefined,
  );
  return { data, state, error };
}
