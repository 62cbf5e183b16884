import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { ROLES } from '../../contract/auth.js';

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    /** As the person typed it; uniqueness is on the lower-cased form below. */
    email: text('email').notNull(),
    emailNormalized: text('email_normalized').notNull(),
    role: text('role', { enum: ROLES }).notNull().default('user'),
    passwordHash: text('password_hash').notNull(),
    /** TOTP secret sealed by the SecretBox; set during enrolment, trusted only once totpEnabled. */
    totpSecretSealed: text('totp_secret_sealed'),
    totpEnabled: integer('totp_enabled', { mode: 'boolean' }).notNull().default(false),
    /** The last accepted TOTP time step, so a code cannot be replayed within its window. */
    totpLastStep: integer('totp_last_step'),
    /** Set when an admin disabled the account: it cannot sign in and its sessions were ended. */
    disabledAt: integer('disabled_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch() * 1000)`),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch() * 1000)`),
  },
  (t) => [uniqueIndex('users_email_normalized_unique').on(t.emailNormalized)],
);

export const sessions = sqliteTable(
  'sessions',
  {
    /** SHA-256 of the cookie's 256-bit random id: a leaked database holds no usable session. */
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** rememberMe sessions live 30 days; others end with the browser or after the idle timeout. */
    persistent: integer('persistent', { mode: 'boolean' }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    lastSeenAt: integer('last_seen_at', { mode: 'timestamp_ms' }).notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
    /** The session's name in lists and URLs (`DELETE /api/auth/sessions/:id`); the id hash never leaves the hub. */
    publicId: text('public_id').notNull(),
    /** The last time the password or a passkey was proven in this session (sensitive changes need it within 5 min). */
    reauthAt: integer('reauth_at', { mode: 'timestamp_ms' }),
    /** browser: signed in on /auth; phone: a device paired by QR code on /phone-admin. */
    kind: text('kind', { enum: ['browser', 'phone'] })
      .notNull()
      .default('browser'),
    /** A paired phone's name, given when it was paired. */
    deviceName: text('device_name'),
  },
  (t) => [
    index('sessions_user_id_idx').on(t.userId),
    index('sessions_expires_at_idx').on(t.expiresAt),
    uniqueIndex('sessions_public_id_unique').on(t.publicId),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
