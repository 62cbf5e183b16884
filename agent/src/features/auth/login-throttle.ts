/**
 * Counts attempts per key in fixed windows and blocks a key once it reaches its limit, until
 * the window that began with its first failure ends. It lives in memory: the agent is one
 * process, and a restart forgetting the counts only helps the owner.
 */
export interface ThrottleRule {
  /** Failures allowed inside one window; the next attempt is refused. */
  max: number;
  windowMs: number;
}

/**
 * The defaults (all overridable through AppDeps.authLimits, for tests):
 * - 5 wrong passwords or 2FA codes for one account per 15 minutes stops online guessing of a
 *   single password while a person who mistypes a few times is not locked out for long;
 * - 20 failures from one client address per 15 minutes, across all accounts, stops one
 *   machine trying a leaked list of passwords against every account (credential stuffing);
 * - 100 registration attempts from one address per hour bounds mass account creation while
 *   leaving a household, an installer or a test suite plenty of room.
 */
export const DEFAULT_AUTH_LIMITS = {
  loginPerAccount: { max: 5, windowMs: 15 * 60_000 },
  loginPerAddress: { max: 20, windowMs: 15 * 60_000 },
  registerPerAddress: { max: 100, windowMs: 60 * 60_000 },
} satisfies Record<string, ThrottleRule>;
export type AuthLimits = typeof DEFAULT_AUTH_LIMITS;

/** Keeps memory bounded whatever an attacker sends: past this many keys, old ones are dropped. */
export const MAX_TRACKED_KEYS = 10_000;

interface Entry {
  count: number;
  windowStart: number;
}

export function createThrottle(rule: ThrottleRule, now: () => number = Date.now, maxKeys = MAX_TRACKED_KEYS) {
  const entries = new Map<string, Entry>();

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && now() - entry.windowStart >= rule.windowMs) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  const makeRoom = () => {
    if (entries.size < maxKeys) return;
    for (const key of entries.keys()) live(key);
    // Still full of live keys: drop the oldest windows (a Map iterates in insertion order).
    for (const key of entries.keys()) {
      if (entries.size < maxKeys) break;
      entries.delete(key);
    }
  };

  return {
    /** Milliseconds until the key may try again, or 0 when it may try now. */
    blockedFor(key: string): number {
      const entry = live(key);
      if (!entry || entry.count < rule.max) return 0;
      return entry.windowStart + rule.windowMs - now();
    },
    /** Counts one attempt against the key. */
    record(key: string): void {
      const entry = live(key);
      if (entry) {
        entry.count += 1;
        return;
      }
      makeRoom();
      entries.set(key, { count: 1, windowStart: now() });
    },
    /** Takes back one counted attempt, for an attempt that turned out not to be a failure. */
    forgive(key: string): void {
      const entry = live(key);
      if (!entry) return;
      entry.count -= 1;
      if (entry.count <= 0) entries.delete(key);
    },
    clear(key: string): void {
      entries.delete(key);
    },
    get size(): number {
      return entries.size;
    },
  };
}
export type Throttle = ReturnType<typeof createThrottle>;

/** The throttles sign-in and registration share, one set per running agent. */
export function createAuthThrottles(limits: Partial<AuthLimits> = {}, now: () => number = Date.now) {
  const rules = { ...DEFAULT_AUTH_LIMITS, ...limits };
  return {
    rules,
    loginPerAccount: createThrottle(rules.loginPerAccount, now),
    loginPerAddress: createThrottle(rules.loginPerAddress, now),
    registerPerAddress: createThrottle(rules.registerPerAddress, now),
  };
}
export type AuthThrottles = ReturnType<typeof createAuthThrottles>;

/** "5 minutes", "1 minute", "30 seconds": for messages that tell a person how long to wait. */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
