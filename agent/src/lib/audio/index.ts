/**
 * Audio helpers shared by features that take recordings (wake-word samples, voice stages of flows):
 * WAV decoding and encoding, resampling to 16 kHz, levels and a model-free voice activity detector.
 */
export { decodeWav, encodeWav16, wavefile, type DecodedAudio } from './wav.js';
export { resample, resampleTo16kMono, TARGET_SAMPLE_RATE } from './resample.js';
export {
  measureLevels,
  powerToDbfs,
  amplitudeToDbfs,
  CLIPPING_LEVEL,
  SILENCE_DBFS,
  type Levels,
} from './levels.js';
export { detectSpeech, speechSnrDb, trimSilence, type SpeechDetection, type SpeechSegment } from './vad.js';
