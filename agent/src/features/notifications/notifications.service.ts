import {
  newNotificationSchema,
  type NewNotification,
  type Notification,
} from '../../contract/notifications.js';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import {
  createNotificationRepository,
  type NotificationFilter,
  type NotificationWithRead,
} from './notifications.repository.js';

/** Notifications older than this are deleted when new ones arrive, so the table stays small. */
export const NOTIFICATION_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

/** The created notification as its recipient (or every account, for a broadcast) will see it. */
export interface CreatedNotification {
  userId: number | null;
  notification: Notification;
}
export type NotificationListener = (created: CreatedNotification) => void;

export function toNotification(row: NotificationWithRead): Notification {
  return {
    id: row.id,
    level: row.level,
    category: row.category,
    title: row.title,
    body: row.body,
    link: row.link,
    broadcast: row.userId === null,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt ? row.readAt.toISOString() : null,
    deliveries: [],
  };
}

export function createNotificationService(deps: { db: Db; log: Logger; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const repo = createNotificationRepository(deps.db);
  const listeners = new Set<NotificationListener>();

  return {
    /**
     * What other features call (through AppDeps) when something happened that a person should
     * know about. Throws on invalid input, which is a programming error of the caller.
     */
    notify(input: NewNotification): Notification {
      const parsed = newNotificationSchema.parse(input);
      const t = now();
      repo.deleteOlderThan(new Date(t - NOTIFICATION_RETENTION_MS));
      const row = repo.insert({
        userId: parsed.userId ?? null,
        level: parsed.level,
        category: parsed.category,
        title: parsed.title,
        body: parsed.body ?? null,
        link: parsed.link ?? null,
        createdAt: new Date(t),
      });
      const notification = toNotification({ ...row, readAt: null });
      for (const listener of listeners) {
        try {
          listener({ userId: row.userId, notification });
        } catch (error) {
          deps.log.error({ err: error }, 'a notification listener failed');
        }
      }
      return notification;
    },

    /** For the live channel: called after every new notification. Returns the unsubscribe. */
    onCreated(listener: NotificationListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    list(userId: number, filter: NotificationFilter) {
      return {
        notifications: repo.listFor(userId, filter).map(toNotification),
        unreadCount: repo.unreadCount(userId),
      };
    },

    markRead(userId: number, id: number): Notification {
      if (!repo.findVisible(userId, id)) throw notFound('No such notification');
      repo.markRead(userId, [id], new Date(now()));
      const row = repo.findVisible(userId, id);
      if (!row) throw notFound('No such notification');
      return toNotification(row);
    },

    /**
     * The user's own notification is deleted; a broadcast is hidden for this user only (others still
     * see it). Another user's notification does not exist for this one: 404.
     */
    remove(userId: number, id: number): void {
      const row = repo.findVisible(userId, id);
      if (!row) throw notFound('No such notification');
      repo.deleteFor(userId, row);
    },

    markAllRead(userId: number): number {
      return deps.db.transaction(() => repo.markRead(userId, repo.unreadIds(userId), new Date(now())));
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
/** What a feature needs to tell people something; handed out through AppDeps. */
export type Notify = NotificationService['notify'];
