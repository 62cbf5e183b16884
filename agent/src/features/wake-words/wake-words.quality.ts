import {
  decodeWav,
  detectSpeech,
  encodeWav16,
  measureLevels,
  resampleTo16kMono,
  speechSnrDb,
  TARGET_SAMPLE_RATE,
  type DecodedAudio,
} from '../../lib/audio/index.js';
import type { SampleQuality, Verdict } from '../../contract/wake-words.js';

/*
 * What makes a take good enough to train a wake-word model with. Our own thresholds, chosen from
 * what the engines' trainers tolerate: their augmentation adds noise and reverberation, so a clean
 * take helps most; clipping adds harmonics no real microphone in the room would make; a take that
 * starts or ends in the middle of the word teaches the model a cut-off word.
 */
/** Under this SNR the word drowns in the room: bad. */
export const BAD_SNR_DB = 10;
/** Under this SNR the room is noticeable: warning. */
export const WARNING_SNR_DB = 20;
/** Over this share of samples at full scale the take is distorted: bad. */
export const BAD_CLIPPING_PERCENT = 1;
/** Over this share the take is slightly distorted: warning. */
export const WARNING_CLIPPING_PERCENT = 0.1;
/** Less speech than this is a click or a cut-off word: bad. */
export const BAD_MIN_SPEECH_MS = 200;
/** More speech than this is more than a wake word: warning. */
export const WARNING_MAX_SPEECH_MS = 3000;
/** Speech quieter than this (mean over its frames): warning. */
export const WARNING_QUIET_SPEECH_DBFS = -40;
/** Less silence than this before or after the speech may have cut the word: warning. */
export const WARNING_MIN_EDGE_SILENCE_MS = 50;
/** More silence than this before or after the speech: warning (trim it, or record a shorter take). */
export const WARNING_MAX_EDGE_SILENCE_MS = 2000;
/** Longer takes than this are refused as bad: a wake-word take is a few seconds at most. */
export const BAD_MAX_DURATION_MS = 15_000;

export interface AnalysedSample {
  original: Pick<DecodedAudio, 'sampleRate' | 'channels' | 'bitsPerSample'>;
  /** The take as 16 kHz 16-bit mono WAV, what is stored and exported. */
  wav16k: Buffer;
  quality: SampleQuality;
}

/** Decodes, resamples and measures a take; throws HttpError 400/415 for what is not PCM WAV. */
export function analyseSample(body: Uint8Array): AnalysedSample {
  const decoded = decodeWav(body);
  // Clipping and peak on the samples as recorded: resampling smooths the flattened tops away.
  const levels = measureLevels(decoded.samples);
  const samples = resampleTo16kMono(decoded);
  const detection = detectSpeech(samples, TARGET_SAMPLE_RATE);
  const snr = speechSnrDb(detection);
  const measured = {
    durationMs: round(detection.durationMs, 0),
    rmsDbfs: round(levels.rmsDbfs, 1),
    peakDbfs: round(levels.peakDbfs, 1),
    snrDb: snr === undefined ? null : round(snr, 1),
    noiseFloorDbfs: round(detection.noiseFloorDbfs, 1),
    clippingPercent: round(levels.clippingPercent, 3),
    leadingSilenceMs: round(detection.leadingSilenceMs, 0),
    trailingSilenceMs: round(detection.trailingSilenceMs, 0),
    speechMs: round(detection.speechMs, 0),
  };
  const { verdict, issues } = judge(measured, {
    speechDbfs: detection.speechDbfs,
    segments: detection.segments.length,
  });
  return {
    original: {
      sampleRate: decoded.sampleRate,
      channels: decoded.channels,
      bitsPerSample: decoded.bitsPerSample,
    },
    wav16k: encodeWav16(samples, TARGET_SAMPLE_RATE),
    quality: { ...measured, verdict, issues },
  };
}

type Measured = Omit<SampleQuality, 'verdict' | 'issues'>;

/** The verdict and, for each problem, what it is and what to do about it. */
export function judge(
  q: Measured,
  extra: { speechDbfs: number; segments: number },
): { verdict: Verdict; issues: string[] } {
  const bad: string[] = [];
  const warnings: string[] = [];
  const pct = (value: number) => `${value.toFixed(value < 1 ? 2 : 1)} %`;

  if (q.durationMs > BAD_MAX_DURATION_MS) {
    bad.push(
      `too long: ${seconds(q.durationMs)} — record only the phrase, under ${seconds(BAD_MAX_DURATION_MS)}`,
    );
  }
  if (q.snrDb === null || q.speechMs === 0) {
    bad.push(
      'no speech found — check that the right microphone is selected and say the phrase after the countdown',
    );
  } else {
    if (q.speechMs < BAD_MIN_SPEECH_MS) {
      bad.push(`too short: ${q.speechMs} ms of speech — say the whole phrase`);
    } else if (q.speechMs > WARNING_MAX_SPEECH_MS) {
      warnings.push(`long: ${seconds(q.speechMs)} of speech — say only the wake word, once`);
    }
    if (q.snrDb < BAD_SNR_DB) {
      bad.push(`noisy: ${q.snrDb.toFixed(1)} dB SNR — move closer to the microphone or somewhere quieter`);
    } else if (q.snrDb < WARNING_SNR_DB) {
      warnings.push(
        `some background noise: ${q.snrDb.toFixed(1)} dB SNR — a quieter room or a closer microphone helps`,
      );
    }
    if (extra.speechDbfs < WARNING_QUIET_SPEECH_DBFS) {
      warnings.push(
        `quiet: speech at ${extra.speechDbfs.toFixed(1)} dBFS — speak up or raise the input gain`,
      );
    }
    if (extra.segments > 1) {
      warnings.push(`${extra.segments} separate utterances — say the phrase once per take`);
    }
    if (q.leadingSilenceMs < WARNING_MIN_EDGE_SILENCE_MS) {
      warnings.push('speech starts at the very beginning — the start may be cut off; wait for the countdown');
    } else if (q.leadingSilenceMs > WARNING_MAX_EDGE_SILENCE_MS) {
      warnings.push(`${seconds(q.leadingSilenceMs)} of silence before the phrase — speak sooner or trim it`);
    }
    if (q.trailingSilenceMs < WARNING_MIN_EDGE_SILENCE_MS) {
      warnings.push('speech runs to the very end — the end may be cut off; stop a moment after speaking');
    } else if (q.trailingSilenceMs > WARNING_MAX_EDGE_SILENCE_MS) {
      warnings.push(`${seconds(q.trailingSilenceMs)} of silence after the phrase — stop sooner or trim it`);
    }
  }
  if (q.clippingPercent > BAD_CLIPPING_PERCENT) {
    bad.push(`clipped: ${pct(q.clippingPercent)} of samples at full scale — move back or lower the gain`);
  } else if (q.clippingPercent > WARNING_CLIPPING_PERCENT) {
    warnings.push(
      `slightly clipped: ${pct(q.clippingPercent)} of samples at full scale — lower the gain a little`,
    );
  }
  const verdict: Verdict = bad.length > 0 ? 'bad' : warnings.length > 0 ? 'warning' : 'good';
  return { verdict, issues: [...bad, ...warnings] };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
