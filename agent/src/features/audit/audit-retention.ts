import type { Logger } from '../../lib/logger.js';
import type { AuditRepository } from './audit.repository.js';

export const AUDIT_PRUNE_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes audit rows past the retention period now and then daily; the timer does not keep the
 * process alive. Returns a stop function.
 */
export function startAuditRetention(repo: AuditRepository, log: Logger): () => void {
  const prune = () => {
    try {
      const removed = repo.prune();
      if (removed) log.info({ feature: 'audit', removed }, 'old security events deleted');
    } catch (err) {
      log.error({ err, feature: 'audit' }, 'deleting old security events failed');
    }
  };
  prune();
  const timer = setInterval(prune, AUDIT_PRUNE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
