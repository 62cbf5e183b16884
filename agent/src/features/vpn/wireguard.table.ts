import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** The hub's WireGuard server (issue 17): one row (id 1), written when an admin first saves it. */
export const wgServer = sqliteTable('wg_server', {
  id: integer('id').primaryKey(),
  interface: text('interface').notNull(),
  listenPort: integer('listen_port').notNull(),
  address: text('address').notNull(),
  endpoint: text('endpoint').notNull(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull(),
  dns: text('dns'),
  /** Sealed by the SecretBox; never returned by an endpoint. */
  privateKeySealed: text('private_key_sealed').notNull(),
  publicKey: text('public_key').notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/** Devices that dial in to the hub's server. */
export const wgPeers = sqliteTable('wg_peers', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  publicKey: text('public_key').notNull().unique(),
  /** The device's private key, sealed, kept only until its config is downloaded once; then NULL. */
  privateKeySealed: text('private_key_sealed'),
  presharedKeySealed: text('preshared_key_sealed').notNull(),
  /** e.g. 10.8.0.2/32 */
  address: text('address').notNull().unique(),
  /** JSON array of CIDRs the device routes through the tunnel. */
  clientAllowedIps: text('client_allowed_ips').notNull(),
  keepalive: integer('keepalive'),
  enabled: integer('enabled', { mode: 'boolean' }).notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
});
export type WgPeerRow = typeof wgPeers.$inferSelect;

/** The two upstream tunnels: the provider's wg-quick file, sealed (it holds a private key). */
export const vpnUplinks = sqliteTable('vpn_uplinks', {
  role: text('role', { enum: ['primary', 'backup'] }).primaryKey(),
  configSealed: text('config_sealed').notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/** Every failover, failback and change of an uplink's or the server's state. */
export const vpnEvents = sqliteTable('vpn_events', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  at: integer('at', { mode: 'timestamp_ms' }).notNull(),
  kind: text('kind', {
    enum: ['failover', 'failback', 'uplink-down', 'uplink-up', 'server-started', 'server-stopped'],
  }).notNull(),
  from: text('from'),
  to: text('to'),
  detail: text('detail').notNull(),
});
