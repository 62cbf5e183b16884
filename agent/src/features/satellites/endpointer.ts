/**
 * Where a spoken command ends, decided while the audio streams in: a wyoming-satellite after its
 * wake word sends bare audio chunks and keeps streaming until the hub answers, so the hub (as Home
 * Assistant does) must say "that was it". Energy-based, in 10 ms frames: a frame is speech when it
 * is well above the room's noise floor (tracked as the stream goes); the command ends after enough
 * speech followed by enough silence, or at the length limits.
 */

export interface EndpointerOptions {
  /** Speech needed before silence may end the command. */
  minSpeechMs: number;
  /** Silence after speech that ends the command. */
  silenceMs: number;
  /** The longest command; the stream is cut here. */
  maxMs: number;
  /** Nothing said by then: give up (the flow's VAD stage then reports no speech). */
  noSpeechMs: number;
}

export const DEFAULT_ENDPOINTER: EndpointerOptions = {
  minSpeechMs: 300,
  silenceMs: 700,
  maxMs: 15_000,
  noSpeechMs: 8_000,
};

export type EndpointReason = 'silence' | 'max-length' | 'no-speech';

const FRAME_MS = 10;
/** A frame this far above the noise floor is speech… */
const SPEECH_ABOVE_FLOOR_DB = 12;
/** …and never when quieter than this (a silent room's floor can sit at the bottom of the scale). */
const SPEECH_MIN_DBFS = -50;
const FLOOR_MIN_DBFS = -90;
/** The floor follows quieter frames at once and louder ones slowly (0.1 dB per frame). */
const FLOOR_RISE_DB = 0.1;
/**
 * Where the floor starts: a quiet room through a satellite's microphone. Not the first frame's
 * level, because people often speak straight after the wake word and that would count as the room.
 */
const FLOOR_START_DBFS = -60;

export function createEndpointer(
  format: { rate: number; width: number; channels: number },
  options: Partial<EndpointerOptions> = {},
) {
  const opts = { ...DEFAULT_ENDPOINTER, ...options };
  const frameBytes = format.width * format.channels;
  const samplesPerFrame = Math.max(1, Math.round((format.rate * FRAME_MS) / 1000));
  const full = 2 ** (8 * format.width - 1);
  let floor = FLOOR_START_DBFS;
  let frames = 0;
  let speechFrames = 0;
  let silenceFrames = 0;
  let sum = 0;
  let inFrame = 0;
  let ended: EndpointReason | null = null;

  /** First channel only: a satellite's mic is mono (or its channels carry the same voice). */
  function sample(pcm: Buffer, at: number): number {
    if (format.width === 2) return pcm.readInt16LE(at);
    if (format.width === 1) return pcm[at]! - 128;
    return pcm.readIntLE(at, format.width);
  }

  function endFrame() {
    const rms = Math.sqrt(sum / inFrame) / full;
    const db = Math.max(FLOOR_MIN_DBFS, 20 * Math.log10(rms || 1e-9));
    sum = 0;
    inFrame = 0;
    frames++;
    if (db < floor) floor = db;
    else floor += FLOOR_RISE_DB;
    const speech = db >= SPEECH_MIN_DBFS && db >= floor + SPEECH_ABOVE_FLOOR_DB;
    if (speech) {
      speechFrames++;
      silenceFrames = 0;
    } else silenceFrames++;
    const ms = frames * FRAME_MS;
    if (speechFrames * FRAME_MS >= opts.minSpeechMs && silenceFrames * FRAME_MS >= opts.silenceMs)
      ended = 'silence';
    else if (ms >= opts.maxMs) ended = 'max-length';
    else if (speechFrames * FRAME_MS < opts.minSpeechMs && ms >= opts.noSpeechMs) ended = 'no-speech';
  }

  return {
    /** Feeds a chunk; returns why the command ended with it, or null while it goes on. */
    push(pcm: Buffer): EndpointReason | null {
      if (ended) return ended;
      const usable = pcm.length - (pcm.length % frameBytes);
      for (let at = 0; at < usable; at += frameBytes) {
        const v = sample(pcm, at);
        sum += v * v;
        if (++inFrame === samplesPerFrame) {
          endFrame();
          if (ended) return ended;
        }
      }
      return null;
    },
    get speechMs() {
      return speechFrames * FRAME_MS;
    },
    get durationMs() {
      return frames * FRAME_MS;
    },
  };
}
