import { z } from 'zod';

/** What every wake word aims for unless its owner sets another target. */
export const DEFAULT_TARGET_SAMPLES = 50;

export const wakeWordPhraseSchema = z
  .string()
  .trim()
  .min(2, 'Say at least two letters')
  .max(60, 'Keep the phrase under 60 characters')
  .regex(/^[\p{L}\p{M}' -]+$/u, 'Letters, spaces, apostrophes and hyphens only');

export const createWakeWordInputSchema = z
  .object({
    phrase: wakeWordPhraseSchema,
    targetSamples: z.number().int().min(5).max(10_000).default(DEFAULT_TARGET_SAMPLES),
    language: z
      .string()
      .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'A language code such as en or en-US')
      .default('en'),
    crowdsourcing: z.boolean().default(false),
  })
  .strict();
export type CreateWakeWordInput = z.input<typeof createWakeWordInputSchema>;

export const updateWakeWordInputSchema = z
  .object({
    targetSamples: z.number().int().min(5).max(10_000),
    crowdsourcing: z.boolean(),
  })
  .partial()
  .strict();
export type UpdateWakeWordInput = z.infer<typeof updateWakeWordInputSchema>;

export const verdictSchema = z.enum(['good', 'warning', 'bad']);
export type Verdict = z.infer<typeof verdictSchema>;

/** What the agent measured in a take (after resampling to 16 kHz mono). */
export const sampleQualitySchema = z.object({
  durationMs: z.number(),
  rmsDbfs: z.number(),
  peakDbfs: z.number(),
  /** Speech against the room's noise floor; null when no speech was found. */
  snrDb: z.number().nullable(),
  noiseFloorDbfs: z.number(),
  clippingPercent: z.number(),
  leadingSilenceMs: z.number(),
  trailingSilenceMs: z.number(),
  speechMs: z.number(),
  verdict: verdictSchema,
  /** Plain words, each with what to do about it. */
  issues: z.array(z.string()),
});
export type SampleQuality = z.infer<typeof sampleQualitySchema>;

export const sampleStatusSchema = z.enum(['pending', 'accepted', 'rejected']);
export type SampleStatus = z.infer<typeof sampleStatusSchema>;
export const sampleSourceSchema = z.enum(['recording', 'satellite', 'crowdsource']);
export type SampleSource = z.infer<typeof sampleSourceSchema>;

export const wakeWordSampleSchema = z.object({
  id: z.number(),
  wakeWordId: z.number(),
  status: sampleStatusSchema,
  source: sampleSourceSchema,
  device: z.string(),
  speaker: z.string(),
  /** The account that recorded it in the console; null for satellites and crowdsourced takes. */
  uploadedBy: z.number().nullable(),
  /** The upload as it came, before it was brought to 16 kHz mono. */
  original: z.object({ sampleRate: z.number(), channels: z.number(), bitsPerSample: z.number() }),
  quality: sampleQualitySchema,
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
});
export type WakeWordSample = z.infer<typeof wakeWordSampleSchema>;

export const progressGroupSchema = z.object({
  name: z.string(),
  accepted: z.number(),
  pending: z.number(),
  rejected: z.number(),
});
export type ProgressGroup = z.infer<typeof progressGroupSchema>;

export const wakeWordSchema = z.object({
  id: z.number(),
  phrase: z.string(),
  /** The phrase in URL form: /crowdsource/hey-nexus. */
  slug: z.string(),
  language: z.string(),
  targetSamples: z.number(),
  crowdsourcing: z.boolean(),
  progress: z.object({
    accepted: z.number(),
    pending: z.number(),
    rejected: z.number(),
    /** Accepted against the target, 0–100. */
    percent: z.number(),
    byDevice: z.array(progressGroupSchema),
    bySpeaker: z.array(progressGroupSchema),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WakeWord = z.infer<typeof wakeWordSchema>;

const labelSchema = z
  .string()
  .trim()
  .min(1)
  .max(80)
  .regex(/^[^\p{Cc}]+$/u, 'No control characters');

/** The query of a sample upload: which microphone and whose voice. */
export const sampleUploadQuerySchema = z
  .object({
    device: labelSchema.optional(),
    speaker: labelSchema.optional(),
    /** A satellite that sends its own takes names itself and presents its bearer token. */
    satellite: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .strict();

export const sampleListQuerySchema = z
  .object({
    status: sampleStatusSchema.optional(),
    source: sampleSourceSchema.optional(),
  })
  .strict();

export const reviewSampleInputSchema = z.object({ status: z.enum(['accepted', 'rejected']) }).strict();

// --- Crowdsourcing ---------------------------------------------------------------------------

/** The licence visitors' takes are given under; the consent screen names it. */
export const CROWDSOURCE_LICENSE = 'CC0 1.0 (public domain dedication)';

export const crowdsourceWakeWordSchema = z.object({
  slug: z.string(),
  phrase: z.string(),
  language: z.string(),
  license: z.string(),
  accepted: z.number(),
  targetSamples: z.number(),
});
export type CrowdsourceWakeWord = z.infer<typeof crowdsourceWakeWordSchema>;

export const crowdsourceUploadQuerySchema = z
  .object({
    consent: z.enum(['true', 'false'], {
      message: 'consent=true is required: read and accept the consent first',
    }),
    speaker: labelSchema.optional(),
    device: labelSchema.optional(),
  })
  .strict();

export const crowdsourceUploadResultSchema = z.object({
  /** Waiting for the owner's review; never shown as accepted before that. */
  status: z.literal('pending'),
  quality: sampleQualitySchema,
  /** Shown once: it deletes the take. Only its hash is stored. */
  deletionToken: z.string(),
});
export type CrowdsourceUploadResult = z.infer<typeof crowdsourceUploadResultSchema>;

export const crowdsourceDeleteInputSchema = z.object({ token: z.string().min(10).max(200) }).strict();

// --- Engines ---------------------------------------------------------------------------------

export const engineSchema = z.enum(['microwakeword', 'openwakeword', 'precise', 'porcupine']);
export type Engine = z.infer<typeof engineSchema>;
export const exportQuerySchema = z.object({ engine: engineSchema }).strict();

/** ESPHome micro_wake_word's v2 model manifest (the JSON beside the .tflite). */
export const microWakeWordManifestSchema = z
  .object({
    type: z.literal('micro'),
    wake_word: z.string(),
    author: z.string(),
    website: z.string(),
    model: z.string(),
    trained_languages: z.array(z.string()),
    version: z.literal(2),
    micro: z
      .object({
        probability_cutoff: z.number().min(0).max(1),
        sliding_window_size: z.number().int().positive(),
        feature_step_size: z.number().int().positive(),
        tensor_arena_size: z.number().int().positive(),
        minimum_esphome_version: z.string(),
      })
      .strict(),
  })
  .strict();
export type MicroWakeWordManifest = z.infer<typeof microWakeWordManifestSchema>;

/** openWakeWord's training config (the fields of its examples/custom_model.yml). */
export const openWakeWordTrainingSchema = z
  .object({
    model_name: z.string(),
    target_phrase: z.array(z.string()).min(1),
    custom_negative_phrases: z.array(z.string()),
    total_length: z.number().int().positive(),
    n_samples: z.number().int().positive(),
    n_samples_val: z.number().int().positive(),
    tts_batch_size: z.number().int().positive(),
    augmentation_batch_size: z.number().int().positive(),
    piper_sample_generator_path: z.string(),
    output_dir: z.string(),
    rir_paths: z.array(z.string()),
    background_paths: z.array(z.string()),
    false_positive_validation_data_path: z.string(),
    augmentation_rounds: z.number().int().positive(),
    feature_data_files: z.record(z.string(), z.string()),
    batch_n_per_class: z.record(z.string(), z.number().int().nonnegative()),
    model_type: z.enum(['dnn', 'rnn']),
    layer_size: z.number().int().positive(),
    steps: z.number().int().positive(),
    max_negative_weight: z.number().positive(),
    target_accuracy: z.number().min(0).max(1),
    target_recall: z.number().min(0).max(1),
    target_false_positives_per_hour: z.number().nonnegative(),
  })
  .strict();
export type OpenWakeWordTraining = z.infer<typeof openWakeWordTrainingSchema>;

/** The command-line settings of the Wyoming openWakeWord service. */
export const wyomingOpenWakeWordSchema = z
  .object({
    uri: z.string(),
    custom_model_dir: z.string(),
    preload_model: z.string(),
    threshold: z.number().min(0).max(1),
    trigger_level: z.number().int().positive(),
    refractory_seconds: z.number().nonnegative(),
  })
  .strict();

export const preciseLayoutSchema = z
  .object({
    model_name: z.string(),
    sample_rate: z.literal(16_000),
    channels: z.literal(1),
    bits_per_sample: z.literal(16),
    folders: z.record(z.string(), z.string()),
    train_split: z.number().min(0).max(1),
    commands: z.array(z.string()),
  })
  .strict();

export const porcupineSchema = z
  .object({
    phrase: z.string(),
    language: z.string(),
    console_steps: z.array(z.string()),
    keyword_file: z.string(),
    placement: z.string(),
    usage: z.string(),
  })
  .strict();

const engineFileSchema = z.object({ name: z.string(), contentType: z.string(), content: z.string() });

export const engineExportSchema = z.object({
  engine: engineSchema,
  wakeWord: z.string(),
  /** How many accepted samples there are to train or test with. */
  acceptedSamples: z.number(),
  /** What to do with the files, in order. */
  steps: z.array(z.string()),
  files: z.array(engineFileSchema),
});
export type EngineExport = z.infer<typeof engineExportSchema>;
