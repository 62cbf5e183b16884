import {
  connectWyomingSatellite,
  audioFormatOf,
  type AudioFormat,
  type SatelliteConnection,
  type SatelliteInfo,
  type SatelliteTiming,
} from '../../adapters/wyoming-satellite.js';
import { SAMPLES_PER_CHUNK, type WyomingEvent } from '../../adapters/wyoming.js';
import { NO_SATELLITE_CONTROLS, type SatelliteControlInput } from '../../contract/satellites.js';
import { decodeWav, resample } from '../../lib/audio/index.js';
import { HttpError } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import { createEndpointer, type EndpointReason, type EndpointerOptions } from './endpointer.js';
import type { SatellitesRepository } from './satellites.repository.js';
import type { SatelliteRow } from './satellites.table.js';
import type { SatelliteLiveView, WyomingSatelliteManager } from './sources.js';

/**
 * What the manager needs of the flows feature, by shape (features do not import each other):
 * the voice flow that lists a satellite, and a run recorded while its audio still streams in.
 */
export interface SatelliteVoiceRuns {
  voiceFlowForSatellite(satelliteId: number): { id: number; name: string } | null;
  startStreamedVoiceRun(
    satellite: { id: number; name: string },
    flowId: number,
    hooks: { onTranscript?: (text: string) => void; onSpeech?: (wav: Buffer) => void },
  ): {
    runId: number;
    supply(wav: Buffer): void;
    fail(reason: string): void;
    done: Promise<{ status: string; error: string | null; transcript: string | null }>;
  };
}

/** lastSeenAt is written to the database at most this often per satellite (it is read from memory between). */
const LAST_SEEN_WRITE_MS = 30_000;
/** A satellite that stops sending audio mid-command for this long ends the run. */
const AUDIO_GAP_MS = 5_000;
/** The most audio one command may hold, whatever its format says (15 s of 16 kHz mono is 480 KB). */
const MAX_COMMAND_BYTES = 8 * 1024 * 1024;
/** After the last chunk of an answer, how long the satellite may take to say `played` beyond its length. */
const PLAYED_GRACE_MS = 5_000;

interface Stream {
  run: ReturnType<SatelliteVoiceRuns['startStreamedVoiceRun']>;
  collecting: boolean;
  format: AudioFormat | null;
  pieces: Buffer[];
  bytes: number;
  endpointer: ReturnType<typeof createEndpointer> | null;
  voiceStarted: boolean;
  /** transcript or error sent: the satellite stops streaming. */
  answered: boolean;
  speech: Buffer | null;
  sndFormat: AudioFormat | null;
  gapTimer: NodeJS.Timeout | null;
}

interface Link {
  id: number;
  host: string;
  port: number;
  name: string;
  conn: SatelliteConnection;
  /** The wake word of its last detection. */
  wakeWord: string | null;
  stream: Stream | null;
  lastSeen: number | null;
  lastSeenWritten: number;
  played: (() => void) | null;
}

const str = (v: unknown, max = 100) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null);

/** Raw PCM → a WAV file as it is (RIFF header + data), the clip the flow's VAD stage reads. */
export function pcmToWavFile(pcm: Buffer, format: AudioFormat): Buffer {
  const frame = format.width * format.channels;
  const data = pcm.subarray(0, pcm.length - (pcm.length % frame));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(format.channels, 22);
  header.writeUInt32LE(format.rate, 24);
  header.writeUInt32LE(format.rate * frame, 28);
  header.writeUInt16LE(frame, 32);
  header.writeUInt16LE(format.width * 8, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A WAV (what TTS gives) → 16-bit PCM in the satellite's speaker format when it names one. */
function wavToPcm16(wav: Buffer, target: AudioFormat | null): { pcm: Buffer; format: AudioFormat } {
  const decoded = decodeWav(wav);
  const rate = target?.rate ?? decoded.sampleRate;
  const channels = target?.channels ?? 1;
  const samples = resample(decoded.samples, decoded.sampleRate, rate);
  const pcm = Buffer.alloc(samples.length * 2 * channels);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.max(-1, Math.min(1, samples[i]!));
    const int = v < 0 ? Math.round(v * 32768) : Math.round(v * 32767);
    for (let c = 0; c < channels; c++) pcm.writeInt16LE(int, (i * channels + c) * 2);
  }
  return { pcm, format: { rate, width: 2, channels } };
}

/**
 * The hub as a Wyoming client of every Wyoming satellite an admin added (one connection each,
 * adapters/wyoming-satellite.ts), and the voice runs started by their wake words: the audio they
 * stream after `run-pipeline` is collected until the hub's endpointer says the command ended, the
 * active voice flow listing the satellite runs on it (recorded like any run), the transcript goes
 * back as `transcript` (which stops the satellite streaming) and the run's spoken answer as
 * `audio-start`/`audio-chunk`/`audio-stop`.
 */
export function createWyomingSatelliteManager(deps: {
  repository: SatellitesRepository;
  log: Logger;
  flows?: SatelliteVoiceRuns;
  /** The hub's TTS engine: text → WAV. Rejects with HttpError 409 when none is configured. */
  synthesize?: (text: string) => Promise<Buffer>;
  timing?: Partial<SatelliteTiming>;
  endpointer?: Partial<EndpointerOptions>;
  now?: () => number;
}): WyomingSatelliteManager {
  const now = deps.now ?? Date.now;
  const log = deps.log;
  const links = new Map<number, Link>();
  const listeners: Array<() => void> = [];
  let stopped = false;

  const changed = () => {
    for (const listener of listeners) {
      try {
        listener();
      } catch (err) {
        log.warn({ err }, 'wyoming satellites: a change listener failed');
      }
    }
  };

  function send(link: Link, type: string, data?: Record<string, unknown>, payload?: Buffer) {
    return link.conn.send({ type, data, payload });
  }

  function seen(link: Link) {
    const at = now();
    link.lastSeen = at;
    if (at - link.lastSeenWritten < LAST_SEEN_WRITE_MS) return;
    link.lastSeenWritten = at;
    deps.repository.update(link.id, { lastSeenAt: new Date(at) });
  }

  // ---- info

  function onInfo(link: Link, info: SatelliteInfo) {
    const row = deps.repository.get(link.id);
    if (!row) return;
    const changes: Parameters<SatellitesRepository['update']>[1] = {};
    // The admin gave no name (the row carries the host): the satellite's own name fills in.
    if (info.name && row.name === row.host && row.name !== info.name) changes.name = info.name;
    if (info.version && info.version !== row.firmwareVersion) changes.firmwareVersion = info.version;
    const model = info.description && info.description !== info.name ? info.description : 'Wyoming satellite';
    if (model !== row.model) changes.model = model;
    if (info.attribution && info.attribution !== row.manufacturer) changes.manufacturer = info.attribution;
    changes.lastSeenAt = new Date(now());
    link.lastSeen = now();
    link.lastSeenWritten = now();
    const updated = deps.repository.update(link.id, changes) ?? row;
    link.name = updated.name;
    // As Home Assistant does: a muted satellite stays paused across reconnects.
    send(link, updated.muted ? 'pause-satellite' : 'run-satellite');
    log.info(
      { satelliteId: link.id, name: link.name, version: info.version, muted: updated.muted },
      'wyoming satellite connected',
    );
    changed();
  }

  // ---- voice runs

  function endStream(link: Link, stream: Stream, reason: string) {
    if (stream.gapTimer) clearTimeout(stream.gapTimer);
    stream.gapTimer = null;
    if (link.stream === stream) link.stream = null;
    if (stream.collecting) {
      stream.collecting = false;
      stream.run.fail(reason);
      changed();
    }
  }

  function armGapTimer(link: Link, stream: Stream) {
    if (stream.gapTimer) clearTimeout(stream.gapTimer);
    stream.gapTimer = setTimeout(() => {
      const reason = `Satellite ${link.name} stopped sending audio for ${AUDIO_GAP_MS / 1000} s`;
      endStream(link, stream, reason);
      if (!stream.answered) {
        stream.answered = true;
        send(link, 'error', { text: reason, code: 'audio-timeout' });
      }
    }, AUDIO_GAP_MS);
    stream.gapTimer.unref();
  }

  function refuse(link: Link, text: string, code: string) {
    log.warn({ satelliteId: link.id, name: link.name, code }, `wyoming satellite: ${text}`);
    send(link, 'error', { text, code });
  }

  function onRunPipeline(link: Link, data: Record<string, unknown>) {
    if (link.stream) endStream(link, link.stream, `Satellite ${link.name} started another command`);
    const startStage = str(data.start_stage, 20) ?? 'asr';
    if (startStage !== 'asr') {
      refuse(
        link,
        `The hub takes commands from the speech-to-text stage on; this satellite asked to start at ${startStage} (give it a wake word service)`,
        'unsupported-stage',
      );
      return;
    }
    if (!deps.flows) {
      refuse(link, 'Voice flows are not available on this hub', 'no-flow');
      return;
    }
    const flow = deps.flows.voiceFlowForSatellite(link.id);
    if (!flow) {
      refuse(
        link,
        `No active voice flow lists satellite ${link.name}: add it to a voice flow's trigger in FlowForge`,
        'no-flow',
      );
      return;
    }
    const stream: Stream = {
      run: null as unknown as Stream['run'],
      collecting: true,
      format: null,
      pieces: [],
      bytes: 0,
      endpointer: null,
      voiceStarted: false,
      answered: false,
      speech: null,
      sndFormat: audioFormatOf(data.snd_format) ?? link.conn.info?.sndFormat ?? null,
      gapTimer: null,
    };
    try {
      stream.run = deps.flows.startStreamedVoiceRun({ id: link.id, name: link.name }, flow.id, {
        onTranscript: (text) => {
          if (stream.answered) return;
          stream.answered = true;
          send(link, 'transcript', { text });
        },
        onSpeech: (wav) => {
          stream.speech = wav;
        },
      });
    } catch (err) {
      refuse(link, err instanceof HttpError ? err.message : 'The voice flow could not start', 'run-refused');
      if (!(err instanceof HttpError))
        log.error({ err, satelliteId: link.id }, 'wyoming satellite: run not started');
      return;
    }
    link.stream = stream;
    armGapTimer(link, stream);
    log.info(
      { satelliteId: link.id, flowId: flow.id, runId: stream.run.runId },
      'wyoming satellite: command',
    );
    changed();
    void stream.run.done.then(
      (run) => finishRun(link, stream, run),
      (err: unknown) => {
        log.error({ err, satelliteId: link.id }, 'wyoming satellite: run failed to record');
        finishRun(link, stream, { status: 'failed', error: 'The run broke off', transcript: null });
      },
    );
  }

  function finishRun(
    link: Link,
    stream: Stream,
    run: { status: string; error: string | null; transcript: string | null },
  ) {
    endStream(link, stream, 'The run ended');
    if (links.get(link.id) !== link) return;
    if (!stream.answered) {
      stream.answered = true;
      if (run.status === 'succeeded') send(link, 'transcript', { text: run.transcript ?? '' });
      else send(link, 'error', { text: run.error ?? 'The voice flow failed', code: 'run-failed' });
    }
    if (stream.speech) {
      play(link, stream.speech, stream.sndFormat).catch((err: unknown) =>
        log.warn({ err, satelliteId: link.id }, 'wyoming satellite: the answer could not be played'),
      );
    }
  }

  function endpoint(link: Link, stream: Stream, reason: EndpointReason | 'audio-stop') {
    stream.collecting = false;
    if (stream.gapTimer) clearTimeout(stream.gapTimer);
    stream.gapTimer = null;
    send(link, 'voice-stopped', { timestamp: stream.endpointer?.durationMs ?? 0 });
    if (!stream.format || stream.bytes === 0) {
      stream.run.fail(`Satellite ${link.name} sent no audio`);
    } else {
      stream.run.supply(pcmToWavFile(Buffer.concat(stream.pieces, stream.bytes), stream.format));
    }
    stream.pieces = [];
    log.debug({ satelliteId: link.id, reason, bytes: stream.bytes }, 'wyoming satellite: command ended');
    changed();
  }

  function onAudioChunk(link: Link, event: WyomingEvent) {
    const stream = link.stream;
    // After the endpoint it keeps streaming until the transcript: those chunks are not wanted.
    if (!stream?.collecting || !event.payload) return;
    const format = audioFormatOf(event.data);
    if (
      !format ||
      (stream.format &&
        (format.rate !== stream.format.rate ||
          format.width !== stream.format.width ||
          format.channels !== stream.format.channels))
    ) {
      const reason = `Satellite ${link.name} sent audio ${format ? 'that changed format mid-command' : 'without a usable format'}`;
      endStream(link, stream, reason);
      stream.answered = true;
      send(link, 'error', { text: reason, code: 'bad-audio' });
      return;
    }
    if (!stream.format) {
      stream.format = format;
      stream.endpointer = createEndpointer(format, deps.endpointer);
    }
    stream.pieces.push(event.payload);
    stream.bytes += event.payload.length;
    armGapTimer(link, stream);
    const ended = stream.endpointer!.push(event.payload);
    if (!stream.voiceStarted && stream.endpointer!.speechMs > 0 && ended === null) {
      stream.voiceStarted = true;
      send(link, 'voice-started', { timestamp: stream.endpointer!.durationMs });
    }
    if (ended) endpoint(link, stream, ended);
    else if (stream.bytes >= MAX_COMMAND_BYTES) endpoint(link, stream, 'max-length');
  }

  // ---- playback

  /** Streams a WAV to the satellite's speaker; resolves when it says `played` (or the wait runs out). */
  async function play(link: Link, wav: Buffer, target: AudioFormat | null): Promise<boolean> {
    const { pcm, format } = wavToPcm16(wav, target);
    const bytesPerMs = (format.rate * format.width * format.channels) / 1000;
    const chunkBytes = SAMPLES_PER_CHUNK * format.width * format.channels;
    if (!send(link, 'audio-start', { ...format, timestamp: 0 })) return false;
    for (let at = 0; at < pcm.length; at += chunkBytes) {
      send(
        link,
        'audio-chunk',
        { ...format, timestamp: Math.round(at / bytesPerMs) },
        pcm.subarray(at, at + chunkBytes),
      );
    }
    const lengthMs = Math.round(pcm.length / bytesPerMs);
    send(link, 'audio-stop', { timestamp: lengthMs });
    link.played?.();
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        if (link.played === done) link.played = null;
        log.warn({ satelliteId: link.id }, 'wyoming satellite: no played after the answer');
        resolve(false);
      }, lengthMs + PLAYED_GRACE_MS);
      timer.unref();
      const done = () => {
        clearTimeout(timer);
        if (link.played === done) link.played = null;
        resolve(true);
      };
      link.played = done;
    });
  }

  // ---- the connection's events

  function onEvent(link: Link, event: WyomingEvent) {
    seen(link);
    switch (event.type) {
      case 'detection':
        link.wakeWord = str(event.data.name) ?? link.wakeWord;
        break;
      case 'run-pipeline':
        onRunPipeline(link, event.data);
        break;
      case 'audio-chunk':
        onAudioChunk(link, event);
        break;
      case 'audio-stop':
        if (link.stream?.collecting) endpoint(link, link.stream, 'audio-stop');
        break;
      case 'played':
        link.played?.();
        break;
      case 'error': {
        const text = str(event.data.text, 300) ?? 'unknown error';
        log.warn({ satelliteId: link.id, text }, 'wyoming satellite reported an error');
        if (link.stream?.collecting)
          endStream(link, link.stream, `Satellite ${link.name} reported an error: ${text}`);
        break;
      }
      default:
        // Its other events (voice-started, satellite-connected, timers…) change nothing here.
        break;
    }
  }

  function open(row: SatelliteRow): Link {
    const link: Link = {
      id: row.id,
      host: row.host!,
      port: row.port!,
      name: row.name,
      conn: null as unknown as SatelliteConnection,
      wakeWord: null,
      stream: null,
      lastSeen: row.lastSeenAt?.getTime() ?? null,
      lastSeenWritten: 0,
      played: null,
    };
    link.conn = connectWyomingSatellite({
      host: link.host,
      port: link.port,
      timing: deps.timing,
      now,
      handlers: {
        onState: changed,
        onInfo: (info) => onInfo(link, info),
        onEvent: (event) => onEvent(link, event),
        onDown: (reason) => {
          if (link.stream) {
            const streaming = link.stream.collecting;
            endStream(link, link.stream, `Satellite ${link.name} disconnected while streaming (${reason})`);
            if (streaming) log.warn({ satelliteId: link.id, reason }, 'wyoming satellite left mid-command');
          }
          link.played?.();
          if (!stopped && links.get(link.id) === link)
            log.info({ satelliteId: link.id, reason }, 'wyoming satellite disconnected');
        },
      },
    });
    return link;
  }

  function close(link: Link, reason: string) {
    if (link.stream) endStream(link, link.stream, reason);
    link.conn.close();
  }

  function linkFor(row: SatelliteRow): Link | null {
    return links.get(row.id) ?? null;
  }

  function statusReason(link: Link | null, at: number): string | null {
    if (!link) return 'Not connected';
    const { conn } = link;
    if (conn.state === 'connected') return null;
    if (conn.state === 'connecting') return `Connecting to ${link.host}:${link.port}`;
    const retry = conn.nextRetryAt
      ? `; retrying in ${Math.max(0, Math.ceil((conn.nextRetryAt - at) / 1000))} s`
      : '';
    return `${conn.error ?? 'Disconnected'}${retry}`;
  }

  return {
    sync(rows) {
      if (stopped) return;
      const wanted = new Map(rows.filter((r) => r.host && r.port).map((r) => [r.id, r]));
      for (const [id, link] of links) {
        const row = wanted.get(id);
        if (!row || row.host !== link.host || row.port !== link.port) {
          links.delete(id);
          close(link, `Satellite ${link.name} was removed while streaming`);
        } else link.name = row.name;
      }
      for (const row of wanted.values()) if (!links.has(row.id)) links.set(row.id, open(row));
    },

    view(row) {
      const link = linkFor(row);
      const at = now();
      const info = link?.conn.info ?? null;
      const connected = link?.conn.state === 'connected';
      const lastSeen = Math.max(link?.lastSeen ?? 0, row.lastSeenAt?.getTime() ?? 0);
      return {
        name: row.name,
        status: connected ? 'online' : 'offline',
        statusReason: statusReason(link, at),
        signalStrength: null,
        activeWakeWord: link?.wakeWord ?? info?.wakeWords[0] ?? row.activeWakeWord,
        lastSeen: lastSeen ? new Date(lastSeen).toISOString() : null,
        room: row.room ?? info?.area ?? null,
        ipAddress: row.host,
        firmwareVersion: info?.version ?? row.firmwareVersion,
        model: row.model,
        manufacturer: row.manufacturer,
        controls: { ...NO_SATELLITE_CONTROLS, mute: { value: row.muted }, announce: true },
        homeAssistant: null,
        wyoming: {
          host: row.host ?? '',
          port: row.port ?? 0,
          connection: link?.conn.state ?? 'disconnected',
          error: connected ? null : (link?.conn.error ?? null),
          nextRetryAt: connected ? null : (link?.conn.nextRetryAt ?? null),
          streaming: Boolean(link?.stream?.collecting),
          wakeWords: info?.wakeWords ?? [],
        },
      } satisfies SatelliteLiveView;
    },

    async control(row, input: SatelliteControlInput) {
      const link = linkFor(row);
      switch (input.action) {
        case 'mute': {
          deps.repository.update(row.id, { muted: input.value });
          if (link) {
            if (input.value && link.stream)
              endStream(link, link.stream, `Satellite ${row.name} was muted while streaming`);
            // Not connected: the muted flag is applied when it connects again.
            send(link, input.value ? 'pause-satellite' : 'run-satellite');
          }
          log.info({ satelliteId: row.id, muted: input.value }, 'wyoming satellite muted or unmuted');
          changed();
          return;
        }
        case 'announce': {
          if (!link || link.conn.state !== 'connected')
            throw new HttpError(
              409,
              `${row.name} is not connected${link?.conn.error ? `: ${link.conn.error}` : ''}`,
            );
          if (link.stream?.collecting)
            throw new HttpError(409, `${row.name} is listening to a command; try again in a moment`);
          if (!deps.synthesize)
            throw new HttpError(
              409,
              'Text to speech is not set up: an announcement needs the hub’s TTS engine',
            );
          const wav = await deps.synthesize(input.value);
          if (link.conn.state !== 'connected') throw new HttpError(409, `${row.name} disconnected`);
          // The request ends when the audio is sent; `played` is awaited (and logged) in the background.
          play(link, wav, link.conn.info?.sndFormat ?? null).catch((err: unknown) =>
            log.warn({ err, satelliteId: row.id }, 'wyoming satellite: the announcement could not be played'),
          );
          return;
        }
        case 'volume':
        case 'wake-word':
        case 'led':
        case 'restart': {
          const what = { volume: 'volume', 'wake-word': 'wake-word', led: 'LED', restart: 'restart' }[
            input.action
          ];
          throw new HttpError(
            409,
            `${row.name} is a Wyoming satellite: the Wyoming protocol has no ${what} control (set it on the device)`,
          );
        }
      }
    },

    onChange(listener) {
      listeners.push(listener);
    },

    stop() {
      stopped = true;
      for (const link of links.values()) close(link, 'The hub is stopping');
      links.clear();
    },
  };
}
