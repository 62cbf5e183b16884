import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { INVITE_ROLES } from '../../contract/invites.js';
import { users } from './auth.table.js';

/** One-time invites to register on a hub in `invite` mode (features/auth/registration.service.ts). */
export const invites = sqliteTable(
  'invites',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** SHA-256 (hex) of the code: the code itself is shown once and never stored. */
    codeHash: text('code_hash').notNull().unique(),
    role: text('role', { enum: INVITE_ROLES }).notNull().default('user'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
    usedBy: integer('used_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('invites_expires_at_idx').on(t.expiresAt)],
);

export type InviteRow = typeof invites.$inferSelect;
