import { and, count, desc, eq, inArray, isNotNull, isNull, lt, notExists, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { NotificationCategory, NotificationLevel } from '../../contract/notifications.js';
import {
  notificationHidden,
  notificationReads,
  notifications,
  type NotificationRow,
} from './notifications.table.js';

/** The list's filters (GET /api/notifications). */
export interface NotificationFilter {
  limit: number;
  category?: NotificationCategory;
  level?: NotificationLevel;
  /** true: unread only; false: read only. */
  unread?: boolean;
  /** Older than this id (paging). */
  before?: number;
}

export interface NotificationWithRead extends NotificationRow {
  readAt: Date | null;
}

/**
 * What one account sees: its own notifications and every broadcast it has not hidden (a person's
 * delete of a broadcast hides it for them only).
 */
const visibleTo = (db: Db, userId: number) =>
  and(
    or(eq(notifications.userId, userId), isNull(notifications.userId)),
    notExists(
      db
        .select({ one: notificationHidden.userId })
        .from(notificationHidden)
        .where(
          and(eq(notificationHidden.notificationId, notifications.id), eq(notificationHidden.userId, userId)),
        ),
    ),
  );

/** A notification's columns with the reader's read time (from the left-joined notification_reads). */
const withReadAt = {
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
};

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

    listFor(userId: number, filter: NotificationFilter): NotificationWithRead[] {
      const where: (SQL | undefined)[] = [visibleTo(db, userId)];
      if (filter.category) where.push(eq(notifications.category, filter.category));
      if (filter.level) where.push(eq(notifications.level, filter.level));
      if (filter.unread === true) where.push(isNull(notificationReads.userId));
      if (filter.unread === false) where.push(isNotNull(notificationReads.userId));
      if (filter.before !== undefined) where.push(lt(notifications.id, filter.before));
      return (
        db
          .select(withReadAt)
          .from(notifications)
          .leftJoin(notificationReads, readJoin(userId))
          .where(and(...where))
          // By id: ids grow with time, and `before` pages by id.
          .orderBy(desc(notifications.id))
          .limit(filter.limit)
          .all()
      );
    },

    unreadCount(userId: number): number {
      return (
        db
          .select({ n: count() })
          .from(notifications)
          .leftJoin(notificationReads, readJoin(userId))
          .where(and(visibleTo(db, userId), isNull(notificationReads.userId)))
          .get()?.n ?? 0
      );
    },

    findVisible(userId: number, id: number): NotificationWithRead | undefined {
      return db
        .select(withReadAt)
        .from(notifications)
        .leftJoin(notificationReads, readJoin(userId))
        .where(and(eq(notifications.id, id), visibleTo(db, userId)))
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
        .where(and(visibleTo(db, userId), isNull(notificationReads.userId)))
        .all()
        .map((row) => row.id);
    },

    /** The user's own notification is deleted; a broadcast is hidden for this user only. */
    deleteFor(userId: number, row: NotificationRow): void {
      if (row.userId === null) {
        db.insert(notificationHidden).values({ notificationId: row.id, userId }).onConflictDoNothing().run();
      } else if (row.userId === userId) {
        db.delete(notifications).where(eq(notifications.id, row.id)).run();
      }
    },

    byIds(ids: number[]): NotificationRow[] {
      if (ids.length === 0) return [];
      return db.select().from(notifications).where(inArray(notifications.id, ids)).all();
    },

    deleteOlderThan(cutoff: Date): number {
      return db.delete(notifications).where(lt(notifications.createdAt, cutoff)).run().changes;
    },
  };
}

export type NotificationRepository = ReturnType<typeof createNotificationRepository>;
