import type { Context } from 'hono';
import { routePath } from 'hono/route';
import { clientAddress } from './request-info.js';

/**
 * Keeps the request log readable and small under a flood: a stranger hammering the hub with
 * unauthenticated requests wrote 24 MB of 401 lines in 10 s. Lines are grouped by a key (status,
 * method, route pattern, client address); the first `perWindow` lines of a key in each window are
 * written, the rest counted, and when the window ends one line says how many were left out.
 *
 * Memory is bounded: at most `maxKeys` keys are tracked per window; requests of further keys share
 * one overflow key, so a scanner that varies its address or path still cannot grow the map.
 */
export interface LogSamplerOptions {
  /** Lines written per key and window before the rest are only counted. */
  perWindow?: number;
  windowMs?: number;
  maxKeys?: number;
  /** Says, once per key and window, that its further lines are now only counted. */
  onSuppressing: (key: string, perWindow: number, windowMs: number) => void;
  /** Writes the "suppressed" summary of a key whose window ended with lines left out. */
  onSuppressed: (key: string, suppressed: number, windowMs: number) => void;
  now?: () => number;
}

interface Window {
  startedAt: number;
  written: number;
  suppressed: number;
}

export const OVERFLOW_KEY = 'other requests';

export function createLogSampler(opts: LogSamplerOptions) {
  const perWindow = opts.perWindow ?? 20;
  const windowMs = opts.windowMs ?? 10_000;
  const maxKeys = opts.maxKeys ?? 1000;
  const now = opts.now ?? Date.now;
  const windows = new Map<string, Window>();

  /** Ends every window that is over: summaries for those that left lines out, and forgets them. */
  function flush(at = now()) {
    for (const [key, window] of windows) {
      if (at - window.startedAt < windowMs) continue;
      windows.delete(key);
      if (window.suppressed > 0) opts.onSuppressed(key, window.suppressed, windowMs);
    }
  }

  // Summaries come out soon after their window ends, even when the flood stops; unref'd so it
  // never holds the process open.
  const timer = setInterval(flush, windowMs / 5);
  timer.unref();

  return {
    /** Whether the line of a request with this key should be written. */
    shouldLog(key: string): boolean {
      const at = now();
      let window = windows.get(key);
      if (window && at - window.startedAt >= windowMs) {
        windows.delete(key);
        if (window.suppressed > 0) opts.onSuppressed(key, window.suppressed, windowMs);
        window = undefined;
      }
      if (!window) {
        if (windows.size >= maxKeys) {
          flush(at);
          if (windows.size >= maxKeys && key !== OVERFLOW_KEY) return this.shouldLog(OVERFLOW_KEY);
        }
        window = { startedAt: at, written: 0, suppressed: 0 };
        windows.set(key, window);
      }
      if (window.written < perWindow) {
        window.written += 1;
        return true;
      }
      window.suppressed += 1;
      if (window.suppressed === 1) opts.onSuppressing(key, perWindow, windowMs);
      return false;
    },
    flush,
    stop() {
      clearInterval(timer);
    },
  };
}

/**
 * The request log's key: what was refused or changed, where (the route pattern, so a scan of
 * random paths is one key), and for whom. Read after the request was handled.
 */
export function requestLogKey(c: Context, status: number, trustProxy: boolean): string {
  return `${status} ${c.req.method} ${routePath(c) || c.req.path} ${clientAddress(c, trustProxy)}`;
}
