import { inBackground } from '../../lib/background.js';
import type { Logger } from '../../lib/logger.js';

/**
 * Runs `check` every intervalMs (the first after one interval), one at a time: a check still
 * running when the next is due is not started twice. A failing check is logged, never fatal.
 * Answers the stop.
 */
export function every(intervalMs: number, log: Logger, what: string, check: () => unknown): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    inBackground(log, what, async () => {
      try {
        await check();
      } finally {
        busy = false;
      }
    });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
