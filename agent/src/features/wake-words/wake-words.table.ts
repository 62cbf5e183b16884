import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { SampleQuality } from '../../contract/wake-words.js';

/** Custom wake words the hub collects samples for. */
export const wakeWords = sqliteTable(
  'wake_words',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    phrase: text('phrase').notNull(),
    slug: text('slug').notNull(),
    language: text('language').notNull(),
    targetSamples: integer('target_samples').notNull(),
    /** Whether signed-out visitors may contribute takes at /crowdsource/<slug>. */
    crowdsourcing: integer('crowdsourcing', { mode: 'boolean' }).notNull(),
    createdBy: integer('created_by'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('wake_words_slug_unique').on(t.slug)],
);

/** One take: the 16 kHz mono WAV lives at `file` under the data directory, its measurements here. */
export const wakeWordSamples = sqliteTable(
  'wake_word_samples',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    wakeWordId: integer('wake_word_id')
      .notNull()
      .references(() => wakeWords.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'accepted', 'rejected'] }).notNull(),
    source: text('source', { enum: ['recording', 'satellite', 'crowdsource'] }).notNull(),
    device: text('device').notNull(),
    speaker: text('speaker').notNull(),
    /** Relative to the data directory. */
    file: text('file').notNull(),
    originalSampleRate: integer('original_sample_rate').notNull(),
    originalChannels: integer('original_channels').notNull(),
    originalBitsPerSample: integer('original_bits_per_sample').notNull(),
    verdict: text('verdict', { enum: ['good', 'warning', 'bad'] }).notNull(),
    snrDb: real('snr_db'),
    quality: text('quality', { mode: 'json' }).$type<SampleQuality>().notNull(),
    /** SHA-256 of a crowdsourced take's deletion token; the token itself is only ever shown once. */
    deletionTokenHash: text('deletion_token_hash'),
    uploadedBy: integer('uploaded_by'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    reviewedAt: integer('reviewed_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('wake_word_samples_wake_word_idx').on(t.wakeWordId, t.status),
    uniqueIndex('wake_word_samples_deletion_token_unique').on(t.deletionTokenHash),
  ],
);

export type WakeWordRow = typeof wakeWords.$inferSelect;
export type WakeWordSampleRow = typeof wakeWordSamples.$inferSelect;
