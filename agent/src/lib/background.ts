import type { Logger } from './logger.js';

/**
 * Starts work that nobody awaits (a timer's tick, an event handler, a run that answers before it
 * ends) and logs its failure. A bare `void promise` that rejects is an unhandled rejection, which
 * ends a Node process; every fire-and-forget call in the agent goes through here instead.
 */
export function inBackground(
  log: Pick<Logger, 'error'>,
  what: string,
  work: Promise<unknown> | (() => Promise<unknown>),
): void {
  let promise: Promise<unknown>;
  try {
    promise = typeof work === 'function' ? work() : work;
  } catch (err) {
    // A function that throws before its first await fails the same way.
    promise = Promise.reject(err);
  }
  promise.catch((err: unknown) => {
    try {
      log.error({ err }, `${what} failed`);
    } catch {
      // Logging itself failed (a closed stream at shutdown): nothing more to do.
    }
  });
}
