import { SILENCE_DBFS } from './levels';

/*
 * Silence trimming before upload: 20 ms frames, the room's level from the quiet end of their
 * ranking, speech where frames rise well above it. The agent measures the take again with its own
 * detector; this only cuts what is clearly not the phrase.
 */
const FRAME_MS = 20;
const NOISE_PERCENTILE = 10;
const VOICE_PERCENTILE = 95;
/** Speech this far over the room (or a third of the way to the voice, if more). */
const MARGIN_DB = 6;
const MIN_VOICE_DBFS = -55;
const MIN_RANGE_DB = 6;

export interface TrimResult {
  samples: Float32Array;
  /** Where the kept part starts and ends in the original take. */
  startMs: number;
  endMs: number;
  speech: boolean;
}

function frameDbfs(samples: Float32Array, frameLength: number): number[] {
  const out: number[] = [];
  for (let start = 0; start + frameLength <= samples.length; start += frameLength) {
    let sum = 0;
    for (let i = start; i < start + frameLength; i++) sum += samples[i]! * samples[i]!;
    const power = sum / frameLength;
    out.push(power > 0 ? Math.max(SILENCE_DBFS, 10 * Math.log10(power)) : SILENCE_DBFS);
  }
  return out;
}

/** Keeps the speech with `paddingMs` around it; the whole take, marked speech: false, when none is found. */
export function trimSilence(samples: Float32Array, sampleRate: number, paddingMs = 250): TrimResult {
  const durationMs = (samples.length / sampleRate) * 1000;
  const whole: TrimResult = { samples, startMs: 0, endMs: durationMs, speech: false };
  const frameLength = Math.round((FRAME_MS / 1000) * sampleRate);
  const levels = frameDbfs(samples, frameLength);
  if (levels.length === 0) return whole;
  const sorted = [...levels].sort((a, b) => a - b);
  const room = sorted[Math.floor(((sorted.length - 1) * NOISE_PERCENTILE) / 100)]!;
  const voice = sorted[Math.floor(((sorted.length - 1) * VOICE_PERCENTILE) / 100)]!;
  if (voice < MIN_VOICE_DBFS || voice - room < MIN_RANGE_DB) return whole;
  const threshold = Math.max(room + Math.max(MARGIN_DB, (voice - room) / 3), -60);
  const first = levels.findIndex((level) => level >= threshold);
  const last = levels.length - 1 - [...levels].reverse().findIndex((level) => level >= threshold);
  const startMs = Math.max(0, first * FRAME_MS - paddingMs);
  const endMs = Math.min(durationMs, (last + 1) * FRAME_MS + paddingMs);
  const toIndex = (ms: number) => Math.round((ms / 1000) * sampleRate);
  return { samples: samples.slice(toIndex(startMs), toIndex(endMs)), startMs, endMs, speech: true };
}
