import { afterAll, describe, expect, it } from 'vitest';
import { Recordings, readPcm16 } from '../fixtures/recordings.js';
import { HttpError } from '../../agent/src/lib/http-error.js';
import {
  CLIPPING_LEVEL,
  decodeWav,
  detectSpeech,
  encodeWav16,
  measureLevels,
  resample,
  resampleTo16kMono,
  speechSnrDb,
  trimSilence,
} from '../../agent/src/lib/audio/index.js';

const recordings = new Recordings();
afterAll(() => recordings.cleanup());

const phrase = recordings.speak('hey nexus');
const padded = recordings.pad(phrase, 0.5, 1);

function analyse(file: string) {
  const decoded = decodeWav(recordings.read(file));
  const detection = detectSpeech(resampleTo16kMono(decoded));
  return { decoded, detection, levels: measureLevels(decoded.samples), snr: speechSnrDb(detection) };
}

function statusOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof HttpError ? error.status : -1;
  }
  return undefined;
}

function sine(frequency: number, sampleRate: number, seconds: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(Math.round(sampleRate * seconds));
  for (let i = 0; i < out.length; i++)
    out[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
  return out;
}

describe('decodeWav', () => {
  it('reads 16-bit mono PCM as sox wrote it', () => {
    const decoded = decodeWav(recordings.read(phrase));
    const reference = readPcm16(phrase);
    expect(decoded).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16, encoding: 'pcm' });
    expect(decoded.samples.length).toBe(reference.length);
    expect(decoded.samples[4000]).toBeCloseTo(reference[4000]!, 6);
    expect(decoded.durationMs).toBeCloseTo((reference.length / 16) | 0, -1);
  });

  it('mixes stereo down and scales 8-bit, 24-bit and float samples to the same full scale', () => {
    const reference = measureLevels(decodeWav(recordings.read(phrase)).samples);
    for (const options of [
      { channels: 2 },
      { bits: 8, encoding: 'unsigned-integer' },
      { bits: 24 },
      { bits: 32, encoding: 'floating-point' },
    ]) {
      const decoded = decodeWav(recordings.read(recordings.convert(phrase, options)));
      expect(decoded.sampleRate).toBe(16_000);
      const levels = measureLevels(decoded.samples);
      // 8-bit quantisation and sox's dither move the RMS a little; the scale must not be off.
      expect(Math.abs(levels.rmsDbfs - reference.rmsDbfs), JSON.stringify(options)).toBeLessThan(0.5);
    }
  });

  it('refuses what is not PCM WAV with 415 and broken WAV files with 400', () => {
    expect(statusOf(() => decodeWav(Buffer.from('ID3\u0003 this is an mp3, honestly')))).toBe(415);
    expect(statusOf(() => decodeWav(Buffer.alloc(0)))).toBe(415);
    expect(
      statusOf(() => decodeWav(recordings.read(recordings.convert(phrase, { encoding: 'u-law', bits: 8 })))),
    ).toBe(415);
    expect(
      statusOf(() => decodeWav(recordings.read(recordings.convert(phrase, { encoding: 'a-law', bits: 8 })))),
    ).toBe(415);
    expect(
      statusOf(() =>
        decodeWav(recordings.read(recordings.convert(phrase, { encoding: 'ms-adpcm', bits: 4 }))),
      ),
    ).toBe(415);
    expect(statusOf(() => decodeWav(recordings.read(recordings.corrupt())))).toBe(400);
    const header = recordings.read(phrase).subarray(0, 44);
    expect(statusOf(() => decodeWav(header))).toBe(400);
  });

  it('reads a data chunk cut short as far as whole frames go', () => {
    const bytes = recordings.read(phrase);
    const cut = bytes.subarray(0, 44 + 3201);
    expect(decodeWav(cut).samples.length).toBe(1600);
  });
});

describe('encodeWav16', () => {
  it('round-trips through decodeWav within one 16-bit step, clamping past full scale', () => {
    const samples = Float32Array.from([0, 0.5, -0.5, 1, -1, 1.7, -3]);
    const decoded = decodeWav(encodeWav16(samples, 22_050));
    expect(decoded).toMatchObject({ sampleRate: 22_050, channels: 1, bitsPerSample: 16 });
    const expected = [0, 0.5, -0.5, 1, -1, 1, -1];
    expected.forEach((value, i) => expect(Math.abs(decoded.samples[i]! - value)).toBeLessThan(1 / 32_000));
  });
});

describe('resample', () => {
  it('keeps a tone inside the band at its level and the length in proportion', () => {
    const input = sine(1000, 48_000, 1);
    const output = resample(input, 48_000, 16_000);
    expect(output.length).toBe(16_000);
    // Skip the edges, where the kernel runs off the signal.
    const middle = output.subarray(500, 15_500);
    expect(measureLevels(middle).rmsDbfs).toBeCloseTo(measureLevels(input).rmsDbfs, 1);
  });

  it('removes a tone above the new Nyquist frequency instead of folding it back (at least 40 dB down)', () => {
    const input = sine(12_000, 48_000, 1);
    const output = resample(input, 48_000, 16_000).subarray(500, 15_500);
    expect(measureLevels(input).rmsDbfs - measureLevels(output).rmsDbfs).toBeGreaterThan(40);
  });

  it('handles rates with many phases (44.1 kHz) and upsampling (8 kHz)', () => {
    expect(resample(sine(440, 44_100, 1), 44_100, 16_000).length).toBe(16_000);
    const up = resample(sine(440, 8_000, 1), 8_000, 16_000);
    expect(up.length).toBe(16_000);
    expect(measureLevels(up.subarray(500, 15_500)).rmsDbfs).toBeCloseTo(20 * Math.log10(0.5 / Math.SQRT2), 1);
  });

  it('finds the same speech in a 48 kHz stereo copy as in the 16 kHz original', () => {
    const original = analyse(padded);
    const converted = analyse(recordings.convert(padded, { rate: 48_000, channels: 2 }));
    expect(converted.decoded.sampleRate).toBe(48_000);
    expect(
      Math.abs(converted.detection.leadingSilenceMs - original.detection.leadingSilenceMs),
    ).toBeLessThanOrEqual(20);
    expect(Math.abs(converted.detection.speechMs - original.detection.speechMs)).toBeLessThanOrEqual(200);
  });
});

describe('measureLevels', () => {
  it('measures a full-scale sine as −3 dBFS RMS and 0 dBFS peak, and counts clipped samples', () => {
    const levels = measureLevels(sine(1000, 16_000, 1, 1));
    expect(levels.rmsDbfs).toBeCloseTo(-3.01, 1);
    expect(levels.peakDbfs).toBeCloseTo(0, 2);
    const clipped = Float32Array.from({ length: 1000 }, (_, i) => (i < 25 ? 1 : 0.1));
    expect(measureLevels(clipped).clippingPercent).toBeCloseTo(2.5, 5);
  });

  it('finds the clipping sox made by amplifying a take 12 dB (expected share computed from the source)', () => {
    const source = decodeWav(recordings.read(padded)).samples;
    const gain = 10 ** (12 / 20);
    const expected =
      (source.filter((value) => Math.abs(value) * gain >= CLIPPING_LEVEL).length / source.length) * 100;
    const measured = analyse(recordings.clip(padded, 12)).levels;
    expect(expected).toBeGreaterThan(0.2);
    expect(Math.abs(measured.clippingPercent - expected)).toBeLessThan(0.05);
    expect(measured.peakDbfs).toBeGreaterThan(-0.1);
  });
});

describe('detectSpeech', () => {
  it('finds one phrase with the silence padded around it to within 30 ms', () => {
    const plain = analyse(phrase).detection;
    const withSilence = analyse(padded).detection;
    expect(plain.segments).toHaveLength(1);
    expect(withSilence.segments).toHaveLength(1);
    expect(plain.speechMs).toBeGreaterThan(500);
    expect(Math.abs(withSilence.leadingSilenceMs - plain.leadingSilenceMs - 500)).toBeLessThanOrEqual(30);
    expect(Math.abs(withSilence.trailingSilenceMs - plain.trailingSilenceMs - 1000)).toBeLessThanOrEqual(30);
    expect(Math.abs(withSilence.speechMs - plain.speechMs)).toBeLessThanOrEqual(30);
    expect(withSilence.durationMs).toBeCloseTo(plain.durationMs + 1500, 0);
  });

  it('measures the SNR and noise floor of white noise mixed in at a known level to within 2 dB', () => {
    for (const snrDb of [5, 10, 20, 30]) {
      const noisy = recordings.addNoise(padded, snrDb);
      const { detection, snr } = analyse(noisy.path);
      expect(detection.segments.length, `${snrDb} dB`).toBeGreaterThanOrEqual(1);
      expect(Math.abs(snr! - snrDb), `${snrDb} dB measured ${snr}`).toBeLessThan(2);
      expect(Math.abs(detection.noiseFloorDbfs - noisy.noiseRmsDbfs)).toBeLessThan(1.5);
      // Noise hides the weak start of the phrase; the padding must still be found within 100 ms.
      expect(Math.abs(detection.leadingSilenceMs - 500)).toBeLessThanOrEqual(100);
    }
  });

  it('finds no speech in digital silence, in steady noise or in a take too quiet to be speech', () => {
    for (const file of [
      recordings.silence(2),
      recordings.large(0.1),
      recordings.speak('hey nexus', { peakDbfs: -60 }),
    ]) {
      const { detection, snr } = analyse(file);
      expect(detection.segments).toEqual([]);
      expect(detection.speechMs).toBe(0);
      expect(detection.leadingSilenceMs).toBe(detection.durationMs);
      expect(snr).toBeUndefined();
    }
  });

  it('keeps the words of a phrase with a pause between them in one segment', () => {
    const { detection } = analyse(recordings.speak('hey, nexus, hey', { speed: 120 }));
    expect(detection.segments).toHaveLength(1);
  });

  it('tells apart two phrases separated by a second of silence', () => {
    const first = decodeWav(recordings.read(phrase)).samples;
    const joined = new Float32Array(first.length * 2 + 16_000);
    joined.set(first, 0);
    joined.set(first, first.length + 16_000);
    expect(detectSpeech(joined).segments).toHaveLength(2);
  });

  it('handles audio shorter than a frame', () => {
    expect(detectSpeech(new Float32Array(100)).segments).toEqual([]);
  });
});

describe('trimSilence', () => {
  it('cuts padded silence down to the padding asked for', () => {
    const samples = resampleTo16kMono(decodeWav(recordings.read(padded)));
    const detection = detectSpeech(samples);
    const trimmed = trimSilence(samples, 16_000, { paddingMs: 100 });
    const expectedMs = detection.segments.at(-1)!.endMs - detection.segments[0]!.startMs + 200;
    expect(Math.abs(trimmed.length / 16 - expectedMs)).toBeLessThanOrEqual(2);
    const again = detectSpeech(trimmed);
    expect(Math.abs(again.leadingSilenceMs - 100)).toBeLessThanOrEqual(30);
  });

  it('returns nothing for a take without speech', () => {
    expect(trimSilence(new Float32Array(32_000)).length).toBe(0);
  });
});
