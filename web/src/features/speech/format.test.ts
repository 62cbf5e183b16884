import { describe, expect, it } from 'vitest';
import { formatMs } from './format';

describe('formatMs', () => {
  it('shows milliseconds under a second and seconds above', () => {
    expect(formatMs(0)).toBe('0 ms');
    expect(formatMs(849.6)).toBe('850 ms');
    expect(formatMs(1500)).toBe('1.5 s');
    expect(formatMs(12_345)).toBe('12 s');
  });
});
