import { eq } from 'drizzle-orm';
import { createSecretBox, loadSecretKey, type SecretBox } from '../lib/secret-box.js';
import { settings } from '../features/settings/settings.table.js';
import type { Db } from './client.js';

/** The settings key under which the database records the id of the key that seals its secrets. */
export const KEY_ID_SETTING = 'secret-box.key-id';

/** The SecretBox for this data directory, checked against the key id the database recorded. */
export function openSecretBox(dataDir: string, db: Db): SecretBox {
  return createSecretBox(
    loadSecretKey(dataDir, {
      get: () => {
        const row = db.select().from(settings).where(eq(settings.key, KEY_ID_SETTING)).get();
        return row ? (JSON.parse(row.value) as string) : undefined;
      },
      set: (id) => {
        const value = JSON.stringify(id);
        db.insert(settings)
          .values({ key: KEY_ID_SETTING, value, updatedAt: new Date() })
          .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } })
          .run();
      },
    }),
  );
}
