import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter.js';

describe('createRateLimiter', () => {
  it('allows a burst, then refuses until tokens refill', () => {
    let t = 0;
    const limiter = createRateLimiter({ perSecond: 2, burst: 3, now: () => t });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBeCloseTo(0.5);
    expect(limiter.take('b')).toBe(0);
    t = 500;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBeGreaterThan(0);
  });
});
