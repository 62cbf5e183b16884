import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_LIMITS, createAuthThrottles, createThrottle, describeWait } from './login-throttle.js';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('createThrottle', () => {
  it('allows max attempts, then blocks until the window that began with the first one ends', () => {
    const c = clock();
    const throttle = createThrottle({ max: 3, windowMs: 60_000 }, c.now);
    for (let i = 0; i < 3; i++) {
      expect(throttle.blockedFor('a')).toBe(0);
      throttle.record('a');
      c.advance(1_000);
    }
    expect(throttle.blockedFor('a')).toBe(57_000);
    expect(throttle.blockedFor('b')).toBe(0);
    c.advance(56_999);
    expect(throttle.blockedFor('a')).toBe(1);
    c.advance(1);
    expect(throttle.blockedFor('a')).toBe(0);
  });

  it('forgets a key on clear, and takes back single attempts on forgive', () => {
    const c = clock();
    const throttle = createThrottle({ max: 2, windowMs: 60_000 }, c.now);
    throttle.record('a');
    throttle.record('a');
    expect(throttle.blockedFor('a')).toBeGreaterThan(0);
    throttle.forgive('a');
    expect(throttle.blockedFor('a')).toBe(0);
    throttle.record('a');
    throttle.clear('a');
    expect(throttle.blockedFor('a')).toBe(0);
    expect(throttle.size).toBe(0);
    throttle.forgive('never-seen');
    expect(throttle.size).toBe(0);
  });

  it('keeps memory bounded: expired keys go first, then the oldest', () => {
    const c = clock();
    const throttle = createThrottle({ max: 1, windowMs: 10_000 }, c.now, 3);
    throttle.record('old-1');
    throttle.record('old-2');
    c.advance(10_000);
    throttle.record('fresh-1');
    throttle.record('fresh-2');
    expect(throttle.size).toBe(2);
    throttle.record('fresh-3');
    throttle.record('fresh-4');
    expect(throttle.size).toBe(3);
    expect(throttle.blockedFor('fresh-1')).toBe(0);
    expect(throttle.blockedFor('fresh-4')).toBeGreaterThan(0);
    for (let i = 0; i < 1000; i++) throttle.record(`flood-${i}`);
    expect(throttle.size).toBe(3);
  });
});

describe('the default auth limits', () => {
  it('are 5 failures per account and 20 per address per 15 minutes, 100 sign-ups per address per hour', () => {
    expect(DEFAULT_AUTH_LIMITS).toEqual({
      loginPerAccount: { max: 5, windowMs: 900_000 },
      loginPerAddress: { max: 20, windowMs: 900_000 },
      registerPerAddress: { max: 100, windowMs: 3_600_000 },
    });
  });

  it('apply unless overridden, one rule at a time', () => {
    const throttles = createAuthThrottles({ loginPerAddress: { max: 2, windowMs: 1000 } });
    expect(throttles.rules.loginPerAccount).toEqual(DEFAULT_AUTH_LIMITS.loginPerAccount);
    expect(throttles.rules.loginPerAddress).toEqual({ max: 2, windowMs: 1000 });
    for (let i = 0; i < 5; i++) throttles.loginPerAccount.record('ann@example.com');
    expect(throttles.loginPerAccount.blockedFor('ann@example.com')).toBeGreaterThan(14 * 60_000);
  });
});

describe('describeWait', () => {
  it('speaks in whole seconds under a minute, whole minutes above', () => {
    expect(describeWait(1)).toBe('1 second');
    expect(describeWait(30_000)).toBe('30 seconds');
    expect(describeWait(60_000)).toBe('1 minute');
    expect(describeWait(61_000)).toBe('2 minutes');
    expect(describeWait(15 * 60_000)).toBe('15 minutes');
  });
});
