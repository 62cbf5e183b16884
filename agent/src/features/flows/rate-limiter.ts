/**
 * Token buckets per key (a webhook's flow, an API key): `burst` requests at once, refilled at
 * `perSecond`. Buckets that refilled completely are forgotten, so memory follows active callers.
 */
export function createRateLimiter(opts: { perSecond: number; burst: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    /** Takes one token; returns 0 when allowed, otherwise the seconds until one is available. */
    take(key: string): number {
      const t = now();
      const bucket = buckets.get(key) ?? { tokens: opts.burst, at: t };
      bucket.tokens = Math.min(opts.burst, bucket.tokens + ((t - bucket.at) / 1000) * opts.perSecond);
      bucket.at = t;
      if (bucket.tokens < 1) {
        buckets.set(key, bucket);
        return (1 - bucket.tokens) / opts.perSecond;
      }
      bucket.tokens -= 1;
      buckets.set(key, bucket);
      if (buckets.size > 10_000) {
        for (const [k, b] of buckets)
          if (b.tokens + ((t - b.at) / 1000) * opts.perSecond >= opts.burst) buckets.delete(k);
      }
      return 0;
    },
  };
}
