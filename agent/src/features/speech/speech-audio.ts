import {
  TARGET_SAMPLE_RATE,
  decodeWav,
  detectSpeech,
  encodeWav16,
  resampleTo16kMono,
  trimSilence,
  wavefile,
} from '../../lib/audio/index.js';
import type { PcmAudio } from '../../adapters/wyoming.js';

/**
 * The speech engines take 16 kHz mono 16-bit PCM, what Wyoming's ASR services and Whisper are
 * trained on; an uploaded clip may be any PCM WAV. Decoding and resampling are the shared audio
 * library's (lib/audio), so a clip is read the same way here, in the flows and in wake-word training.
 */

/** A WAV clip as the engines want it. Not a WAV: 415; a broken one: 400 (from lib/audio). */
export function readClip(wav: Buffer): { pcm: Buffer; durationMs: number } {
  const decoded = decodeWav(wav);
  return { pcm: floatToPcm16(resampleTo16kMono(decoded)), durationMs: Math.round(decoded.durationMs) };
}

/**
 * VAD for the flows' first voice stage: the clip at 16 kHz mono with the silence around the speech
 * trimmed (a little room kept, which recognizers want), or speech=false when it holds none.
 */
export function detectSpeechInWav(wav: Buffer): {
  speech: boolean;
  wav: Buffer;
  speechMs: number;
  durationMs: number;
} {
  const samples = resampleTo16kMono(decodeWav(wav));
  const detection = detectSpeech(samples, TARGET_SAMPLE_RATE);
  const speech = detection.segments.length > 0;
  const kept = speech ? trimSilence(samples, TARGET_SAMPLE_RATE, { detection }) : samples;
  return {
    speech,
    wav: encodeWav16(kept, TARGET_SAMPLE_RATE),
    speechMs: Math.round(detection.speechMs),
    durationMs: Math.round(detection.durationMs),
  };
}

export function floatToPcm16(samples: Float32Array): Buffer {
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    const value = Math.max(-1, Math.min(1, samples[i]!));
    out.writeInt16LE(value < 0 ? Math.round(value * 32768) : Math.round(value * 32767), i * 2);
  }
  return out;
}

const BIT_DEPTHS: Record<number, string> = { 1: '8', 2: '16', 3: '24', 4: '32' };

/** Raw PCM as a Wyoming service streams it (little-endian, interleaved) → a WAV file, as is. */
export function pcmToWav(audio: PcmAudio): Buffer {
  const bitDepth = BIT_DEPTHS[audio.width];
  if (!bitDepth) throw new Error(`Unsupported sample width ${audio.width}`);
  const frameBytes = audio.width * audio.channels;
  const pcm = audio.pcm.subarray(0, audio.pcm.length - (audio.pcm.length % frameBytes));
  const file = new (wavefile().WaveFile)();
  // wavefile reads the samples from its own typed arrays; 16-bit (every Wyoming TTS voice) is the
  // fast path, other widths go through its generic packer.
  const samples =
    audio.width === 2
      ? new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.length))
      : unpack(pcm, audio.width);
  file.fromScratch(audio.channels, audio.rate, bitDepth, samples);
  const bytes = file.toBuffer();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function unpack(pcm: Buffer, width: number): number[] {
  const out: number[] = new Array<number>(pcm.length / width);
  for (let i = 0; i < out.length; i++) {
    // 8-bit WAV is unsigned, wider depths are signed little-endian.
    out[i] = width === 1 ? pcm[i]! : pcm.readIntLE(i * width, width);
  }
  return out;
}
