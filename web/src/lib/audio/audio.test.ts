import { describe, expect, it } from 'vitest';
import { blockLevels, NoiseFloorTracker } from './levels';
import { meterPercent } from './recorder';
import { trimSilence } from './trim';
import { encodeWav16 } from './wav';

function tone(seconds: number, sampleRate: number, amplitude: number): Float32Array {
  return Float32Array.from(
    { length: Math.round(seconds * sampleRate) },
    (_, i) => amplitude * Math.sin((2 * Math.PI * 440 * i) / sampleRate),
  );
}

describe('encodeWav16', () => {
  it('writes a 16-bit mono PCM header and clamped little-endian samples', () => {
    const view = new DataView(encodeWav16(Float32Array.from([0, 1, -1, 2, 0.5]), 16_000));
    const text = (at: number) => String.fromCharCode(...new Uint8Array(view.buffer, at, 4));
    expect([text(0), text(8), text(12), text(36)]).toEqual(['RIFF', 'WAVE', 'fmt ', 'data']);
    expect(view.getUint16(20, true)).toBe(1);
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(16_000);
    expect(view.getUint16(34, true)).toBe(16);
    expect(view.getUint32(40, true)).toBe(10);
    expect([0, 1, 2, 3, 4].map((i) => view.getInt16(44 + i * 2, true))).toEqual([
      0, 32767, -32768, 32767, 16384,
    ]);
  });
});

describe('levels', () => {
  it('measures a half-scale tone at −9 dBFS RMS and −6 dBFS peak, and counts clipped samples', () => {
    const levels = blockLevels(tone(0.1, 16_000, 0.5));
    expect(levels.rmsDbfs).toBeCloseTo(-9.03, 1);
    expect(levels.peakDbfs).toBeCloseTo(-6.02, 1);
    expect(levels.clipped).toBe(0);
    expect(blockLevels(Float32Array.from([1, -1, 0.5])).clipped).toBe(2);
  });

  it('tracks the noise floor at the quiet end of recent levels', () => {
    const tracker = new NoiseFloorTracker(100, 10);
    expect(tracker.dbfs).toBeNull();
    for (let i = 0; i < 80; i++) tracker.add(-20);
    for (let i = 0; i < 20; i++) tracker.add(-60);
    expect(tracker.dbfs).toBe(-60);
  });

  it('maps −60…0 dBFS onto the meter', () => {
    expect(meterPercent(-80)).toBe(0);
    expect(meterPercent(-30)).toBe(50);
    expect(meterPercent(3)).toBe(100);
  });
});

describe('trimSilence', () => {
  it('keeps the loud part with the padding asked for', () => {
    const rate = 16_000;
    const take = new Float32Array(rate * 3);
    take.set(tone(1, rate, 0.3), rate);
    const trimmed = trimSilence(take, rate, 200);
    expect(trimmed.speech).toBe(true);
    expect(trimmed.startMs).toBe(800);
    expect(trimmed.endMs).toBe(2200);
    expect(trimmed.samples.length).toBe(rate * 1.4);
  });

  it('leaves a take without speech whole', () => {
    const trimmed = trimSilence(new Float32Array(16_000), 16_000);
    expect(trimmed).toMatchObject({ speech: false, startMs: 0, endMs: 1000 });
  });
});
