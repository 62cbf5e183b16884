import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  CROWDSOURCE_LICENSE,
  DEFAULT_TARGET_SAMPLES,
  type CreateWakeWordInput,
  type CrowdsourceUploadResult,
  type CrowdsourceWakeWord,
  type Engine,
  type EngineExport,
  type ProgressGroup,
  type SampleSource,
  type SampleStatus,
  type UpdateWakeWordInput,
  type WakeWord,
  type WakeWordSample,
} from '../../contract/wake-words.js';
import { HttpError, conflict, notFound } from '../../lib/http-error.js';
import { isAdminRole, type Role } from '../../contract/auth.js';
import { analyseSample, type AnalysedSample } from './wake-words.quality.js';
import { datasetZip, engineExport } from './wake-words.export.js';
import type { WakeWordsRepository } from './wake-words.repository.js';
import type { WakeWordRow, WakeWordSampleRow } from './wake-words.table.js';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const DELETION_TOKEN_PREFIX = 'nxdel_';
const UNKNOWN_DEVICE = 'Unknown device';
const UNKNOWN_SPEAKER = 'Unknown speaker';
const CROWD_SPEAKER = 'Anonymous contributor';
const OTHER_SPEAKERS = 'Other speakers';

/** "Hey Nexus!" → "hey-nexus": the wake word's address on /crowdsource. */
export function slugify(phrase: string): string {
  return phrase
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export interface SampleOrigin {
  source: SampleSource;
  device?: string;
  speaker?: string;
  userId?: number | null;
}

export function createWakeWordsService(deps: {
  repo: WakeWordsRepository;
  dataDir: string;
  /** Where the console is reached, for the engines' "website" fields. */
  publicUrl?: string | null;
}) {
  const { repo, dataDir } = deps;
  const root = path.join(dataDir, 'wake-words');

  const requireWakeWord = (id: number): WakeWordRow => {
    const row = repo.get(id);
    if (!row) throw notFound('No such wake word');
    return row;
  };

  /**
   * A sample the actor may see: admins every one, members only the takes they recorded (other
   * members' voices, satellites' and visitors' takes are not theirs). A sample a member may not see
   * answers 404 like one that does not exist, for reading, reviewing and deleting alike.
   */
  const requireSample = (wakeWordId: number, sampleId: number, actor: SampleActor): WakeWordSampleRow => {
    requireWakeWord(wakeWordId);
    const row = repo.sample(wakeWordId, sampleId);
    if (!row || (!isAdminRole(actor.role) && row.uploadedBy !== actor.id)) throw notFound('No such sample');
    return row;
  };

  /**
   * Speakers are people: a member sees the speakers of their own takes by name and everyone
   * else's takes as one "Other speakers" group, so the chart still adds up to the totals.
   */
  const speakerGroups = (row: WakeWordRow, viewer: SampleActor): ProgressGroup[] => {
    if (isAdminRole(viewer.role)) return groups(repo.counts(row.id, 'speaker'));
    const own = repo.counts(row.id, 'speaker', viewer.id);
    const others = new Map<SampleStatus, number>();
    for (const count of repo.counts(row.id, 'all')) others.set(count.status, count.count);
    for (const count of own) others.set(count.status, (others.get(count.status) ?? 0) - count.count);
    const rest = [...others].filter(([, count]) => count > 0);
    const otherGroup = rest.map(([status, count]) => ({ group: OTHER_SPEAKERS, status, count }));
    return [...groups(own), ...groups(otherGroup)];
  };

  const toWakeWord = (row: WakeWordRow, viewer: SampleActor): WakeWord => {
    const totals = { accepted: 0, pending: 0, rejected: 0 };
    for (const count of repo.counts(row.id, 'all')) totals[count.status] += count.count;
    return {
      id: row.id,
      phrase: row.phrase,
      slug: row.slug,
      language: row.language,
      targetSamples: row.targetSamples,
      crowdsourcing: row.crowdsourcing,
      progress: {
        ...totals,
        percent: Math.min(100, Math.round((totals.accepted / row.targetSamples) * 100)),
        byDevice: groups(repo.counts(row.id, 'device')),
        bySpeaker: speakerGroups(row, viewer),
      },
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  };

  const readWav = (row: WakeWordSampleRow): Buffer => {
    try {
      return fs.readFileSync(path.join(dataDir, row.file));
    } catch {
      throw notFound('The audio of this sample is missing from the data directory');
    }
  };

  const removeFile = (row: WakeWordSampleRow) => fs.rmSync(path.join(dataDir, row.file), { force: true });

  const store = (
    wakeWord: WakeWordRow,
    analysed: AnalysedSample,
    origin: SampleOrigin,
    status: SampleStatus,
    tokenHash: string | null,
  ) => {
    const relative = path.join('wake-words', String(wakeWord.id), `${randomUUID()}.wav`);
    // People's voices: the agent's alone, like the data directory (0700/0600 whatever the umask allows).
    fs.mkdirSync(path.join(dataDir, path.dirname(relative)), { recursive: true, mode: 0o700 });
    try {
      // Inside the try: a write that fails half-way (a full disk, 507) leaves a partial file behind.
      fs.writeFileSync(path.join(dataDir, relative), analysed.wav16k, { mode: 0o600 });
      return repo.addSample({
        wakeWordId: wakeWord.id,
        status,
        source: origin.source,
        device: origin.device ?? UNKNOWN_DEVICE,
        speaker: origin.speaker ?? UNKNOWN_SPEAKER,
        file: relative,
        originalSampleRate: analysed.original.sampleRate,
        originalChannels: analysed.original.channels,
        originalBitsPerSample: analysed.original.bitsPerSample,
        verdict: analysed.quality.verdict,
        snrDb: analysed.quality.snrDb,
        quality: analysed.quality,
        deletionTokenHash: tokenHash,
        uploadedBy: origin.userId ?? null,
      });
    } catch (error) {
      fs.rmSync(path.join(dataDir, relative), { force: true });
      throw error;
    }
  };

  const openForCrowd = (slug: string): WakeWordRow => {
    const row = repo.bySlug(slug);
    if (!row || !row.crowdsourcing) throw notFound('This wake word is not collecting contributions');
    return row;
  };

  const acceptedCount = (row: WakeWordRow) =>
    repo.counts(row.id, 'all').find((count) => count.status === 'accepted')?.count ?? 0;

  return {
    list(viewer: SampleActor): WakeWord[] {
      return repo.list().map((row) => toWakeWord(row, viewer));
    },

    get(id: number, viewer: SampleActor): WakeWord {
      return toWakeWord(requireWakeWord(id), viewer);
    },

    create(input: CreateWakeWordInput, admin: SampleActor): WakeWord {
      const phrase = input.phrase.trim().replace(/\s+/g, ' ');
      const slug = slugify(phrase);
      if (!slug) throw new HttpError(400, 'The phrase needs at least one letter from a to z');
      if (repo.bySlug(slug)) throw conflict(`A wake word "${phrase}" already exists`);
      return toWakeWord(
        repo.create({
          phrase,
          slug,
          language: input.language ?? 'en',
          targetSamples: input.targetSamples ?? DEFAULT_TARGET_SAMPLES,
          crowdsourcing: input.crowdsourcing ?? false,
          createdBy: admin.id,
        }),
        admin,
      );
    },

    update(id: number, input: UpdateWakeWordInput, admin: SampleActor): WakeWord {
      requireWakeWord(id);
      return toWakeWord(repo.update(id, input)!, admin);
    },

    remove(id: number): void {
      requireWakeWord(id);
      repo.delete(id);
      fs.rmSync(path.join(root, String(id)), { recursive: true, force: true });
    },

    /** The samples the viewer may hear: all for admins, a member's own takes for a member. */
    samples(
      id: number,
      filter: { status?: SampleStatus; source?: SampleSource },
      viewer: SampleActor,
    ): WakeWordSample[] {
      requireWakeWord(id);
      const own = isAdminRole(viewer.role) ? {} : { uploadedBy: viewer.id };
      return repo.samples(id, { ...filter, ...own }).map(toSample);
    },

    /**
     * A take from the console or a satellite. A good one counts at once; one with a warning or a
     * bad verdict waits for the owner to accept or reject it after listening.
     */
    addSample(id: number, body: Uint8Array, origin: SampleOrigin): WakeWordSample {
      const wakeWord = requireWakeWord(id);
      const analysed = analyseSample(body);
      const status = analysed.quality.verdict === 'good' ? 'accepted' : 'pending';
      const row = store(wakeWord, analysed, origin, status, null);
      return toSample(row);
    },

    review(
      id: number,
      sampleId: number,
      status: 'accepted' | 'rejected',
      actor: SampleActor,
    ): WakeWordSample {
      requireSample(id, sampleId, actor);
      return toSample(repo.setStatus(sampleId, status)!);
    },

    removeSample(id: number, sampleId: number, actor: SampleActor): void {
      const row = requireSample(id, sampleId, actor);
      repo.deleteSample(sampleId);
      removeFile(row);
    },

    sampleAudio(id: number, sampleId: number, actor: SampleActor): Buffer {
      return readWav(requireSample(id, sampleId, actor));
    },

    exportEngine(id: number, engine: Engine): EngineExport {
      const row = requireWakeWord(id);
      const accepted = repo.samples(id, { status: 'accepted' });
      return engineExport(
        {
          phrase: row.phrase,
          slug: row.slug,
          language: row.language,
          acceptedSamples: accepted.length,
          longestSpeechMs: Math.max(0, ...accepted.map((sample) => sample.quality.speechMs)),
          website: deps.publicUrl
            ? new URL(`/crowdsource/${row.slug}`, deps.publicUrl).toString()
            : 'http://nexus.local',
        },
        engine,
      );
    },

    exportDataset(id: number): { fileName: string; zip: Uint8Array } {
      const row = requireWakeWord(id);
      const accepted = repo.samples(id, { status: 'accepted' }).reverse();
      if (accepted.length === 0) throw conflict('No accepted samples yet: record or accept some first');
      const zip = datasetZip(
        row,
        accepted.map((sample) => ({ sample: toSample(sample), wav: readWav(sample) })),
      );
      return { fileName: `${row.slug}-dataset.zip`, zip };
    },

    // --- Crowdsourcing -----------------------------------------------------------------------

    openWakeWords(): CrowdsourceWakeWord[] {
      return repo
        .list()
        .filter((row) => row.crowdsourcing)
        .map((row) => toCrowdsource(row, acceptedCount(row)));
    },

    openWakeWord(slug: string): CrowdsourceWakeWord {
      const row = openForCrowd(slug);
      return toCrowdsource(row, acceptedCount(row));
    },

    /**
     * A visitor's take: refused with the reason when its quality is bad, otherwise kept for the
     * owner's review. The deletion token is returned once; only its hash is stored.
     */
    contribute(
      slug: string,
      body: Uint8Array,
      labels: { speaker?: string; device?: string },
    ): CrowdsourceUploadResult {
      const wakeWord = openForCrowd(slug);
      const analysed = analyseSample(body);
      if (analysed.quality.verdict === 'bad') {
        throw new HttpError(422, `Take not accepted: ${analysed.quality.issues[0]}`, {
          quality: analysed.quality,
        });
      }
      const token = DELETION_TOKEN_PREFIX + randomBytes(32).toString('base64url');
      const row = store(
        wakeWord,
        analysed,
        {
          source: 'crowdsource',
          speaker: labels.speaker ?? CROWD_SPEAKER,
          device: labels.device ?? 'Browser',
        },
        'pending',
        hashToken(token),
      );
      return { status: 'pending', quality: row.quality, deletionToken: token };
    },

    /** Deletes a visitor's take with the token they were given; 404 whatever is wrong with it. */
    deleteContribution(token: string): void {
      const row = repo.sampleByDeletionToken(hashToken(token));
      if (!row) throw notFound('No contribution has this deletion token (it may be deleted already)');
      repo.deleteSample(row.id);
      removeFile(row);
    },
  };
}

export type WakeWordsService = ReturnType<typeof createWakeWordsService>;

function groups(counts: { group: string; status: SampleStatus; count: number }[]): ProgressGroup[] {
  const byName = new Map<string, ProgressGroup>();
  for (const { group, status, count } of counts) {
    const entry = byName.get(group) ?? { name: group, accepted: 0, pending: 0, rejected: 0 };
    entry[status] += count;
    byName.set(group, entry);
  }
  return [...byName.values()].sort((a, b) => b.accepted - a.accepted || a.name.localeCompare(b.name));
}

/** Who reads, reviews or deletes samples: admins moderate every sample, members only their own takes. */
export interface SampleActor {
  id: number;
  role: Role;
}

function toSample(row: WakeWordSampleRow): WakeWordSample {
  return {
    id: row.id,
    wakeWordId: row.wakeWordId,
    status: row.status,
    source: row.source,
    device: row.device,
    speaker: row.speaker,
    uploadedBy: row.uploadedBy,
    original: {
      sampleRate: row.originalSampleRate,
      channels: row.originalChannels,
      bitsPerSample: row.originalBitsPerSample,
    },
    quality: row.quality,
    createdAt: row.createdAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  };
}

function toCrowdsource(row: WakeWordRow, accepted: number): CrowdsourceWakeWord {
  return {
    slug: row.slug,
    phrase: row.phrase,
    language: row.language,
    license: CROWDSOURCE_LICENSE,
    accepted,
    targetSamples: row.targetSamples,
  };
}
