import type WaveFileLibrary from 'wavefile';
import { HttpError } from '../http-error.js';
import { lazyRequire } from '../lazy-require.js';

/**
 * The wavefile library, loaded with the first WAV file read or written rather than at start-up:
 * an idle hub handles no audio. The one place that names the package (speech-audio.ts uses it too).
 */
export const wavefile = lazyRequire<typeof WaveFileLibrary>('wavefile');
type WaveFile = InstanceType<typeof WaveFileLibrary.WaveFile>;

/** A decoded WAV file: its format as stored, and its audio mixed down to one channel in [-1, 1]. */
export interface DecodedAudio {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** `pcm` for integer samples, `float` for IEEE float (WAVE_FORMAT_IEEE_FLOAT). */
  encoding: 'pcm' | 'float';
  /** Mono mixdown (mean of the channels), one value per frame, full scale = ±1. */
  samples: Float32Array;
  durationMs: number;
}

// WAVE format tags from Microsoft's mmreg.h; extensible files carry the real tag in their sub-format GUID.
const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_IEEE_FLOAT = 3;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;
const FORMAT_NAMES: Record<number, string> = {
  2: 'Microsoft ADPCM',
  6: 'A-law',
  7: 'µ-law',
  17: 'IMA ADPCM',
  49: 'GSM 6.10',
  85: 'MPEG Layer 3',
};
const MIN_SAMPLE_RATE = 4000;
const MAX_SAMPLE_RATE = 384_000;

interface FmtChunk {
  audioFormat: number;
  numChannels: number;
  sampleRate: number;
  bitsPerSample: number;
  subformat: number[];
}

/**
 * Decodes a PCM (integer or float) WAV file. Anything that is not a RIFF/WAVE container, or that
 * holds compressed audio, is refused with 415; a WAV file whose chunks are broken or empty with 400.
 * A data chunk shorter than its header claims (a writer that streamed and never patched the size)
 * is read as far as whole frames go.
 */
export function decodeWav(buffer: Uint8Array): DecodedAudio {
  if (!looksLikeWav(buffer)) {
    throw new HttpError(415, 'Not a WAV file: send PCM WAV audio (Content-Type audio/wav)');
  }
  let wav: WaveFile;
  try {
    wav = new (wavefile().WaveFile)(buffer);
  } catch (error) {
    throw new HttpError(400, `Corrupt WAV file: ${(error as Error).message}`);
  }
  const fmt = wav.fmt as FmtChunk;
  const encoding = encodingOf(fmt);
  if (!encoding) {
    const name = FORMAT_NAMES[fmt.audioFormat] ?? `format tag ${fmt.audioFormat}`;
    throw new HttpError(415, `Only PCM WAV is accepted; this file holds ${name} audio`);
  }
  const { numChannels: channels, sampleRate, bitsPerSample } = fmt;
  const validBits = encoding === 'float' ? [32, 64] : [8, 16, 24, 32];
  if (channels < 1 || channels > 32 || !validBits.includes(bitsPerSample)) {
    throw new HttpError(400, `Corrupt WAV file: ${channels} channels of ${bitsPerSample}-bit samples`);
  }
  if (sampleRate < MIN_SAMPLE_RATE || sampleRate > MAX_SAMPLE_RATE) {
    throw new HttpError(400, `Unsupported sample rate ${sampleRate} Hz`);
  }
  const samples = mixdown(wav, encoding, channels, bitsPerSample);
  if (samples.length === 0) throw new HttpError(400, 'The WAV file holds no audio');
  return {
    sampleRate,
    channels,
    bitsPerSample,
    encoding,
    samples,
    durationMs: (samples.length / sampleRate) * 1000,
  };
}

function looksLikeWav(buffer: Uint8Array): boolean {
  if (buffer.length < 12) return false;
  const text = (start: number) => String.fromCharCode(...buffer.subarray(start, start + 4));
  return ['RIFF', 'RIFX', 'RF64'].includes(text(0)) && text(8) === 'WAVE';
}

function encodingOf(fmt: FmtChunk): DecodedAudio['encoding'] | undefined {
  // The sub-format GUID's first two bytes are the format tag (KSDATAFORMAT_SUBTYPE_PCM / _IEEE_FLOAT).
  const tag =
    fmt.audioFormat === WAVE_FORMAT_EXTENSIBLE ? Number(fmt.subformat[0] ?? 0) & 0xffff : fmt.audioFormat;
  if (tag === WAVE_FORMAT_PCM) return 'pcm';
  if (tag === WAVE_FORMAT_IEEE_FLOAT) return 'float';
  return undefined;
}

function mixdown(
  wav: WaveFile,
  encoding: DecodedAudio['encoding'],
  channels: number,
  bitsPerSample: number,
): Float32Array {
  const data = wav.data as { samples: Uint8Array };
  const bytesPerFrame = (bitsPerSample / 8) * channels;
  const frames = Math.floor(data.samples.length / bytesPerFrame);
  if (frames * bytesPerFrame !== data.samples.length) {
    data.samples = data.samples.subarray(0, frames * bytesPerFrame);
  }
  if (frames === 0) return new Float32Array(0);
  // Read the little-endian bytes directly: wavefile's generic unpacking took most of the time of
  // a 48 kHz stereo take. RIFX (big-endian) files are rare enough to go through wavefile.
  const bytes = data.samples;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const read =
    sampleReader(view, encoding, bitsPerSample, (wav as { container: string }).container === 'RIFX') ??
    interleavedReader(wav);
  const out = new Float32Array(frames);
  const bytesPerSample = bitsPerSample / 8;
  for (let frame = 0; frame < frames; frame++) {
    let sum = 0;
    const base = frame * channels;
    for (let channel = 0; channel < channels; channel++)
      sum += read(base + channel, (base + channel) * bytesPerSample);
    out[frame] = sum / channels;
  }
  return out;
}

type Reader = (index: number, byteOffset: number) => number;

/** A reader of sample values in [-1, 1]; undefined where wavefile must unpack. */
function sampleReader(
  view: DataView,
  encoding: DecodedAudio['encoding'],
  bitsPerSample: number,
  bigEndian: boolean,
): Reader | undefined {
  if (bigEndian) return undefined;
  if (encoding === 'float') {
    return bitsPerSample === 32 ? (_, at) => view.getFloat32(at, true) : (_, at) => view.getFloat64(at, true);
  }
  switch (bitsPerSample) {
    case 8:
      return (_, at) => (view.getUint8(at) - 128) / 128;
    case 16:
      return (_, at) => view.getInt16(at, true) / 32768;
    case 24:
      return (_, at) =>
        ((view.getInt8(at + 2) << 16) | (view.getUint8(at + 1) << 8) | view.getUint8(at)) / 8388608;
    case 32:
      return (_, at) => view.getInt32(at, true) / 2147483648;
    default:
      return undefined;
  }
}

function interleavedReader(wav: WaveFile): Reader {
  let interleaved: Float64Array;
  try {
    interleaved = wav.getSamples(true);
  } catch (error) {
    throw new HttpError(400, `Corrupt WAV file: ${(error as Error).message}`);
  }
  const fmt = wav.fmt as FmtChunk;
  const float = encodingOf(fmt) === 'float';
  const offset = !float && fmt.bitsPerSample === 8 ? 128 : 0;
  const scale = float ? 1 : 2 ** (fmt.bitsPerSample - 1);
  return (index) => (interleaved[index]! - offset) / scale;
}

/** Encodes mono samples in [-1, 1] as a 16-bit PCM WAV file (values past full scale are clamped). */
export function encodeWav16(samples: Float32Array, sampleRate = 16_000): Buffer {
  const pcm = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const value = Math.max(-1, Math.min(1, samples[i]!));
    pcm[i] = value < 0 ? Math.round(value * 32768) : Math.round(value * 32767);
  }
  const wav = new (wavefile().WaveFile)();
  wav.fromScratch(1, sampleRate, '16', pcm);
  const bytes = wav.toBuffer();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
