import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { SampleSource, SampleStatus } from '../../contract/wake-words.js';
import { wakeWordSamples, wakeWords, type WakeWordRow, type WakeWordSampleRow } from './wake-words.table.js';

export type NewWakeWord = Pick<
  WakeWordRow,
  'phrase' | 'slug' | 'language' | 'targetSamples' | 'crowdsourcing' | 'createdBy'
>;
export type NewSample = Omit<WakeWordSampleRow, 'id' | 'createdAt' | 'reviewedAt'>;

export interface StatusCount {
  group: string;
  status: SampleStatus;
  count: number;
}

export function createWakeWordsRepository(db: Db, now: () => number = Date.now) {
  return {
    list(): WakeWordRow[] {
      return db.select().from(wakeWords).orderBy(asc(wakeWords.phrase)).all();
    },

    get(id: number): WakeWordRow | undefined {
      return db.select().from(wakeWords).where(eq(wakeWords.id, id)).get();
    },

    bySlug(slug: string): WakeWordRow | undefined {
      return db.select().from(wakeWords).where(eq(wakeWords.slug, slug)).get();
    },

    create(values: NewWakeWord): WakeWordRow {
      const t = new Date(now());
      return db
        .insert(wakeWords)
        .values({ ...values, createdAt: t, updatedAt: t })
        .returning()
        .get();
    },

    update(id: number, changes: Partial<Pick<WakeWordRow, 'targetSamples' | 'crowdsourcing'>>) {
      return db
        .update(wakeWords)
        .set({ ...changes, updatedAt: new Date(now()) })
        .where(eq(wakeWords.id, id))
        .returning()
        .get();
    },

    delete(id: number): boolean {
      return db.delete(wakeWords).where(eq(wakeWords.id, id)).run().changes > 0;
    },

    /** Sample counts per status, grouped by device or speaker (or all together); one uploader's when given. */
    counts(wakeWordId: number, by: 'device' | 'speaker' | 'all', uploadedBy?: number): StatusCount[] {
      const group =
        by === 'device'
          ? wakeWordSamples.device
          : by === 'speaker'
            ? wakeWordSamples.speaker
            : sql<string>`''`;
      return db
        .select({ group, status: wakeWordSamples.status, count: sql<number>`count(*)` })
        .from(wakeWordSamples)
        .where(
          uploadedBy === undefined
            ? eq(wakeWordSamples.wakeWordId, wakeWordId)
            : and(eq(wakeWordSamples.wakeWordId, wakeWordId), eq(wakeWordSamples.uploadedBy, uploadedBy)),
        )
        .groupBy(group, wakeWordSamples.status)
        .all();
    },

    samples(
      wakeWordId: number,
      filter: { status?: SampleStatus; source?: SampleSource; uploadedBy?: number } = {},
    ): WakeWordSampleRow[] {
      const conditions = [eq(wakeWordSamples.wakeWordId, wakeWordId)];
      if (filter.uploadedBy !== undefined) conditions.push(eq(wakeWordSamples.uploadedBy, filter.uploadedBy));
      if (filter.status) conditions.push(eq(wakeWordSamples.status, filter.status));
      if (filter.source) conditions.push(eq(wakeWordSamples.source, filter.source));
      return db
        .select()
        .from(wakeWordSamples)
        .where(and(...conditions))
        .orderBy(desc(wakeWordSamples.createdAt), desc(wakeWordSamples.id))
        .all();
    },

    sample(wakeWordId: number, sampleId: number): WakeWordSampleRow | undefined {
      return db
        .select()
        .from(wakeWordSamples)
        .where(and(eq(wakeWordSamples.wakeWordId, wakeWordId), eq(wakeWordSamples.id, sampleId)))
        .get();
    },

    sampleByDeletionToken(tokenHash: string): WakeWordSampleRow | undefined {
      return db.select().from(wakeWordSamples).where(eq(wakeWordSamples.deletionTokenHash, tokenHash)).get();
    },

    addSample(values: NewSample): WakeWordSampleRow {
      return db
        .insert(wakeWordSamples)
        .values({ ...values, createdAt: new Date(now()), reviewedAt: null })
        .returning()
        .get();
    },

    setStatus(sampleId: number, status: SampleStatus): WakeWordSampleRow | undefined {
      return db
        .update(wakeWordSamples)
        .set({ status, reviewedAt: new Date(now()) })
        .where(eq(wakeWordSamples.id, sampleId))
        .returning()
        .get();
    },

    deleteSample(sampleId: number): boolean {
      return db.delete(wakeWordSamples).where(eq(wakeWordSamples.id, sampleId)).run().changes > 0;
    },
  };
}

export type WakeWordsRepository = ReturnType<typeof createWakeWordsRepository>;
