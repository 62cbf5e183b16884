import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { LLM_PROVIDER_KINDS, LLM_TASKS, MESSAGE_STATUSES, ROUTER_STRATEGIES } from '../../contract/llm.js';
import { users } from '../auth/index.js';

/**
 * LLM providers: the hub's own Ollama (built in, its address from OLLAMA_URL, so base_url is
 * null) and the ones an admin adds: more Ollama hubs and OpenAI-compatible endpoints.
 */
export const llmProviders = sqliteTable(
  'llm_providers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind', { enum: LLM_PROVIDER_KINDS }).notNull(),
    name: text('name').notNull(),
    baseUrl: text('base_url'),
    /** The API key sealed by the SecretBox; never returned by an endpoint. */
    apiKeySealed: text('api_key_sealed'),
    local: integer('local', { mode: 'boolean' }).notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    priority: integer('priority').notNull().default(100),
    builtIn: integer('built_in', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('llm_providers_name_unique').on(t.name)],
);
export type LlmProviderRow = typeof llmProviders.$inferSelect;

/** A person's saved chats. */
export const llmConversations = sqliteTable(
  'llm_conversations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    model: text('model'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('llm_conversations_user_idx').on(t.userId, t.updatedAt)],
);
export type LlmConversationRow = typeof llmConversations.$inferSelect;

export const llmMessages = sqliteTable(
  'llm_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => llmConversations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['system', 'user', 'assistant'] }).notNull(),
    content: text('content').notNull(),
    model: text('model'),
    providerName: text('provider_name'),
    /** complete; stopped by the person part-way; error when the stream broke. */
    status: text('status', { enum: MESSAGE_STATUSES }).notNull().default('complete'),
    promptTokens: integer('prompt_tokens'),
    completionTokens: integer('completion_tokens'),
    tokensPerSecond: real('tokens_per_second'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('llm_messages_conversation_idx').on(t.conversationId, t.id)],
);
export type LlmMessageRow = typeof llmMessages.$inferSelect;

/** One routing rule per task; `targets` is a JSON array of {providerId, model} in order. */
export const llmRouterRules = sqliteTable('llm_router_rules', {
  task: text('task', { enum: LLM_TASKS }).primaryKey(),
  targets: text('targets').notNull(),
  strategy: text('strategy', { enum: ROUTER_STRATEGIES }).notNull(),
  timeoutMs: integer('timeout_ms').notNull(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});
export type LlmRouterRuleRow = typeof llmRouterRules.$inferSelect;
