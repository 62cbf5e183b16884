import type { BackupSummary } from '@nexus/agent/contract';

/** "12 May 2025, 03:00": a backup's moment in the browser's language and zone. */
export function formatWhen(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export const TRIGGER_WORDS: Record<BackupSummary['trigger'], string> = {
  manual: 'By hand',
  scheduled: 'Scheduled',
  'before-update': 'Before an update',
};

/** "03:00" for the schedule's hour select. */
export const formatHour = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** Newest first, whatever order the agent listed them in. */
export function newestFirst<T extends { createdAt: string }>(backups: readonly T[]): T[] {
  return [...backups].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}
