import net from 'node:net';
import { z } from 'zod';
import { WyomingError, WyomingEventParser, encodeEvent, type WyomingEvent } from './wyoming.js';

/**
 * The hub's side of a Wyoming satellite (rhasspy/wyoming-satellite on a Raspberry Pi), as Home
 * Assistant's Wyoming integration is: one long-lived TCP connection per satellite, `describe` →
 * `info` (its name, area, speaker format and, from wyoming 1.6, its wake words), then
 * `run-satellite` so it starts listening for its wake word. `ping` is answered with `pong`; the
 * hub pings too, so a peer that went silent (power cut, cable pulled) is noticed. When the
 * connection fails or closes, it is made again with exponential back-off.
 *
 * The satellite is untrusted LAN input: every event it may send is size-limited and a peer that
 * breaks the protocol is disconnected (and retried later), never able to grow the heap or throw
 * into the agent.
 */

export type SatelliteConnectionState = 'connecting' | 'connected' | 'disconnected';

export interface AudioFormat {
  rate: number;
  width: number;
  channels: number;
}

/** What `info.satellite` (and `info.wake`) says about the device. */
export interface SatelliteInfo {
  name: string | null;
  area: string | null;
  description: string | null;
  version: string | null;
  attribution: string | null;
  sndFormat: AudioFormat | null;
  /** The wake models it offers; wyoming 1.5 satellites do not list them. */
  wakeWords: string[];
}

/** A satellite's events are small: JSON of a few hundred bytes and 1024-sample audio chunks. */
export const SATELLITE_LIMITS = {
  headerBytes: 8 * 1024,
  dataBytes: 64 * 1024,
  /** 1024 samples of 4-byte, 8-channel audio, twice over; wyoming-satellite sends 2048 bytes. */
  payloadBytes: 64 * 1024,
};

export interface SatelliteTiming {
  /** wyoming-satellite may wait up to 2 s for its wake service before it answers describe. */
  describeTimeoutMs: number;
  connectTimeoutMs: number;
  /** First back-off after a failure; doubled each failure up to maxRetryMs, reset once connected. */
  retryMs: number;
  maxRetryMs: number;
  /** The hub pings a quiet satellite this often… */
  pingEveryMs: number;
  /** …and drops the connection after this long without any event from it. */
  silentAfterMs: number;
}

export const DEFAULT_SATELLITE_TIMING: SatelliteTiming = {
  describeTimeoutMs: 5_000,
  connectTimeoutMs: 5_000,
  retryMs: 1_000,
  maxRetryMs: 60_000,
  pingEveryMs: 10_000,
  silentAfterMs: 30_000,
};

const formatSchema = z.object({
  rate: z.number().int().min(1000).max(192_000),
  width: z.number().int().min(1).max(4),
  channels: z.number().int().min(1).max(8),
});

const text = (max: number) =>
  z
    .string()
    .transform((s) => s.trim().slice(0, max))
    .nullish()
    .catch(null);

const satelliteInfoSchema = z.looseObject({
  satellite: z
    .looseObject({
      name: text(80),
      area: text(120),
      description: text(120),
      version: text(40),
      attribution: z
        .looseObject({ name: text(120) })
        .nullish()
        .catch(null),
      snd_format: formatSchema.nullish().catch(null),
    })
    .nullish()
    .catch(null),
  wake: z
    .array(
      z.looseObject({
        models: z
          .array(z.looseObject({ name: z.string().max(100) }))
          .max(100)
          .nullish()
          .catch(null),
      }),
    )
    .max(20)
    .nullish()
    .catch(null),
});

/** `info` → what the hub keeps; null when the peer is not a satellite (no `satellite` object). */
export function parseSatelliteInfo(data: Record<string, unknown>): SatelliteInfo | null {
  const parsed = satelliteInfoSchema.safeParse(data);
  const sat = parsed.success ? parsed.data.satellite : null;
  if (!parsed.success || !sat) return null;
  const wakeWords = [
    ...new Set((parsed.data.wake ?? []).flatMap((p) => (p.models ?? []).map((m) => m.name.trim()))),
  ].filter(Boolean);
  const orNull = (s: string | null | undefined) => (s ? s : null);
  return {
    name: orNull(sat.name),
    area: orNull(sat.area),
    description: orNull(sat.description),
    version: orNull(sat.version),
    attribution: orNull(sat.attribution?.name),
    sndFormat: sat.snd_format ?? null,
    wakeWords,
  };
}

/** The audio format an audio-start/audio-chunk/run-pipeline names, or null when it names none (or a silly one). */
export function audioFormatOf(data: unknown): AudioFormat | null {
  const parsed = formatSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

export interface SatelliteConnectionHandlers {
  /** The connection's state, last error and next attempt changed. */
  onState(): void;
  /** A fresh `info` arrived (after connecting): the hub sends `run-satellite` or `pause-satellite` next. */
  onInfo(info: SatelliteInfo): void;
  /** Every other event the satellite sends (ping/pong and info are handled here). */
  onEvent(event: WyomingEvent): void;
  /** The connection went down (after having been up or not); `reason` says why in words. */
  onDown(reason: string): void;
}

export interface SatelliteConnection {
  readonly state: SatelliteConnectionState;
  readonly error: string | null;
  readonly nextRetryAt: number | null;
  readonly info: SatelliteInfo | null;
  /** Sends an event; false when not connected (nothing sent). */
  send(event: { type: string; data?: Record<string, unknown>; payload?: Buffer | null }): boolean;
  /** Closes for good: no more reconnects. */
  close(): void;
}

export function connectWyomingSatellite(opts: {
  host: string;
  port: number;
  handlers: SatelliteConnectionHandlers;
  timing?: Partial<SatelliteTiming>;
  now?: () => number;
}): SatelliteConnection {
  const timing = { ...DEFAULT_SATELLITE_TIMING, ...opts.timing };
  const now = opts.now ?? Date.now;
  const where = `${opts.host}:${opts.port}`;
  let state: SatelliteConnectionState = 'connecting';
  let error: string | null = null;
  let nextRetryAt: number | null = null;
  let info: SatelliteInfo | null = null;
  let socket: net.Socket | null = null;
  let ready = false;
  let closed = false;
  let backoff = timing.retryMs;
  let retryTimer: NodeJS.Timeout | null = null;
  let describeTimer: NodeJS.Timeout | null = null;
  let pingTimer: NodeJS.Timeout | null = null;
  let lastHeard = 0;
  let pings = 0;
  /** A peer that does not read what the hub writes would otherwise make the hub buffer without end. */
  const MAX_UNREAD_BYTES = 4 * 1024 * 1024;

  // A handler's bug must not take the connection (or the agent) down with it.
  const safely = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (err) {
      process.emitWarning(`wyoming satellite ${where}: ${what} handler failed: ${String(err)}`);
    }
  };
  const setState = (next: SatelliteConnectionState) => {
    state = next;
    safely('state', () => opts.handlers.onState());
  };

  function clearTimers() {
    if (describeTimer) clearTimeout(describeTimer);
    if (pingTimer) clearInterval(pingTimer);
    describeTimer = pingTimer = null;
  }

  function connect() {
    retryTimer = null;
    if (closed) return;
    nextRetryAt = null;
    ready = false;
    info = null;
    setState('connecting');
    const parser = new WyomingEventParser({ ...SATELLITE_LIMITS, peer: 'satellite' });
    const s = net.createConnection({ host: opts.host, port: opts.port });
    socket = s;
    s.setNoDelay(true);
    s.setKeepAlive(true, 10_000);
    s.setTimeout(timing.connectTimeoutMs);
    let down = false;
    const drop = (reason: string) => {
      if (down) return;
      down = true;
      clearTimers();
      s.destroy();
      if (socket === s) socket = null;
      const wasReady = ready;
      ready = false;
      error = reason;
      if (wasReady) backoff = timing.retryMs;
      safely('down', () => opts.handlers.onDown(reason));
      if (closed) return;
      nextRetryAt = now() + backoff;
      retryTimer = setTimeout(connect, backoff);
      retryTimer.unref();
      backoff = Math.min(backoff * 2, timing.maxRetryMs);
      setState('disconnected');
    };

    s.once('connect', () => {
      s.setTimeout(0);
      lastHeard = now();
      s.write(encodeEvent({ type: 'describe' }));
      describeTimer = setTimeout(
        () => drop(`No info from the satellite within ${timing.describeTimeoutMs / 1000} s of describe`),
        timing.describeTimeoutMs,
      );
      describeTimer.unref();
      pingTimer = setInterval(() => {
        if (now() - lastHeard > timing.silentAfterMs) {
          drop(`The satellite sent nothing for ${Math.round(timing.silentAfterMs / 1000)} s`);
          return;
        }
        if (now() - lastHeard >= timing.pingEveryMs)
          s.write(encodeEvent({ type: 'ping', data: { text: `nexus-${++pings}` } }));
      }, timing.pingEveryMs);
      pingTimer.unref();
    });
    s.on('timeout', () => drop(`Could not connect to ${where} within ${timing.connectTimeoutMs / 1000} s`));
    s.on('data', (chunk: Buffer) => {
      if (down) return;
      let events: WyomingEvent[];
      try {
        events = parser.push(chunk);
      } catch (err) {
        drop(err instanceof WyomingError ? err.message : 'The satellite sent something that is not Wyoming');
        return;
      }
      lastHeard = now();
      for (const event of events) {
        if (down) return;
        if (event.type === 'ping') {
          const pingText = typeof event.data.text === 'string' ? event.data.text.slice(0, 200) : undefined;
          s.write(encodeEvent({ type: 'pong', data: pingText !== undefined ? { text: pingText } : {} }));
          if (s.writableLength > MAX_UNREAD_BYTES) {
            drop('The satellite does not read what the hub sends');
            return;
          }
          continue;
        }
        if (event.type === 'pong') continue;
        if (event.type === 'info') {
          const parsed = parseSatelliteInfo(event.data);
          if (!parsed) {
            drop(`${where} answered describe, but not as a satellite (it may be a speech service)`);
            return;
          }
          if (describeTimer) clearTimeout(describeTimer);
          describeTimer = null;
          info = parsed;
          const first = !ready;
          ready = true;
          error = null;
          backoff = timing.retryMs;
          safely('info', () => opts.handlers.onInfo(parsed));
          if (first) setState('connected');
          continue;
        }
        // Before its info it is not a satellite yet: nothing else counts.
        if (ready) safely('event', () => opts.handlers.onEvent(event));
      }
    });
    s.on('error', (err: NodeJS.ErrnoException) =>
      drop(
        state === 'connecting' && !s.remoteAddress
          ? `Cannot reach ${where} (${err.code ?? err.message})`
          : `The connection to ${where} failed (${err.code ?? err.message})`,
      ),
    );
    s.on('close', () => drop(`The satellite at ${where} closed the connection`));
  }

  connect();

  return {
    get state() {
      return state;
    },
    get error() {
      return error;
    },
    get nextRetryAt() {
      return nextRetryAt;
    },
    get info() {
      return info;
    },
    send(event) {
      if (!socket || !ready || socket.destroyed) return false;
      if (socket.writableLength > MAX_UNREAD_BYTES) {
        socket.destroy(new Error('the satellite does not read what the hub sends'));
        return false;
      }
      socket.write(encodeEvent(event));
      return true;
    },
    close() {
      if (closed) return;
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      nextRetryAt = null;
      clearTimers();
      socket?.destroy();
      socket = null;
    },
  };
}
