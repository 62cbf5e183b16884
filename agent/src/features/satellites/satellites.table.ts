import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { SATELLITE_SOURCES } from '../../contract/satellites.js';

/**
 * Every satellite the hub knows, whatever its source, so each has one numeric id that flows,
 * routes and the signal history use. Home Assistant satellites get their row when first
 * discovered (keyed by HA's device id); Wyoming satellites when an admin adds one; Nexus-API
 * satellites when an admin creates one (they alone have a token).
 */
export const satellites = sqliteTable(
  'satellites',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    source: text('source', { enum: SATELLITE_SOURCES }).notNull().default('nexus'),
    /** Home Assistant's device id for source home-assistant. */
    externalId: text('external_id'),
    /** Where the hub connects to a Wyoming satellite. */
    host: text('host'),
    port: integer('port'),
    name: text('name').notNull(),
    room: text('room'),
    /** SHA-256 of a Nexus-API satellite's bearer token (256 random bits): the database holds nothing usable. */
    tokenHash: text('token_hash'),
    activeWakeWord: text('active_wake_word'),
    /** dBm from the last heartbeat. */
    signalStrength: integer('signal_strength'),
    /** What the satellite said about itself in its last heartbeat: online or degraded. */
    reportedStatus: text('reported_status', { enum: ['online', 'degraded'] }),
    ipAddress: text('ip_address'),
    firmwareVersion: text('firmware_version'),
    /** A Wyoming satellite the hub told to stop listening (pause-satellite); kept across restarts. */
    muted: integer('muted', { mode: 'boolean' }).notNull().default(false),
    model: text('model'),
    manufacturer: text('manufacturer'),
    lastSeenAt: integer('last_seen_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    uniqueIndex('satellites_token_hash_unique').on(t.tokenHash),
    uniqueIndex('satellites_source_external_unique').on(t.source, t.externalId),
    uniqueIndex('satellites_wyoming_address_unique').on(t.host, t.port),
  ],
);

export type SatelliteRow = typeof satellites.$inferSelect;

/** Signal readings for the 24 h chart: one row each time a satellite's dBm is reported. */
export const satelliteSignalSamples = sqliteTable(
  'satellite_signal_samples',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    satelliteId: integer('satellite_id')
      .notNull()
      .references(() => satellites.id, { onDelete: 'cascade' }),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
    dbm: integer('dbm').notNull(),
  },
  (t) => [index('satellite_signal_samples_satellite_at_idx').on(t.satelliteId, t.at)],
);
