import { SILENCE_DBFS, powerToDbfs } from './levels.js';
import { TARGET_SAMPLE_RATE } from './resample.js';

/*
 * A frame-energy voice activity detector with an adaptive noise floor. Frames of 20 ms every 10 ms
 * are ranked by energy; the quiet end of that ranking is the room, the loud end the voice. Speech
 * starts where a frame rises well over the room and lasts (with hysteresis and a short hangover)
 * until it falls back. Short gaps between words are bridged so a phrase is one segment. Zero
 * crossings pull in the weak fricatives ("s", "f") at a phrase's edges, which carry little energy.
 * It needs no model, so it works offline and costs about a millisecond per second of audio.
 */

export const VAD_FRAME_MS = 20;
export const VAD_HOP_MS = 10;
/** The room's level: this percentile of frame energies. */
export const VAD_NOISE_PERCENTILE = 10;
/** The voice's level: this percentile of frame energies. */
export const VAD_SPEECH_PERCENTILE = 95;
/** Quieter than this at its loudest, a take holds no speech whatever the room. */
export const VAD_MIN_SPEECH_DBFS = -55;
/** The voice must stand at least this far over the room to be told apart from it. */
export const VAD_MIN_DYNAMIC_RANGE_DB = 6;
/** Speech starts this far over the room (or this share of the voice-to-room range, if more)... */
export const VAD_ONSET_MARGIN_DB = 5;
export const VAD_ONSET_RANGE_SHARE = 0.3;
/** ...but never below this level, so a digitally silent room does not make hiss count as speech. */
export const VAD_ONSET_FLOOR_DBFS = -60;
/** Speech ends this much below the onset threshold (hysteresis). */
export const VAD_RELEASE_DB = 3;
/** Speech continues this long after falling under the threshold (the tail of a word). */
export const VAD_HANGOVER_MS = 80;
/** Gaps shorter than this between segments are pauses between words, not the end of speech. */
export const VAD_MERGE_GAP_MS = 300;
/** Segments shorter than this are clicks or bumps. */
export const VAD_MIN_SEGMENT_MS = 60;
/** A frame with this zero-crossing rate (per sample) and some energy over the room sounds like a fricative. */
export const VAD_FRICATIVE_ZCR = 0.3;
export const VAD_FRICATIVE_MARGIN_DB = 3;
/** At most this much is added at each edge of a segment for fricatives. */
export const VAD_FRICATIVE_MAX_MS = 150;

export interface SpeechSegment {
  startMs: number;
  endMs: number;
}

export interface SpeechDetection {
  segments: SpeechSegment[];
  speechMs: number;
  /** From the start to the first speech; the whole duration when there is no speech. */
  leadingSilenceMs: number;
  /** From the end of the last speech to the end; the whole duration when there is no speech. */
  trailingSilenceMs: number;
  /** Mean level of the frames outside speech (the room), or the low percentile when all is speech. */
  noiseFloorDbfs: number;
  /** Mean level of the frames inside speech; the silence floor when there is none. */
  speechDbfs: number;
  durationMs: number;
}

interface Frame {
  db: number;
  power: number;
  zcr: number;
}

export function detectSpeech(samples: Float32Array, sampleRate = TARGET_SAMPLE_RATE): SpeechDetection {
  const durationMs = (samples.length / sampleRate) * 1000;
  const frames = frameStats(samples, sampleRate);
  const none = (noiseFloorDbfs: number): SpeechDetection => ({
    segments: [],
    speechMs: 0,
    leadingSilenceMs: durationMs,
    trailingSilenceMs: durationMs,
    noiseFloorDbfs,
    speechDbfs: SILENCE_DBFS,
    durationMs,
  });
  if (frames.length === 0) return none(SILENCE_DBFS);

  const sorted = frames.map((frame) => frame.db).sort((a, b) => a - b);
  const roomDb = percentile(sorted, VAD_NOISE_PERCENTILE);
  const voiceDb = percentile(sorted, VAD_SPEECH_PERCENTILE);
  if (voiceDb < VAD_MIN_SPEECH_DBFS || voiceDb - roomDb < VAD_MIN_DYNAMIC_RANGE_DB) {
    return none(meanDb(frames));
  }
  const onset = Math.max(
    roomDb + Math.max(VAD_ONSET_MARGIN_DB, (voiceDb - roomDb) * VAD_ONSET_RANGE_SHARE),
    VAD_ONSET_FLOOR_DBFS,
  );
  const release = Math.max(onset - VAD_RELEASE_DB, roomDb + VAD_ONSET_MARGIN_DB / 2);

  const speech = hysteresis(frames, onset, release, Math.round(VAD_HANGOVER_MS / VAD_HOP_MS));
  let runs = toRuns(speech);
  runs = mergeRuns(runs, Math.round(VAD_MERGE_GAP_MS / VAD_HOP_MS));
  runs = runs.filter(
    ([start, end]) => (end - start) * VAD_HOP_MS + VAD_FRAME_MS - VAD_HOP_MS >= VAD_MIN_SEGMENT_MS,
  );
  runs = extendFricatives(runs, frames, roomDb + VAD_FRICATIVE_MARGIN_DB);
  if (runs.length === 0) return none(meanDb(frames));

  const inSpeech = new Uint8Array(frames.length);
  for (const [start, end] of runs) inSpeech.fill(1, start, end);
  let speechPower = 0;
  let speechCount = 0;
  let roomPower = 0;
  let roomCount = 0;
  frames.forEach((frame, index) => {
    if (inSpeech[index]) {
      speechPower += frame.power;
      speechCount++;
    } else {
      roomPower += frame.power;
      roomCount++;
    }
  });
  const segments = runs.map(([start, end]) => ({
    startMs: start * VAD_HOP_MS,
    endMs: Math.min(durationMs, (end - 1) * VAD_HOP_MS + VAD_FRAME_MS),
  }));
  const speechMs = segments.reduce((sum, segment) => sum + segment.endMs - segment.startMs, 0);
  return {
    segments,
    speechMs,
    leadingSilenceMs: segments[0]!.startMs,
    trailingSilenceMs: Math.max(0, durationMs - segments.at(-1)!.endMs),
    noiseFloorDbfs: roomCount > 0 ? powerToDbfs(roomPower / roomCount) : roomDb,
    speechDbfs: powerToDbfs(speechPower / speechCount),
    durationMs,
  };
}

/**
 * Signal-to-noise ratio of a detection in dB: the voice's power with the room's power taken out,
 * against the room. `undefined` when there is no speech.
 */
export function speechSnrDb(detection: SpeechDetection): number | undefined {
  if (detection.segments.length === 0) return undefined;
  const speechPower = 10 ** (detection.speechDbfs / 10);
  const roomPower = 10 ** (detection.noiseFloorDbfs / 10);
  const voicePower = Math.max(speechPower - roomPower, speechPower * 1e-3);
  return 10 * Math.log10(voicePower / roomPower);
}

/**
 * The speech with `paddingMs` of its surroundings kept on each side (engines want a little room
 * before and after the word). Returns an empty array when there is no speech.
 */
export function trimSilence(
  samples: Float32Array,
  sampleRate = TARGET_SAMPLE_RATE,
  options: { paddingMs?: number; detection?: SpeechDetection } = {},
): Float32Array {
  const detection = options.detection ?? detectSpeech(samples, sampleRate);
  if (detection.segments.length === 0) return new Float32Array(0);
  const paddingMs = options.paddingMs ?? 150;
  const toIndex = (ms: number) => Math.round((ms / 1000) * sampleRate);
  const start = Math.max(0, toIndex(detection.segments[0]!.startMs - paddingMs));
  const end = Math.min(samples.length, toIndex(detection.segments.at(-1)!.endMs + paddingMs));
  return samples.slice(start, end);
}

function frameStats(samples: Float32Array, sampleRate: number): Frame[] {
  const frameLength = Math.round((VAD_FRAME_MS / 1000) * sampleRate);
  const hop = Math.round((VAD_HOP_MS / 1000) * sampleRate);
  const frames: Frame[] = [];
  if (samples.length < frameLength) return frames;
  for (let start = 0; start + frameLength <= samples.length; start += hop) {
    let sumSquares = 0;
    let crossings = 0;
    let previous = samples[start]!;
    for (let i = start; i < start + frameLength; i++) {
      const value = samples[i]!;
      sumSquares += value * value;
      if (value >= 0 !== previous >= 0) crossings++;
      previous = value;
    }
    const power = sumSquares / frameLength;
    frames.push({ power, db: powerToDbfs(power), zcr: crossings / frameLength });
  }
  return frames;
}

function hysteresis(frames: Frame[], onset: number, release: number, hangoverFrames: number): Uint8Array {
  const speech = new Uint8Array(frames.length);
  let active = false;
  let hangover = 0;
  frames.forEach((frame, index) => {
    if (frame.db >= onset) {
      active = true;
      hangover = hangoverFrames;
    } else if (active && frame.db >= release) {
      hangover = hangoverFrames;
    } else if (active) {
      if (hangover > 0) hangover--;
      else active = false;
    }
    speech[index] = active ? 1 : 0;
  });
  return speech;
}

/** Runs of speech frames as [start, end) frame indexes. */
function toRuns(speech: Uint8Array): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i <= speech.length; i++) {
    const on = i < speech.length && speech[i] === 1;
    if (on && start < 0) start = i;
    if (!on && start >= 0) {
      runs.push([start, i]);
      start = -1;
    }
  }
  return runs;
}

function mergeRuns(runs: Array<[number, number]>, maxGapFrames: number): Array<[number, number]> {
  const merged: Array<[number, number]> = [];
  for (const run of runs) {
    const previous = merged.at(-1);
    if (previous && run[0] - previous[1] < maxGapFrames) previous[1] = run[1];
    else merged.push([run[0], run[1]]);
  }
  return merged;
}

function extendFricatives(
  runs: Array<[number, number]>,
  frames: Frame[],
  minDb: number,
): Array<[number, number]> {
  const maxFrames = Math.round(VAD_FRICATIVE_MAX_MS / VAD_HOP_MS);
  const isFricative = (index: number) =>
    index >= 0 &&
    index < frames.length &&
    frames[index]!.zcr >= VAD_FRICATIVE_ZCR &&
    frames[index]!.db >= minDb;
  return runs.map(([start, end], index) => {
    const floor = index > 0 ? runs[index - 1]![1] : 0;
    const ceiling = index < runs.length - 1 ? runs[index + 1]![0] : frames.length;
    let newStart = start;
    while (newStart > floor && start - newStart < maxFrames && isFricative(newStart - 1)) newStart--;
    let newEnd = end;
    while (newEnd < ceiling && newEnd - end < maxFrames && isFricative(newEnd)) newEnd++;
    return [newStart, newEnd];
  });
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.round((p / 100) * (sorted.length - 1))));
  return sorted[index]!;
}

function meanDb(frames: Frame[]): number {
  return powerToDbfs(frames.reduce((sum, frame) => sum + frame.power, 0) / frames.length);
}
