import { count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { passkeys } from './account-security.table.js';

/** How many passkeys an account has (the onboarding checklist's "2FA or a passkey"). */
export function countPasskeys(db: Db, userId: number): number {
  return db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId)).get()?.n ?? 0;
}
