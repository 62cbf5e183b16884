import { and, count, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { NotificationCategory, NotificationLevel } from '../../contract/notifications.js';
import { notificationReads, notifications, type NotificationRow } from './notifications.table.js';

export interface NotificationWithRead extends NotificationRow {
  readAt: Date | null;
}

/** What one account sees: its own notifications and every broadcast. */
const visibleTo = (userId: number) => or(eq(notifications.userId, userId), isNull(notifications.userId));

export function createNotificationRepository(db: Db) {
  const readJoin = (userId: number) =>
    and(eq(notificationReads.notificationId, notifications.id), eq(notificationReads.userId, userId));

  return {
    insert(input: {
      userId: number | null;
      level: NotificationLevel;
      category: NotificationCategory;
      incidentKey?: string | null;
      title: string;
      body: string | null;
      link: string | null;
      createdAt: Date;
    }): NotificationRow {
      return db.insert(notifications).values(input).returning().get();
    },

    listFor(userId: number, limit: number): NotificationWithRead[] {
      return db
        .select({
          id: notifications.id,
          userId: notifications.userId,
          level: notifications.level,
          category: notifications.category,
          incidentKey: notifications.incidentKey,
          title: notifications.title,
          body: notifications.body,
          link: notifications.link,
          createdAt: notifications.createdAt,
          readAt: notificationReads.readAt,
        })
        .from(notifications)
        .leftJoin(notificationReads, readJoin(userId))
        .where(visibleTo(userId))
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(limit)
        .all();
    },

    unreadCount(userId: number): number {
      return (
        db
          .select({ n: count() })
          .from(notifications)
          .leftJoin(notificationReads, readJoin(userId))
          .where(and(visibleTo(userId), isNull(notificationReads.userId)))
          .get()?.n ?? 0
      );
    },

    findVisible(userId: number, id: number): NotificationWithRead | undefined {
      return db
        .select({
          id: notifications.id,
          userId: notifications.userId,
          level: notifications.level,
          category: notifications.category,
          incidentKey: notifications.incidentKey,
          title: notifications.title,
          body: notifications.body,
          link: notifications.link,
          createdAt: notifications.createdAt,
          readAt: notificationReads.readAt,
        })
        .from(notifications)
        .leftJoin(notificationReads, readJoin(userId))
        .where(and(eq(notifications.id, id), visibleTo(userId)))
        .get();
    },

    /** Marks read; reading twice keeps the first time. */
    markRead(userId: number, ids: number[], at: Date): number {
      if (ids.length === 0) return 0;
      return db
        .insert(notificationReads)
        .values(ids.map((notificationId) => ({ notificationId, userId, readAt: at })))
        .onConflictDoNothing()
        .run().changes;
    },

    unreadIds(userId: number): number[] {
      return db
        .select({ id: notifications.id })
        .from(notifications)
        .leftJoin(notificationReads, readJoin(userId))
        .where(and(visibleTo(userId), isNull(notificationReads.userId)))
        .all()
        .map((row) => row.id);
    },

    deleteOlderThan(cutoff: Date): number {
      return db.delete(notifications).where(lt(notifications.createdAt, cutoff)).run().changes;
    },
  };
}

export type NotificationRepository = ReturnType<typeof createNotificationRepository>;
