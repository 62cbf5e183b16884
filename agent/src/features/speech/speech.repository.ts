import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { speechSettings, type SpeechSettingsRow } from './speech.table.js';

const ROW_ID = 1;

export type SpeechSettingsValues = Omit<SpeechSettingsRow, 'id' | 'updatedAt'>;

export function createSpeechRepository(db: Db, now: () => number = Date.now) {
  return {
    /** The stored settings; null until an admin first saves them. */
    get(): SpeechSettingsRow | null {
      return db.select().from(speechSettings).where(eq(speechSettings.id, ROW_ID)).get() ?? null;
    },

    save(values: SpeechSettingsValues): SpeechSettingsRow {
      const row = { ...values, id: ROW_ID, updatedAt: new Date(now()) };
      db.insert(speechSettings).values(row).onConflictDoUpdate({ target: speechSettings.id, set: row }).run();
      return row;
    },
  };
}

export type SpeechRepository = ReturnType<typeof createSpeechRepository>;
