import { tooManyRequests } from '../../lib/http-error.js';

/** Takes one client address may send to /crowdsource per hour, good or refused. */
export const CROWDSOURCE_UPLOADS_PER_HOUR = 30;
/** Deletion attempts per address per hour (the tokens cannot be guessed; this keeps the log quiet). */
export const CROWDSOURCE_DELETIONS_PER_HOUR = 30;
const HOUR_MS = 60 * 60 * 1000;
/** Addresses remembered at most; the oldest are forgotten first so a flood cannot grow the map. */
const MAX_TRACKED_ADDRESSES = 10_000;

/** A sliding-window counter per client address, kept in memory (it resets when the agent restarts). */
export function createAddressLimiter(
  limit: number,
  what: string,
  now: () => number = Date.now,
  windowMs = HOUR_MS,
) {
  const hits = new Map<string, number[]>();
  return {
    /** Counts one attempt; 429 with Retry-After when the address is over its limit. */
    take(address: string): void {
      const t = now();
      const recent = (hits.get(address) ?? []).filter((at) => t - at < windowMs);
      if (recent.length >= limit) {
        hits.set(address, recent);
        throw tooManyRequests(
          `Too many ${what} from this address: try again later`,
          (recent[0]! + windowMs - t) / 1000,
        );
      }
      recent.push(t);
      hits.delete(address);
      hits.set(address, recent);
      if (hits.size > MAX_TRACKED_ADDRESSES) hits.delete(hits.keys().next().value!);
    },
  };
}
