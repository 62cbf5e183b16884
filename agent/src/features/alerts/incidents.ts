import { eq } from 'drizzle-orm';
import type { NewNotification, NotificationCategory } from '../../contract/notifications.js';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import { notificationIncidents, notifications } from '../notifications/index.js';
import type { Notify } from '../notifications/index.js';

/** What a source says about a fault: everything notify() takes, with the category required. */
export type IncidentNotice = Omit<NewNotification, 'category'> & { category: NotificationCategory };

/**
 * One notification when a fault starts and one more when it clears, however often a source
 * reports it in between (issue 19: "no storm while a fault lasts"). Open incidents live in
 * `notification_incidents`, so a restart in the middle of a fault does not notify again.
 * better-sqlite3 is synchronous, so check-then-insert cannot interleave within the process.
 */
export function createIncidentNotifier(deps: { db: Db; notify: Notify; log: Logger; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const { db } = deps;

  const row = (key: string) =>
    db.select().from(notificationIncidents).where(eq(notificationIncidents.key, key)).get();

  /** notify(), then stamps the incident on the row (the notification service takes no key of its own). */
  function send(key: string, notice: IncidentNotice): number {
    const created = deps.notify(notice);
    db.update(notifications).set({ incidentKey: key }).where(eq(notifications.id, created.id)).run();
    return created.id;
  }

  return {
    /** Notifies unless `key` is already open; answers whether it notified. */
    open(key: string, notice: IncidentNotice): boolean {
      if (row(key)) return false;
      const notificationId = send(key, notice);
      db.insert(notificationIncidents)
        .values({ key, category: notice.category, openedAt: new Date(now()), notificationId })
        .onConflictDoNothing()
        .run();
      deps.log.info({ incident: key }, `alert: ${notice.title}`);
      return true;
    },

    /** Notifies (level success unless given) only when `key` was open, and closes it. */
    clear(key: string, notice: Omit<IncidentNotice, 'level'> & { level?: IncidentNotice['level'] }): boolean {
      if (!row(key)) return false;
      db.delete(notificationIncidents).where(eq(notificationIncidents.key, key)).run();
      send(key, { ...notice, level: notice.level ?? 'success' });
      deps.log.info({ incident: key }, `alert cleared: ${notice.title}`);
      return true;
    },

    /** Closes without a word (the thing is gone, e.g. a removed container). */
    forget(key: string): void {
      db.delete(notificationIncidents).where(eq(notificationIncidents.key, key)).run();
    },

    isOpen: (key: string): boolean => row(key) !== undefined,

    /** Open keys starting with `prefix` (e.g. after a restart, to check what still holds). */
    openKeys(prefix: string): string[] {
      // The table holds the open faults only: a handful of rows.
      return db
        .select({ key: notificationIncidents.key })
        .from(notificationIncidents)
        .all()
        .map((r) => r.key)
        .filter((k) => k.startsWith(prefix));
    },
  };
}

export type IncidentNotifier = ReturnType<typeof createIncidentNotifier>;
