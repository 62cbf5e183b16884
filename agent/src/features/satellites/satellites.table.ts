import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** Satellite voice endpoints the hub knows. Their status is computed from lastSeenAt. */
export const satellites = sqliteTable(
  'satellites',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    room: text('room'),
    /** SHA-256 of the satellite's bearer token (256 random bits): the database holds nothing usable. */
    tokenHash: text('token_hash').notNull(),
    activeWakeWord: text('active_wake_word'),
    /** dBm from the last heartbeat. */
    signalStrength: integer('signal_strength'),
    /** What the satellite said about itself in its last heartbeat: online or degraded. */
    reportedStatus: text('reported_status', { enum: ['online', 'degraded'] }),
    ipAddress: text('ip_address'),
    firmwareVersion: text('firmware_version'),
    lastSeenAt: integer('last_seen_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('satellites_token_hash_unique').on(t.tokenHash)],
);

export type SatelliteRow = typeof satellites.$inferSelect;
