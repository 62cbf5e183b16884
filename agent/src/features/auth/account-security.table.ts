import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './auth.table.js';

/** WebAuthn credentials (passkeys). The public key is all the hub keeps; the private key never leaves the device. */
export const passkeys = sqliteTable(
  'passkeys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter (0 for those that do not count, e.g. synced passkeys). */
    counter: integer('counter').notNull().default(0),
    /** JSON list of transports the browser reported (usb, internal, hybrid…). */
    transports: text('transports'),
    deviceType: text('device_type', { enum: ['singleDevice', 'multiDevice'] }),
    backedUp: integer('backed_up', { mode: 'boolean' }).notNull().default(false),
    name: text('name').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('passkeys_credential_id_unique').on(t.credentialId),
    index('passkeys_user_idx').on(t.userId),
  ],
);
export type PasskeyRow = typeof passkeys.$inferSelect;

/** Two-factor recovery codes: ten per enrolment, shown once, stored as SHA-256, each usable once. */
export const recoveryCodes = sqliteTable(
  'recovery_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/** One-time links that sign a phone in as a named device session (/phone-admin). */
export const phonePairings = sqliteTable(
  'phone_pairings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** SHA-256 of the link's token: the token is in the QR code only. */
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
    /** The session the phone got (its publicId), once used. */
    sessionPublicId: text('session_public_id'),
  },
  (t) => [uniqueIndex('phone_pairings_token_hash_unique').on(t.tokenHash)],
);
