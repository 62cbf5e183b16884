import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { FLOW_STATUSES, RUN_STATUSES, RUN_TRIGGERS } from '../../contract/flows.js';
import { users } from '../auth/index.js';

/**
 * Flows: the current definition lives on the row; every save also adds a flow_versions row.
 * Definitions never hold a secret value: those are sealed in `secretsSealed`.
 */
export const flows = sqliteTable(
  'flows',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    status: text('status', { enum: FLOW_STATUSES }).notNull().default('draft'),
    /** JSON: the trigger. */
    trigger: text('trigger').notNull(),
    /** JSON: the stages, secret header values blanked. */
    stages: text('stages').notNull(),
    /** SecretBox-sealed JSON map of `<stageId>\n<header>` → value. */
    secretsSealed: text('secrets_sealed'),
    /** SecretBox-sealed webhook path secret (shown to the owner in the webhook URL). */
    webhookSecretSealed: text('webhook_secret_sealed').notNull(),
    version: integer('version').notNull().default(1),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('flows_owner_idx').on(t.ownerId)],
);
export type FlowRow = typeof flows.$inferSelect;

export const flowVersions = sqliteTable(
  'flow_versions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    flowId: integer('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    trigger: text('trigger').notNull(),
    stages: text('stages').notNull(),
    secretsSealed: text('secrets_sealed'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('flow_versions_flow_version_unique').on(t.flowId, t.version)],
);
export type FlowVersionRow = typeof flowVersions.$inferSelect;

export const flowRuns = sqliteTable(
  'flow_runs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    flowId: integer('flow_id')
      .notNull()
      .references(() => flows.id, { onDelete: 'cascade' }),
    flowVersion: integer('flow_version').notNull(),
    trigger: text('trigger', { enum: RUN_TRIGGERS }).notNull(),
    status: text('status', { enum: RUN_STATUSES }).notNull(),
    /** JSON: what the trigger passed in. */
    input: text('input').notNull(),
    /** JSON: per-stage input, output, status and duration. */
    stages: text('stages').notNull(),
    error: text('error'),
    /** Voice runs: the clip's file name under <dataDir>/flows/clips. */
    clipFile: text('clip_file'),
    transcript: text('transcript'),
    retryOf: integer('retry_of'),
    startedAt: integer('started_at', { mode: 'timestamp_ms' }).notNull(),
    finishedAt: integer('finished_at', { mode: 'timestamp_ms' }),
    durationMs: integer('duration_ms'),
  },
  (t) => [index('flow_runs_flow_idx').on(t.flowId, t.id)],
);
export type FlowRunRow = typeof flowRuns.$inferSelect;

export const flowApiKeys = sqliteTable(
  'flow_api_keys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    /** SHA-256 of the key (256 random bits): the database holds nothing usable. */
    keyHash: text('key_hash').notNull(),
    /** JSON array of the flow ids the key may run. */
    flowIds: text('flow_ids').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('flow_api_keys_hash_unique').on(t.keyHash),
    index('flow_api_keys_user_idx').on(t.userId),
  ],
);
export type FlowApiKeyRow = typeof flowApiKeys.$inferSelect;
