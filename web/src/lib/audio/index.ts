/**
 * Browser audio: a raw microphone with live levels, take capture, silence trimming and 16 kHz
 * 16-bit mono WAV for upload. Used by wake-word training and anything else that records.
 */
export { encodeWav16, resampleTo16k, TARGET_SAMPLE_RATE } from './wav';
export {
  blockLevels,
  NoiseFloorTracker,
  CLIPPING_LEVEL,
  SILENCE_DBFS,
  toDbfs,
  type BlockLevels,
} from './levels';
export { trimSilence, type TrimResult } from './trim';
export {
  listAudioInputs,
  meterPercent,
  microphoneSupported,
  openMicrophone,
  RAW_AUDIO_CONSTRAINTS,
  type MicLevels,
  type MicSettings,
  type Microphone,
  type Take,
} from './recorder';

import { encodeWav16, resampleTo16k } from './wav';
import { trimSilence } from './trim';
import type { Take } from './recorder';

/** A take made ready for upload: silence trimmed, resampled to 16 kHz, encoded as 16-bit WAV. */
export async function takeToWav(take: Take, options: { trim?: boolean; paddingMs?: number } = {}) {
  const trimmed =
    options.trim === false ? null : trimSilence(take.samples, take.sampleRate, options.paddingMs);
  const samples = trimmed ? trimmed.samples : take.samples;
  const resampled = await resampleTo16k(samples, take.sampleRate);
  return {
    wav: new Blob([encodeWav16(resampled)], { type: 'audio/wav' }),
    durationMs: (resampled.length / 16) | 0,
    speechFound: trimmed ? trimmed.speech : true,
  };
}
