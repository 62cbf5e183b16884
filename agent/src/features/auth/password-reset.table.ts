import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './auth.table.js';

/** Reset links sent by e-mail. Only the SHA-256 of the token is kept: a leaked database resets nothing. */
export const passwordResetTokens = sqliteTable(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    /** Set when the link was used, or when a newer link for the account replaced it. */
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);
