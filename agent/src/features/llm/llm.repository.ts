import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { users } from '../auth/index.js';
import { routerTargetSchema, type LlmTask, type RouterTarget } from '../../contract/llm.js';
import {
  llmConversations,
  llmMessages,
  llmProviders,
  llmRouterRules,
  type LlmConversationRow,
  type LlmMessageRow,
  type LlmProviderRow,
  type LlmRouterRuleRow,
} from './llm.table.js';

export type NewProvider = Pick<
  LlmProviderRow,
  'kind' | 'name' | 'baseUrl' | 'apiKeySealed' | 'local' | 'enabled' | 'priority'
>;
export type ProviderChanges = Partial<
  Pick<LlmProviderRow, 'name' | 'baseUrl' | 'apiKeySealed' | 'local' | 'enabled' | 'priority'>
>;
export type NewMessage = Omit<LlmMessageRow, 'id' | 'createdAt'>;

export interface StoredRule extends Omit<LlmRouterRuleRow, 'targets'> {
  targets: RouterTarget[];
}

const storedTargetsSchema = z.array(routerTargetSchema);

function parseTargets(text: string): RouterTarget[] {
  try {
    const parsed = storedTargetsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export function createLlmRepository(db: Db, now: () => number = Date.now) {
  // Each chat runs these; prepared once, so drizzle does not build their SQL every time.
  const insertMessage = db
    .insert(llmMessages)
    .values({
      conversationId: sql.placeholder('conversationId'),
      role: sql.placeholder('role'),
      content: sql.placeholder('content'),
      model: sql.placeholder('model'),
      providerName: sql.placeholder('providerName'),
      status: sql.placeholder('status'),
      promptTokens: sql.placeholder('promptTokens'),
      completionTokens: sql.placeholder('completionTokens'),
      tokensPerSecond: sql.placeholder('tokensPerSecond'),
      createdAt: sql.placeholder('createdAt'),
    })
    .returning({ id: llmMessages.id })
    .prepare();
  const conversationOf = db
    .select()
    .from(llmConversations)
    .where(
      and(
        eq(llmConversations.id, sql.placeholder('id')),
        eq(llmConversations.userId, sql.placeholder('userId')),
      ),
    )
    .prepare();
  const insertConversation = db
    .insert(llmConversations)
    .values({
      userId: sql.placeholder('userId'),
      title: sql.placeholder('title'),
      model: sql.placeholder('model'),
      createdAt: sql.placeholder('createdAt'),
      updatedAt: sql.placeholder('updatedAt'),
    })
    .returning()
    .prepare();
  // Rules change only through this repository: read once, and again after each change.
  let rulesCache: StoredRule[] | null = null;

  return {
    // ---- providers
    providers(): LlmProviderRow[] {
      return db.select().from(llmProviders).orderBy(asc(llmProviders.priority), asc(llmProviders.id)).all();
    },
    provider(id: number): LlmProviderRow | undefined {
      return db.select().from(llmProviders).where(eq(llmProviders.id, id)).get();
    },
    providerByName(name: string): LlmProviderRow | undefined {
      return db.select().from(llmProviders).where(eq(llmProviders.name, name)).get();
    },
    builtInProvider(): LlmProviderRow | undefined {
      return db.select().from(llmProviders).where(eq(llmProviders.builtIn, true)).get();
    },
    /** Creates the built-in provider unless it exists. */
    ensureBuiltIn(values: NewProvider): LlmProviderRow {
      const existing = this.builtInProvider();
      if (existing) return existing;
      const t = new Date(now());
      return db
        .insert(llmProviders)
        .values({ ...values, builtIn: true, createdAt: t, updatedAt: t })
        .returning()
        .get();
    },
    createProvider(values: NewProvider): LlmProviderRow {
      const t = new Date(now());
      return db
        .insert(llmProviders)
        .values({ ...values, builtIn: false, createdAt: t, updatedAt: t })
        .returning()
        .get();
    },
    updateProvider(id: number, changes: ProviderChanges): LlmProviderRow | undefined {
      return db
        .update(llmProviders)
        .set({ ...changes, updatedAt: new Date(now()) })
        .where(eq(llmProviders.id, id))
        .returning()
        .get();
    },
    deleteProvider(id: number): boolean {
      return db.delete(llmProviders).where(eq(llmProviders.id, id)).run().changes > 0;
    },

    // ---- conversations
    conversations(userId: number): LlmConversationRow[] {
      return db
        .select()
        .from(llmConversations)
        .where(eq(llmConversations.userId, userId))
        .orderBy(desc(llmConversations.updatedAt), desc(llmConversations.id))
        .all();
    },
    conversation(userId: number, id: number): LlmConversationRow | undefined {
      return conversationOf.get({ id, userId });
    },
    createConversation(userId: number, title: string, model: string): LlmConversationRow {
      const t = new Date(now());
      return insertConversation.get({ userId, title, model, createdAt: t, updatedAt: t })!;
    },
    touchConversation(id: number, model: string): void {
      db.update(llmConversations)
        .set({ model, updatedAt: new Date(now()) })
        .where(eq(llmConversations.id, id))
        .run();
    },
    deleteConversation(userId: number, id: number): boolean {
      return (
        db
          .delete(llmConversations)
          .where(and(eq(llmConversations.id, id), eq(llmConversations.userId, userId)))
          .run().changes > 0
      );
    },
    messages(conversationId: number): LlmMessageRow[] {
      return db
        .select()
        .from(llmMessages)
        .where(eq(llmMessages.conversationId, conversationId))
        .orderBy(asc(llmMessages.id))
        .all();
    },
    /** Saves a message; returns its id. */
    addMessage(values: NewMessage): number {
      return insertMessage.get({ ...values, createdAt: new Date(now()) })!.id;
    },

    /** Display names for the usage report. */
    userNames(ids: number[]): Map<number, string> {
      if (ids.length === 0) return new Map();
      const rows = db
        .select({ id: users.id, name: users.name })
        .from(users)
        .where(inArray(users.id, ids))
        .all();
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    // ---- router rules
    rules(): StoredRule[] {
      rulesCache ??= db
        .select()
        .from(llmRouterRules)
        .all()
        .map((r) => ({ ...r, targets: parseTargets(r.targets) }));
      return rulesCache;
    },
    rule(task: LlmTask): StoredRule | undefined {
      return this.rules().find((r) => r.task === task);
    },
    saveRule(rule: Omit<StoredRule, 'updatedAt'>): StoredRule {
      rulesCache = null;
      const values = { ...rule, targets: JSON.stringify(rule.targets), updatedAt: new Date(now()) };
      const row = db
        .insert(llmRouterRules)
        .values(values)
        .onConflictDoUpdate({ target: llmRouterRules.task, set: values })
        .returning()
        .get();
      return { ...row, targets: parseTargets(row.targets) };
    },
    deleteRule(task: LlmTask): boolean {
      rulesCache = null;
      return db.delete(llmRouterRules).where(eq(llmRouterRules.task, task)).run().changes > 0;
    },
  };
}

export type LlmRepository = ReturnType<typeof createLlmRepository>;
