import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { STT_ENGINES, TTS_ENGINES } from '../../contract/speech.js';

/** The hub's speech services: one row (id 1), written when an admin first saves them. */
export const speechSettings = sqliteTable('speech_settings', {
  id: integer('id').primaryKey(),
  sttEngine: text('stt_engine', { enum: STT_ENGINES }),
  sttWyomingHost: text('stt_wyoming_host'),
  sttWyomingPort: integer('stt_wyoming_port').notNull(),
  sttModel: text('stt_model'),
  sttLanguage: text('stt_language'),
  sttOpenaiBaseUrl: text('stt_openai_base_url'),
  /** The OpenAI-compatible API key sealed by the SecretBox; never returned by an endpoint. */
  sttApiKeySealed: text('stt_api_key_sealed'),
  ttsEngine: text('tts_engine', { enum: TTS_ENGINES }),
  ttsHost: text('tts_host'),
  ttsPort: integer('tts_port').notNull(),
  ttsVoice: text('tts_voice'),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});
export type SpeechSettingsRow = typeof speechSettings.$inferSelect;
