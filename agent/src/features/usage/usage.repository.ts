import { eq, sql, and } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { aiUsage } from './usage.table.js';

/** The calendar month (UTC) a moment falls in, as stored: `YYYY-MM`. */
export function monthKey(at: number | Date): string {
  return new Date(at).toISOString().slice(0, 7);
}

/** The first millisecond of that month (UTC). */
export function monthStart(at: number | Date): Date {
  const d = new Date(at);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}

/**
 * Counts AI messages. The LLM feature calls `recordAiMessage` once per message it answers; the
 * subscription (monthly quota) and the pipeline status (total requests) read the counts.
 */
export function createUsageRepository(db: Db, now: () => number = Date.now) {
  return {
    recordAiMessage(userId: number, count = 1): void {
      const month = monthKey(now());
      db.insert(aiUsage)
        .values({ userId, month, aiMessages: count })
        .onConflictDoUpdate({
          target: [aiUsage.userId, aiUsage.month],
          set: { aiMessages: sql`${aiUsage.aiMessages} + ${count}` },
        })
        .run();
    },

    /** Every user's messages in the month `at` falls in. */
    messagesInMonth(at: number = now()): number {
      const row = db
        .select({ n: sql<number>`coalesce(sum(${aiUsage.aiMessages}), 0)` })
        .from(aiUsage)
        .where(eq(aiUsage.month, monthKey(at)))
        .get();
      return Number(row?.n ?? 0);
    },

    messagesForUserInMonth(userId: number, at: number = now()): number {
      const row = db
        .select({ n: aiUsage.aiMessages })
        .from(aiUsage)
        .where(and(eq(aiUsage.userId, userId), eq(aiUsage.month, monthKey(at))))
        .get();
      return row?.n ?? 0;
    },

    /** All messages ever served by the hub. */
    totalMessages(): number {
      const row = db
        .select({ n: sql<number>`coalesce(sum(${aiUsage.aiMessages}), 0)` })
        .from(aiUsage)
        .get();
      return Number(row?.n ?? 0);
    },
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;
