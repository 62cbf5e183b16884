import net from 'node:net';
import { z } from 'zod';

/**
 * A client of the Wyoming protocol (rhasspy/wyoming), which Home Assistant's voice services speak
 * over TCP: faster-whisper for speech to text, Piper for text to speech. Every event is a JSON
 * header line `{type, data?, data_length?, payload_length?, version}\n`, then `data_length` bytes
 * of JSON merged over the header's `data`, then `payload_length` bytes of payload (PCM audio).
 * One connection per request, as Home Assistant's own client does: the services keep no state
 * between requests and a fresh socket cannot be left half-way through someone else's stream.
 */

/** The protocol version this client writes into its headers (the Python package's at the time). */
export const WYOMING_VERSION = '1.5.4';

export interface WyomingEvent {
  type: string;
  data: Record<string, unknown>;
  payload: Buffer | null;
}

export type WyomingErrorKind = 'unreachable' | 'timeout' | 'protocol' | 'service';

export class WyomingError extends Error {
  constructor(
    message: string,
    readonly kind: WyomingErrorKind,
  ) {
    super(message);
    this.name = 'WyomingError';
  }
}

export function encodeEvent(event: {
  type: string;
  data?: Record<string, unknown>;
  payload?: Buffer | null;
}) {
  const header: Record<string, unknown> = { type: event.type, version: WYOMING_VERSION };
  const parts: Buffer[] = [];
  let dataBytes: Buffer | null = null;
  if (event.data && Object.keys(event.data).length > 0) {
    dataBytes = Buffer.from(JSON.stringify(event.data), 'utf8');
    header.data_length = dataBytes.length;
  }
  if (event.payload && event.payload.length > 0) header.payload_length = event.payload.length;
  parts.push(Buffer.from(JSON.stringify(header) + '\n', 'utf8'));
  if (dataBytes) parts.push(dataBytes);
  if (event.payload && event.payload.length > 0) parts.push(event.payload);
  return Buffer.concat(parts);
}

const headerSchema = z.looseObject({
  type: z.string().min(1),
  data: z.record(z.string(), z.unknown()).nullish(),
  data_length: z.number().int().min(0).nullish(),
  payload_length: z.number().int().min(0).nullish(),
});

/** Past these a peer is not speaking Wyoming (or is hostile): better a clear error than a full heap. */
const MAX_HEADER_BYTES = 1024 * 1024;
const MAX_DATA_BYTES = 16 * 1024 * 1024;
export const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;

export interface WyomingParserLimits {
  headerBytes: number;
  dataBytes: number;
  payloadBytes: number;
  /** Who sent the stream, for the errors: "service" (default) or e.g. "satellite". */
  peer: string;
}

/**
 * Turns the bytes of a stream into events, whatever the reads' boundaries: a header split across
 * reads, several events in one read, a payload arriving in many pieces. Pieces are kept as a list
 * and joined once per section, so a large payload costs one copy.
 */
export class WyomingEventParser {
  private readonly limits: WyomingParserLimits;
  /** Tighter limits for peers that are not trusted (a satellite on the LAN); the defaults otherwise. */
  constructor(limits: Partial<WyomingParserLimits> = {}) {
    this.limits = {
      headerBytes: MAX_HEADER_BYTES,
      dataBytes: MAX_DATA_BYTES,
      payloadBytes: MAX_PAYLOAD_BYTES,
      peer: 'service',
      ...limits,
    };
  }
  private pieces: Buffer[] = [];
  private buffered = 0;
  private header: {
    type: string;
    data: Record<string, unknown>;
    dataLength: number;
    payloadLength: number;
  } | null = null;
  private data: Record<string, unknown> | null = null;

  push(chunk: Buffer): WyomingEvent[] {
    if (chunk.length > 0) {
      this.pieces.push(chunk);
      this.buffered += chunk.length;
    }
    const events: WyomingEvent[] = [];
    for (;;) {
      const event = this.next();
      if (!event) return events;
      events.push(event);
    }
  }

  /** Bytes received that do not yet make a whole event. */
  get pending(): number {
    return this.buffered;
  }

  private next(): WyomingEvent | null {
    if (!this.header) {
      const line = this.takeLine();
      if (line === null) return null;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line.toString('utf8'));
      } catch {
        throw new WyomingError(`The ${this.limits.peer} sent a header line that is not JSON`, 'protocol');
      }
      const header = headerSchema.safeParse(parsed);
      if (!header.success)
        throw new WyomingError(`The ${this.limits.peer} sent an event header without a type`, 'protocol');
      const dataLength = header.data.data_length ?? 0;
      const payloadLength = header.data.payload_length ?? 0;
      if (dataLength > this.limits.dataBytes)
        throw new WyomingError(`The ${this.limits.peer} sent event data that is too large`, 'protocol');
      if (payloadLength > this.limits.payloadBytes)
        throw new WyomingError(`The ${this.limits.peer} sent a payload that is too large`, 'protocol');
      this.header = {
        type: header.data.type,
        data: { ...(header.data.data ?? {}) },
        dataLength,
        payloadLength,
      };
    }
    const header = this.header;
    if (this.data === null) {
      if (header.dataLength > 0) {
        const bytes = this.take(header.dataLength);
        if (!bytes) return null;
        let extra: unknown;
        try {
          extra = JSON.parse(bytes.toString('utf8'));
        } catch {
          throw new WyomingError(
            `The ${this.limits.peer} sent ${header.type} data that is not JSON`,
            'protocol',
          );
        }
        if (typeof extra !== 'object' || extra === null || Array.isArray(extra))
          throw new WyomingError(
            `The ${this.limits.peer} sent ${header.type} data that is not an object`,
            'protocol',
          );
        this.data = { ...header.data, ...(extra as Record<string, unknown>) };
      } else {
        this.data = header.data;
      }
    }
    let payload: Buffer | null = null;
    if (header.payloadLength > 0) {
      payload = this.take(header.payloadLength);
      if (!payload) return null;
    }
    const event = { type: header.type, data: this.data, payload };
    this.header = null;
    this.data = null;
    return event;
  }

  private takeLine(): Buffer | null {
    let offset = 0;
    for (let i = 0; i < this.pieces.length; i++) {
      const piece = this.pieces[i]!;
      const at = piece.indexOf(0x0a);
      if (at >= 0) {
        const line = this.take(offset + at + 1)!;
        return line.subarray(0, line.length - 1);
      }
      offset += piece.length;
    }
    if (this.buffered > this.limits.headerBytes)
      throw new WyomingError(`The ${this.limits.peer} sent a header line that is too long`, 'protocol');
    return null;
  }

  private take(length: number): Buffer | null {
    if (this.buffered < length) return null;
    const joined = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces, this.buffered);
    const taken = joined.subarray(0, length);
    const rest = joined.subarray(length);
    this.pieces = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return taken;
  }
}

// ---- describe / info

const attributionSchema = z.looseObject({ name: z.string().catch(''), url: z.string().catch('') });
const artifactShape = {
  name: z.string(),
  description: z.string().nullish(),
  installed: z.boolean().catch(true),
  version: z.string().nullish(),
  attribution: attributionSchema.nullish(),
};
const modelSchema = z.looseObject({
  ...artifactShape,
  languages: z.array(z.string()).catch([]),
  speakers: z
    .array(z.looseObject({ name: z.string() }))
    .nullish()
    .catch(null),
});
const programSchema = z.looseObject({
  ...artifactShape,
  models: z.array(modelSchema).nullish().catch(null),
  /** Text-to-speech programs list voices instead of models. */
  voices: z.array(modelSchema).nullish().catch(null),
});
const infoSchema = z.looseObject({
  asr: z.array(programSchema).nullish(),
  tts: z.array(programSchema).nullish(),
  wake: z.array(programSchema).nullish(),
  handle: z.array(programSchema).nullish(),
  intent: z.array(programSchema).nullish(),
});

export const WYOMING_PROGRAM_KINDS = ['asr', 'tts', 'wake', 'handle', 'intent'] as const;
export type WyomingProgramKind = (typeof WYOMING_PROGRAM_KINDS)[number];

export interface WyomingModel {
  name: string;
  description: string | null;
  installed: boolean;
  languages: string[];
  speakers: string[];
}

export interface WyomingProgram {
  kind: WyomingProgramKind;
  name: string;
  description: string | null;
  installed: boolean;
  version: string | null;
  attribution: { name: string; url: string } | null;
  /** An ASR program's models, a TTS program's voices. */
  models: WyomingModel[];
}

function toPrograms(data: Record<string, unknown>): WyomingProgram[] {
  const parsed = infoSchema.safeParse(data);
  if (!parsed.success)
    throw new WyomingError('The service answered describe with an info it does not describe', 'protocol');
  const programs: WyomingProgram[] = [];
  for (const kind of WYOMING_PROGRAM_KINDS) {
    for (const p of parsed.data[kind] ?? []) {
      programs.push({
        kind,
        name: p.name,
        description: p.description ?? null,
        installed: p.installed,
        version: p.version ?? null,
        attribution: p.attribution ? { name: p.attribution.name, url: p.attribution.url } : null,
        models: [...(p.models ?? []), ...(p.voices ?? [])].map((m) => ({
          name: m.name,
          description: m.description ?? null,
          installed: m.installed,
          languages: m.languages,
          speakers: (m.speakers ?? []).map((s) => s.name),
        })),
      });
    }
  }
  return programs;
}

// ---- audio

/** Raw PCM as Wyoming streams it: little-endian signed samples, interleaved channels. */
export interface PcmAudio {
  pcm: Buffer;
  rate: number;
  /** Bytes per sample. */
  width: number;
  channels: number;
}

/** Samples per audio-chunk: Home Assistant and the satellites send 1024-sample chunks. */
export const SAMPLES_PER_CHUNK = 1024;

const audioFormatSchema = z.object({
  rate: z.number().int().min(1000).max(384_000),
  width: z.number().int().min(1).max(4),
  channels: z.number().int().min(1).max(8),
});

// ---- the connection

interface Connection {
  send(event: { type: string; data?: Record<string, unknown>; payload?: Buffer | null }): void;
  /** The next event from the service; rejects when it closes, fails or the deadline passes. */
  next(): Promise<WyomingEvent>;
}

export interface WyomingClientOptions {
  host: string;
  port: number;
  /** The whole exchange, from connecting to the last event. */
  timeoutMs?: number;
}

export function createWyomingClient(opts: WyomingClientOptions) {
  const where = `${opts.host}:${opts.port}`;
  const defaultTimeoutMs = opts.timeoutMs ?? 10_000;

  async function exchange<T>(timeoutMs: number, run: (conn: Connection) => Promise<T>): Promise<T> {
    const socket = net.createConnection({ host: opts.host, port: opts.port });
    socket.setNoDelay(true);
    const parser = new WyomingEventParser();
    const queue: WyomingEvent[] = [];
    let failure: WyomingError | null = null;
    let waiter: { resolve: (e: WyomingEvent) => void; reject: (e: Error) => void } | null = null;
    let connected = false;

    const fail = (error: WyomingError) => {
      if (failure) return;
      failure = error;
      socket.destroy();
      if (waiter) {
        const w = waiter;
        waiter = null;
        w.reject(error);
      }
    };
    const timer = setTimeout(
      () =>
        fail(
          new WyomingError(
            connected
              ? `The Wyoming service at ${where} did not finish within ${timeoutMs} ms`
              : `The Wyoming service at ${where} did not accept a connection within ${timeoutMs} ms`,
            'timeout',
          ),
        ),
      timeoutMs,
    );
    socket.on('connect', () => {
      connected = true;
    });
    socket.on('data', (chunk: Buffer) => {
      let events: WyomingEvent[];
      try {
        events = parser.push(chunk);
      } catch (error) {
        fail(error instanceof WyomingError ? error : new WyomingError(String(error), 'protocol'));
        return;
      }
      for (const event of events) {
        if (event.type === 'error') {
          const text = typeof event.data.text === 'string' ? event.data.text : 'unknown error';
          fail(new WyomingError(`The Wyoming service at ${where} reported an error: ${text}`, 'service'));
          return;
        }
        if (waiter) {
          const w = waiter;
          waiter = null;
          w.resolve(event);
        } else queue.push(event);
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      fail(
        new WyomingError(
          connected
            ? `The connection to the Wyoming service at ${where} failed (${error.code ?? error.message})`
            : `The Wyoming service at ${where} cannot be reached (${error.code ?? error.message})`,
          'unreachable',
        ),
      );
    });
    socket.on('close', () => {
      fail(
        new WyomingError(
          `The Wyoming service at ${where} closed the connection before answering`,
          'protocol',
        ),
      );
    });

    const conn: Connection = {
      send(event) {
        if (!failure) socket.write(encodeEvent(event));
      },
      next() {
        const queued = queue.shift();
        if (queued) return Promise.resolve(queued);
        if (failure) return Promise.reject(failure);
        return new Promise((resolve, reject) => {
          waiter = { resolve, reject };
        });
      },
    };
    try {
      return await run(conn);
    } finally {
      clearTimeout(timer);
      // Only our own end: the result is in, anything after it is not ours to read.
      failure ??= new WyomingError('Finished', 'protocol');
      socket.destroy();
    }
  }

  return {
    where,

    /** `describe` → `info`: the programs the service runs and their models or voices. */
    async describe(timeoutMs = defaultTimeoutMs): Promise<WyomingProgram[]> {
      return exchange(timeoutMs, async (conn) => {
        conn.send({ type: 'describe' });
        for (;;) {
          const event = await conn.next();
          if (event.type === 'info') return toPrograms(event.data);
        }
      });
    },

    /**
     * `transcribe`, then the audio as `audio-start`, 1024-sample `audio-chunk`s and `audio-stop`;
     * the answer is the `transcript` (streaming services may send partial events before it).
     */
    async transcribe(
      audio: PcmAudio,
      options: { model?: string; language?: string; timeoutMs?: number } = {},
    ): Promise<{ text: string; language: string | null }> {
      return exchange(options.timeoutMs ?? defaultTimeoutMs, async (conn) => {
        const format = { rate: audio.rate, width: audio.width, channels: audio.channels };
        const request: Record<string, unknown> = {};
        if (options.model) request.name = options.model;
        if (options.language) request.language = options.language;
        conn.send({ type: 'transcribe', data: request });
        conn.send({ type: 'audio-start', data: { ...format, timestamp: 0 } });
        const bytesPerChunk = SAMPLES_PER_CHUNK * audio.width * audio.channels;
        const bytesPerMs = (audio.rate * audio.width * audio.channels) / 1000;
        for (let at = 0; at < audio.pcm.length; at += bytesPerChunk) {
          conn.send({
            type: 'audio-chunk',
            data: { ...format, timestamp: Math.round(at / bytesPerMs) },
            payload: audio.pcm.subarray(at, at + bytesPerChunk),
          });
        }
        conn.send({ type: 'audio-stop', data: { timestamp: Math.round(audio.pcm.length / bytesPerMs) } });
        for (;;) {
          const event = await conn.next();
          if (event.type !== 'transcript') continue;
          if (typeof event.data.text !== 'string')
            throw new WyomingError('The service sent a transcript without text', 'protocol');
          return {
            text: event.data.text,
            language: typeof event.data.language === 'string' ? event.data.language : null,
          };
        }
      });
    },

    /** `synthesize` → `audio-start`, `audio-chunk`…, `audio-stop`: the spoken text as PCM. */
    async synthesize(
      text: string,
      options: { voice?: string; speaker?: string; timeoutMs?: number } = {},
    ): Promise<PcmAudio> {
      return exchange(options.timeoutMs ?? defaultTimeoutMs, async (conn) => {
        const request: Record<string, unknown> = { text };
        if (options.voice)
          request.voice = { name: options.voice, ...(options.speaker ? { speaker: options.speaker } : {}) };
        conn.send({ type: 'synthesize', data: request });
        let format: z.infer<typeof audioFormatSchema> | null = null;
        const pieces: Buffer[] = [];
        let total = 0;
        for (;;) {
          const event = await conn.next();
          if (event.type === 'audio-start' || (event.type === 'audio-chunk' && !format)) {
            const parsed = audioFormatSchema.safeParse(event.data);
            if (!parsed.success)
              throw new WyomingError(
                `The service sent ${event.type} without a usable audio format`,
                'protocol',
              );
            format = parsed.data;
          }
          if (event.type === 'audio-chunk' && event.payload) {
            total += event.payload.length;
            if (total > MAX_PAYLOAD_BYTES)
              throw new WyomingError('The synthesized audio is too long', 'protocol');
            pieces.push(event.payload);
          }
          if (event.type === 'audio-stop') {
            if (!format)
              throw new WyomingError('The service stopped the audio without starting it', 'protocol');
            return { pcm: Buffer.concat(pieces, total), ...format };
          }
        }
      });
    },
  };
}

export type WyomingClient = ReturnType<typeof createWyomingClient>;
