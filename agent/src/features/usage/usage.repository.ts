import { eq, sql, and, gte, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { aiUsage, aiUsageEvents } from './usage.table.js';

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
  // Run for every answered message: prepared once, so drizzle does not build their SQL each time.
  const countMessage = db
    .insert(aiUsage)
    .values({ userId: sql.placeholder('userId'), month: sql.placeholder('month'), aiMessages: 1 })
    .onConflictDoUpdate({
      target: [aiUsage.userId, aiUsage.month],
      set: { aiMessages: sql`${aiUsage.aiMessages} + 1` },
    })
    .prepare();
  const insertEvent = db
    .insert(aiUsageEvents)
    .values({
      userId: sql.placeholder('userId'),
      model: sql.placeholder('model'),
      providerName: sql.placeholder('providerName'),
      modelClass: sql.placeholder('modelClass'),
      promptTokens: sql.placeholder('promptTokens'),
      completionTokens: sql.placeholder('completionTokens'),
      node: sql.placeholder('node'),
      day: sql.placeholder('day'),
      at: sql.placeholder('at'),
    })
    .prepare();

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

    /**
     * One answered message with what answered it: counts toward the month's quota and goes into
     * the report by user, model and day, in one transaction.
     */
    recordAnsweredMessage(
      userId: number,
      detail: {
        model: string;
        providerName: string;
        /** Where it was answered: only 'cloud' counts toward the plan's monthly limit. */
        modelClass: 'local' | 'cloud';
        promptTokens: number | null;
        completionTokens: number | null;
        /** The fleet node whose Ollama answered; null for other providers. */
        node?: string | null;
      },
    ): void {
      const at = now();
      db.transaction(() => {
        countMessage.run({ userId, month: monthKey(at) });
        insertEvent.run({
          userId,
          model: detail.model,
          providerName: detail.providerName,
          modelClass: detail.modelClass,
          promptTokens: detail.promptTokens ?? 0,
          completionTokens: detail.completionTokens ?? 0,
          node: detail.node ?? null,
          day: new Date(at).toISOString().slice(0, 10),
          at: new Date(at),
        });
      });
    },

    /** Answered messages and tokens per day, user, model, provider and node since `since` (UTC day), optionally for one user. */
    usageByDay(since: Date, userId?: number) {
      const day = since.toISOString().slice(0, 10);
      return db
        .select({
          day: aiUsageEvents.day,
          userId: aiUsageEvents.userId,
          model: aiUsageEvents.model,
          providerName: aiUsageEvents.providerName,
          node: aiUsageEvents.node,
          messages: sql<number>`count(*)`,
          promptTokens: sql<number>`coalesce(sum(${aiUsageEvents.promptTokens}), 0)`,
          completionTokens: sql<number>`coalesce(sum(${aiUsageEvents.completionTokens}), 0)`,
        })
        .from(aiUsageEvents)
        .where(
          userId === undefined
            ? gte(aiUsageEvents.day, day)
            : and(gte(aiUsageEvents.day, day), eq(aiUsageEvents.userId, userId)),
        )
        .groupBy(
          aiUsageEvents.day,
          aiUsageEvents.userId,
          aiUsageEvents.model,
          aiUsageEvents.providerName,
          aiUsageEvents.node,
        )
        .orderBy(aiUsageEvents.day)
        .all();
    },

    /**
     * Messages answered by cloud models in the month `at` falls in: the plan's monthly limit
     * (aiMessages). Models on the hub are never counted; rows from before issue 22 are 'local'.
     */
    cloudMessagesInMonth(at: number = now()): number {
      const start = monthStart(at);
      const next = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
      const row = db
        .select({ n: sql<number>`count(*)` })
        .from(aiUsageEvents)
        .where(
          and(
            eq(aiUsageEvents.modelClass, 'cloud'),
            gte(aiUsageEvents.day, start.toISOString().slice(0, 10)),
            lt(aiUsageEvents.day, next.toISOString().slice(0, 10)),
          ),
        )
        .get();
      return Number(row?.n ?? 0);
    },

    /** Answered messages per UTC day since `since` (inclusive), split by where they were answered. */
    messagesByDayAndClass(since: Date): { day: string; modelClass: 'local' | 'cloud'; messages: number }[] {
      return db
        .select({
          day: aiUsageEvents.day,
          modelClass: aiUsageEvents.modelClass,
          messages: sql<number>`count(*)`,
        })
        .from(aiUsageEvents)
        .where(gte(aiUsageEvents.day, since.toISOString().slice(0, 10)))
        .groupBy(aiUsageEvents.day, aiUsageEvents.modelClass)
        .all()
        .map((r) => ({ ...r, messages: Number(r.messages) }));
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
