import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** Other Nexus hubs watched from this one (/multi-nexus). */
export const remoteHubs = sqliteTable(
  'remote_hubs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    /** http(s)://host[:port][/prefix], without a trailing slash. */
    url: text('url').notNull(),
    /** The other hub's access token, sealed with the SecretBox: it has to be sent, so it cannot be hashed. */
    tokenSealed: text('token_sealed').notNull(),
    /** The last answer, as RemoteHub fields (JSON), so the list shows something before the next poll. */
    lastResult: text('last_result'),
    lastCheckedAt: integer('last_checked_at', { mode: 'timestamp_ms' }),
    lastSeenAt: integer('last_seen_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('remote_hubs_url_unique').on(t.url)],
);
export type RemoteHubRow = typeof remoteHubs.$inferSelect;

/** Tokens this hub issued to other hubs, which present them to GET /api/nexus/peer. */
export const hubAccessTokens = sqliteTable(
  'hub_access_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    /** SHA-256 of the token (256 random bits): the database holds nothing usable. */
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    createdBy: integer('created_by'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
  },
  (t) => [uniqueIndex('hub_access_tokens_hash_unique').on(t.tokenHash)],
);
export type HubAccessTokenRow = typeof hubAccessTokens.$inferSelect;
