import type { BackupRun } from '../../contract/backups.js';
import type { IncidentNotifier } from './incidents.js';

/** What the backups feature offers: told of every backup run, manual or scheduled. */
export interface BackupRunSource {
  onRun(listener: (run: BackupRun) => void): () => void;
}

export const BACKUP_INCIDENT_KEY = 'backups:failed';

/** A failed backup opens an incident (one, however many scheduled runs fail); the next good one clears it. */
export function watchBackups(deps: { backups: BackupRunSource; incidents: IncidentNotifier }): () => void {
  return deps.backups.onRun((run) => {
    if (!run.ok) {
      deps.incidents.open(BACKUP_INCIDENT_KEY, {
        category: 'backups',
        level: 'error',
        title: 'A backup failed',
        body: `The ${run.trigger} backup at ${run.at} failed: ${run.error ?? 'unknown error'}`,
        link: '/nexus-management#backups',
      });
    } else {
      deps.incidents.clear(BACKUP_INCIDENT_KEY, {
        category: 'backups',
        title: 'Backups work again',
        body: `The ${run.trigger} backup at ${run.at} succeeded.`,
        link: '/nexus-management#backups',
      });
    }
  });
}
