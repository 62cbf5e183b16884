import { describe, expect, it } from 'vitest';
import { formatBytes, formatRate, formatRateCompact } from './format-bytes';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [512, '512 B'],
    [1023, '1023 B'],
    [1024, '1.0 KiB'],
    [1536, '1.5 KiB'],
    [150 * 1024, '150 KiB'],
    [8 * 1024 ** 3, '8.0 GiB'],
    [2.5 * 1024 ** 4, '2.5 TiB'],
    [-2048, '-2.0 KiB'],
    [null, '—'],
    [undefined, '—'],
    [Number.NaN, '—'],
  ])('%s → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('formats rates', () => {
    expect(formatRate(1024 * 1024 * 1.25)).toBe('1.3 MiB/s');
    expect(formatRate(null)).toBe('—');
  });
});

describe('formatRateCompact', () => {
  it.each([
    [0, '0'],
    [900, '900'],
    [1_843, '1.8K'],
    [12 * 1024 * 1024, '12M'],
    [1.5 * 1024 ** 3, '1.5G'],
  ])('%d B/s → %s', (rate, text) => {
    expect(formatRateCompact(rate)).toBe(text);
  });
});
