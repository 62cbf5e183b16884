import { describe, expect, it } from 'vitest';
import { OVERFLOW_KEY, createLogSampler } from './log-sampler.js';

function sampler(opts: { perWindow?: number; maxKeys?: number } = {}) {
  let now = 0;
  const starts: string[] = [];
  const summaries: { key: string; suppressed: number }[] = [];
  const s = createLogSampler({
    ...opts,
    windowMs: 10_000,
    now: () => now,
    onSuppressing: (key) => starts.push(key),
    onSuppressed: (key, suppressed) => summaries.push({ key, suppressed }),
  });
  s.stop();
  return { s, starts, summaries, advance: (ms: number) => (now += ms) };
}

describe('createLogSampler', () => {
  it('writes the first lines of a key per window, then counts the rest and reports them once', () => {
    const { s, starts, summaries, advance } = sampler({ perWindow: 3 });
    const written = Array.from({ length: 10 }, () => s.shouldLog('401 GET /api/x 10.0.0.9')).filter(Boolean);
    expect(written).toHaveLength(3);
    expect(starts).toEqual(['401 GET /api/x 10.0.0.9']);
    // Another key is not held back by the first.
    expect(s.shouldLog('401 GET /api/y 10.0.0.9')).toBe(true);
    advance(10_000);
    s.flush();
    expect(summaries).toEqual([{ key: '401 GET /api/x 10.0.0.9', suppressed: 7 }]);
    // A new window starts afresh.
    expect(s.shouldLog('401 GET /api/x 10.0.0.9')).toBe(true);
  });

  it('tracks at most maxKeys keys; the rest share one', () => {
    const { s, summaries, advance } = sampler({ perWindow: 1, maxKeys: 5 });
    for (let i = 0; i < 5; i++) expect(s.shouldLog(`404 GET * 10.0.0.${i}`)).toBe(true);
    const overflow = Array.from({ length: 100 }, (_, i) => s.shouldLog(`404 GET * 10.0.1.${i}`));
    expect(overflow.filter(Boolean)).toHaveLength(1);
    advance(10_000);
    s.flush();
    expect(summaries).toEqual([{ key: OVERFLOW_KEY, suppressed: 99 }]);
  });
});
