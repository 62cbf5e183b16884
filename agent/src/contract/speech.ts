import { z } from 'zod';

/**
 * Speech services (the AI control screen's Speech tab, and the flows' VAD, STT and TTS stages):
 * speech to text through a Wyoming service (faster-whisper) or an OpenAI-compatible
 * `/v1/audio/transcriptions` endpoint, text to speech through a Wyoming service (Piper).
 */

/** wyoming: a Wyoming ASR service at host:port; openai: an OpenAI-compatible transcription endpoint. */
export const STT_ENGINES = ['wyoming', 'openai'] as const;
export const sttEngineSchema = z.enum(STT_ENGINES);
export type SttEngine = z.infer<typeof sttEngineSchema>;

export const TTS_ENGINES = ['wyoming'] as const;
export const ttsEngineSchema = z.enum(TTS_ENGINES);
export type TtsEngine = z.infer<typeof ttsEngineSchema>;

export const STT_ENGINE_LABELS: Record<SttEngine, string> = {
  wyoming: 'Wyoming (faster-whisper)',
  openai: 'OpenAI-compatible API',
};

/** The ports the Wyoming services listen on by default (faster-whisper, Piper). */
export const WYOMING_STT_DEFAULT_PORT = 10300;
export const WYOMING_TTS_DEFAULT_PORT = 10200;
export const OPENAI_TRANSCRIPTION_DEFAULT_MODEL = 'whisper-1';

/** Longest text the try-it and the TTS stage send to the synthesizer. */
export const SYNTHESIZE_TEXT_MAX = 2000;

const host = z
  .string()
  .trim()
  .min(1, 'Enter the host name or IP address')
  .max(253)
  .regex(/^[A-Za-z0-9.:[\]_-]+$/, 'Enter a host name or IP address, without http:// or a port');
const port = z.coerce
  .number({ message: 'Enter a port number' })
  .int('Enter a whole port number')
  .min(1, 'Ports go from 1 to 65535')
  .max(65535, 'Ports go from 1 to 65535');
const optionalName = z
  .string()
  .trim()
  .max(200)
  .transform((v) => (v === '' ? null : v))
  .nullable()
  .default(null);
const baseUrl = z
  .url({ protocol: /^https?$/, message: 'Enter an http:// or https:// address' })
  .max(500)
  .transform((u) => u.replace(/\/+$/, ''));

export const speechSettingsSchema = z.object({
  stt: z.object({
    /** null: speech to text is not set up. */
    engine: sttEngineSchema.nullable(),
    wyomingHost: z.string().nullable(),
    wyomingPort: z.number().int(),
    /** The Wyoming model or the OpenAI-compatible model; null lets a Wyoming service choose. */
    model: z.string().nullable(),
    /** e.g. en; null lets the engine detect it. */
    language: z.string().nullable(),
    openaiBaseUrl: z.string().nullable(),
    /** Whether an API key is stored. The key itself is never returned. */
    hasApiKey: z.boolean(),
  }),
  tts: z.object({
    /** null: text to speech is not set up. */
    engine: ttsEngineSchema.nullable(),
    host: z.string().nullable(),
    port: z.number().int(),
    /** A voice the service lists; null lets it choose. */
    voice: z.string().nullable(),
  }),
  updatedAt: z.string().nullable(),
});
export type SpeechSettings = z.infer<typeof speechSettingsSchema>;

export const speechSettingsInputSchema = z
  .object({
    stt: z.object({
      engine: sttEngineSchema.nullable(),
      wyomingHost: host.nullable().default(null),
      wyomingPort: port.default(WYOMING_STT_DEFAULT_PORT),
      model: optionalName,
      language: z
        .string()
        .trim()
        .max(20)
        .regex(/^([A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*)?$/, 'Use a language code such as en or en-US')
        .transform((v) => (v === '' ? null : v))
        .nullable()
        .default(null),
      openaiBaseUrl: baseUrl.nullable().default(null),
      /** Omitted: keep the stored key; null: remove it; a string: store this one (sealed). */
      apiKey: z.string().trim().min(1, 'Enter the API key').max(500).nullable().optional(),
    }),
    tts: z.object({
      engine: ttsEngineSchema.nullable(),
      host: host.nullable().default(null),
      port: port.default(WYOMING_TTS_DEFAULT_PORT),
      voice: optionalName,
    }),
  })
  .superRefine((input, ctx) => {
    if (input.stt.engine === 'wyoming' && !input.stt.wyomingHost)
      ctx.addIssue({
        code: 'custom',
        path: ['stt', 'wyomingHost'],
        message: 'Enter the Wyoming service host',
      });
    if (input.stt.engine === 'openai' && !input.stt.openaiBaseUrl)
      ctx.addIssue({ code: 'custom', path: ['stt', 'openaiBaseUrl'], message: 'Enter the API base URL' });
    if (input.tts.engine === 'wyoming' && !input.tts.host)
      ctx.addIssue({ code: 'custom', path: ['tts', 'host'], message: 'Enter the Wyoming service host' });
  });
export type SpeechSettingsInput = z.input<typeof speechSettingsInputSchema>;

export const speechProbeInputSchema = z.object({ host, port });
export type SpeechProbeInput = z.input<typeof speechProbeInputSchema>;

/** Mirrors the Wyoming `info` event: programs by kind, each with its models (TTS: voices). */
export const WYOMING_PROGRAM_KINDS = ['asr', 'tts', 'wake', 'handle', 'intent'] as const;
export const WYOMING_PROGRAM_KIND_LABELS: Record<(typeof WYOMING_PROGRAM_KINDS)[number], string> = {
  asr: 'Speech to text',
  tts: 'Text to speech',
  wake: 'Wake word',
  handle: 'Intent handling',
  intent: 'Intent recognition',
};

export const speechModelSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  installed: z.boolean(),
  languages: z.array(z.string()),
  speakers: z.array(z.string()),
});
export type SpeechModel = z.infer<typeof speechModelSchema>;

export const speechProgramSchema = z.object({
  kind: z.enum(WYOMING_PROGRAM_KINDS),
  name: z.string(),
  description: z.string().nullable(),
  installed: z.boolean(),
  version: z.string().nullable(),
  attribution: z.object({ name: z.string(), url: z.string() }).nullable(),
  models: z.array(speechModelSchema),
});
export type SpeechProgram = z.infer<typeof speechProgramSchema>;

export const speechProbeResultSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  /** Round trip of describe → info. */
  ms: z.number(),
  programs: z.array(speechProgramSchema),
});
export type SpeechProbeResult = z.infer<typeof speechProbeResultSchema>;

export const transcriptionSchema = z.object({
  text: z.string(),
  engine: sttEngineSchema,
  model: z.string().nullable(),
  /** The engine's own time, from sending the audio to the transcript. */
  ms: z.number(),
  /** Length of the clip as received. */
  durationMs: z.number(),
});
export type Transcription = z.infer<typeof transcriptionSchema>;

export const transcribeQuerySchema = z.object({
  /** e.g. en; omitted: the configured language, or the engine detects it. */
  language: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$/, 'Use a language code such as en or en-US')
    .optional(),
});

export const synthesizeInputSchema = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'Type something to say')
    .max(SYNTHESIZE_TEXT_MAX, `At most ${SYNTHESIZE_TEXT_MAX} characters`),
  voice: z.string().trim().max(200).optional(),
});
export type SynthesizeInput = z.input<typeof synthesizeInputSchema>;

/** Headers of the audio/wav answer of POST /api/speech/synthesize. */
export const SPEECH_ENGINE_HEADER = 'x-speech-engine';
export const SPEECH_MS_HEADER = 'x-speech-ms';
