import { eq } from 'drizzle-orm';
import type { ZodType } from 'zod';
import type { Db } from '../../db/client.js';
import { settings } from './settings.table.js';

/**
 * Get and set JSON settings by key. A stored value that no longer fits the reader's schema
 * (written by an older version, or edited by hand) reads as absent rather than failing the caller.
 */
export function createSettingsRepository(db: Db, now: () => number = Date.now) {
  return {
    get<T>(key: string, schema: ZodType<T>): T | undefined {
      const row = db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).get();
      if (!row) return undefined;
      let json: unknown;
      try {
        json = JSON.parse(row.value);
      } catch {
        return undefined;
      }
      const parsed = schema.safeParse(json);
      return parsed.success ? parsed.data : undefined;
    },

    set(key: string, value: unknown): void {
      const text = JSON.stringify(value);
      if (text === undefined) throw new TypeError(`setting ${key}: value is not JSON-serializable`);
      const updatedAt = new Date(now());
      db.insert(settings)
        .values({ key, value: text, updatedAt })
        .onConflictDoUpdate({ target: settings.key, set: { value: text, updatedAt } })
        .run();
    },

    delete(key: string): void {
      db.delete(settings).where(eq(settings.key, key)).run();
    },
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
