import {
  OPENAI_TRANSCRIPTION_DEFAULT_MODEL,
  STT_ENGINES,
  WYOMING_STT_DEFAULT_PORT,
  WYOMING_TTS_DEFAULT_PORT,
  type SpeechProbeInput,
  type SpeechProbeResult,
  type SpeechSettings,
  type SpeechSettingsInput,
  type SttEngine,
  type Transcription,
} from '../../contract/speech.js';
import { speechProbeInputSchema, speechSettingsInputSchema } from '../../contract/speech.js';
import { OpenAiError } from '../../adapters/openai-compatible.js';
import { transcribeWithOpenAi } from '../../adapters/openai-transcription.js';
import { WyomingError, createWyomingClient, type WyomingClient } from '../../adapters/wyoming.js';
import { HttpError } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { sameOrigin } from '../../lib/origin.js';
import type { SpeechRepository } from './speech.repository.js';
import type { SpeechSettingsRow } from './speech.table.js';
import { detectSpeechInWav, pcmToWav, readClip } from './speech-audio.js';

/** How long each kind of request may take, end to end. */
export interface SpeechTimeouts {
  probeMs: number;
  transcribeMs: number;
  synthesizeMs: number;
}

const DEFAULT_TIMEOUTS: SpeechTimeouts = { probeMs: 5000, transcribeMs: 60_000, synthesizeMs: 30_000 };

/** A describe answer is kept this long to name the model a Wyoming service used. */
const MODEL_NAME_TTL_MS = 5 * 60_000;

const EMPTY_ROW: Omit<SpeechSettingsRow, 'id' | 'updatedAt'> = {
  sttEngine: null,
  sttWyomingHost: null,
  sttWyomingPort: WYOMING_STT_DEFAULT_PORT,
  sttModel: null,
  sttLanguage: null,
  sttOpenaiBaseUrl: null,
  sttApiKeySealed: null,
  ttsEngine: null,
  ttsHost: null,
  ttsPort: WYOMING_TTS_DEFAULT_PORT,
  ttsVoice: null,
};

function toSettings(row: SpeechSettingsRow | null): SpeechSettings {
  const r = row ?? { ...EMPTY_ROW, updatedAt: null };
  return {
    stt: {
      engine: r.sttEngine,
      wyomingHost: r.sttWyomingHost,
      wyomingPort: r.sttWyomingPort,
      model: r.sttModel,
      language: r.sttLanguage,
      openaiBaseUrl: r.sttOpenaiBaseUrl,
      hasApiKey: r.sttApiKeySealed !== null,
    },
    tts: { engine: r.ttsEngine, host: r.ttsHost, port: r.ttsPort, voice: r.ttsVoice },
    updatedAt: r.updatedAt ? r.updatedAt.toISOString() : null,
  };
}

/** The upstream's failure as the API's error: 504 when it timed out, 502 otherwise. */
function upstreamError(what: string, error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof WyomingError)
    return new HttpError(error.kind === 'timeout' ? 504 : 502, `${what}: ${error.message}`);
  if (error instanceof OpenAiError)
    return new HttpError(error.kind === 'timeout' ? 504 : 502, `${what}: ${error.message}`);
  return new HttpError(502, `${what}: ${error instanceof Error ? error.message : String(error)}`);
}

export function createSpeechService(deps: {
  repo: SpeechRepository;
  secrets: SecretBox;
  log: Logger;
  /** How a Wyoming service is reached; tests may point it elsewhere. */
  wyoming?: (host: string, port: number) => WyomingClient;
  timeouts?: Partial<SpeechTimeouts>;
}) {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...deps.timeouts };
  const wyoming = deps.wyoming ?? ((host, port) => createWyomingClient({ host, port }));
  // Settings are read by every voice run; kept in memory between changes.
  let cached: SpeechSettingsRow | null | undefined;
  const current = () => (cached === undefined ? (cached = deps.repo.get()) : cached);
  const modelNames = new Map<string, { name: string | null; at: number }>();

  /** The model a Wyoming ASR service reports (its first installed one), from a kept describe. */
  async function wyomingModelName(host: string, port: number): Promise<string | null> {
    const key = `${host}:${port}`;
    const known = modelNames.get(key);
    if (known && Date.now() - known.at < MODEL_NAME_TTL_MS) return known.name;
    let name: string | null = null;
    try {
      const programs = await wyoming(host, port).describe(timeouts.probeMs);
      const asr =
        programs.find((p) => p.kind === 'asr' && p.installed) ?? programs.find((p) => p.kind === 'asr');
      name = asr?.models.find((m) => m.installed)?.name ?? asr?.models[0]?.name ?? null;
    } catch {
      // Only a label: the transcript itself is what matters.
    }
    modelNames.set(key, { name, at: Date.now() });
    return name;
  }

  function sttEngine(requested: string | undefined): SttEngine {
    const row = current();
    if (requested !== undefined && requested !== '') {
      if (!(STT_ENGINES as readonly string[]).includes(requested))
        throw new HttpError(
          400,
          `Unknown speech-to-text engine "${requested}"; use ${STT_ENGINES.join(' or ')}`,
        );
      return requested as SttEngine;
    }
    if (!row?.sttEngine)
      throw new HttpError(
        409,
        'Speech to text is not set up: choose an engine under Speech services on the AI control screen',
      );
    return row.sttEngine;
  }

  /** Transcribes 16 kHz mono 16-bit PCM with the chosen engine. */
  async function transcribePcm(
    pcm: Buffer,
    opts: { engine?: string; language?: string },
  ): Promise<{ text: string; engine: SttEngine; model: string | null; ms: number }> {
    const engine = sttEngine(opts.engine);
    const row = current() ?? { ...EMPTY_ROW, updatedAt: new Date(0), id: 1 };
    const language = opts.language || row.sttLanguage || undefined;
    if (engine === 'wyoming') {
      const host = row.sttWyomingHost;
      if (!host) throw new HttpError(409, 'Speech to text through Wyoming has no service host set up');
      const port = row.sttWyomingPort;
      const model = row.sttModel ? Promise.resolve(row.sttModel) : wyomingModelName(host, port);
      const started = performance.now();
      try {
        const result = await wyoming(host, port).transcribe(
          { pcm, rate: 16000, width: 2, channels: 1 },
          { model: row.sttModel ?? undefined, language, timeoutMs: timeouts.transcribeMs },
        );
        const ms = performance.now() - started;
        return { text: result.text.trim(), engine, model: await model, ms };
      } catch (error) {
        throw upstreamError('Speech to text failed', error);
      }
    }
    const baseUrl = row.sttOpenaiBaseUrl;
    if (!baseUrl)
      throw new HttpError(409, 'Speech to text through an OpenAI-compatible API has no base URL set up');
    const model = row.sttModel ?? OPENAI_TRANSCRIPTION_DEFAULT_MODEL;
    const started = performance.now();
    try {
      const result = await transcribeWithOpenAi({
        baseUrl,
        apiKey: row.sttApiKeySealed ? deps.secrets.open(row.sttApiKeySealed) : null,
        model,
        wav: pcmToWav({ pcm, rate: 16000, width: 2, channels: 1 }),
        language,
        timeoutMs: timeouts.transcribeMs,
      });
      return { text: result.text.trim(), engine, model, ms: performance.now() - started };
    } catch (error) {
      throw upstreamError('Speech to text failed', error);
    }
  }

  async function synthesize(text: string, opts: { voice?: string }) {
    const row = current();
    if (!row?.ttsEngine || !row.ttsHost)
      throw new HttpError(
        409,
        'Text to speech is not set up: set the Wyoming service under Speech services on the AI control screen',
      );
    const voice = opts.voice || row.ttsVoice || undefined;
    const started = performance.now();
    try {
      const audio = await wyoming(row.ttsHost, row.ttsPort).synthesize(text, {
        voice,
        timeoutMs: timeouts.synthesizeMs,
      });
      const ms = performance.now() - started;
      if (audio.pcm.length === 0)
        throw new HttpError(502, 'Text to speech failed: the service sent no audio');
      return { wav: pcmToWav(audio), engine: 'wyoming' as const, ms, voice: voice ?? null };
    } catch (error) {
      throw upstreamError('Text to speech failed', error);
    }
  }

  return {
    settings: (): SpeechSettings => toSettings(current()),

    update(input: SpeechSettingsInput): SpeechSettings {
      const parsed = speechSettingsInputSchema.parse(input);
      const before = current();
      let sealed = before?.sttApiKeySealed ?? null;
      if (parsed.stt.apiKey === null) sealed = null;
      else if (parsed.stt.apiKey !== undefined) sealed = deps.secrets.seal(parsed.stt.apiKey);
      else if (
        sealed !== null &&
        parsed.stt.openaiBaseUrl !== null &&
        !sameOrigin(before?.sttOpenaiBaseUrl ?? '', parsed.stt.openaiBaseUrl)
      ) {
        throw new HttpError(
          400,
          'Enter the API key again for the new address: a saved key is only sent to the address it was saved for',
        );
      }
      const row = deps.repo.save({
        sttEngine: parsed.stt.engine,
        sttWyomingHost: parsed.stt.wyomingHost,
        sttWyomingPort: parsed.stt.wyomingPort,
        sttModel: parsed.stt.model,
        sttLanguage: parsed.stt.language,
        sttOpenaiBaseUrl: parsed.stt.openaiBaseUrl,
        sttApiKeySealed: sealed,
        ttsEngine: parsed.tts.engine,
        ttsHost: parsed.tts.host,
        ttsPort: parsed.tts.port,
        ttsVoice: parsed.tts.voice,
      });
      cached = row;
      modelNames.clear();
      deps.log.info(
        { stt: row.sttEngine, tts: row.ttsEngine, apiKeyStored: sealed !== null },
        'speech services changed',
      );
      return toSettings(row);
    },

    /** describe → info on any Wyoming service: what it runs and which models or voices it has. */
    async probe(input: SpeechProbeInput): Promise<SpeechProbeResult> {
      const { host, port } = speechProbeInputSchema.parse(input);
      const started = performance.now();
      try {
        const programs = await wyoming(host, port).describe(timeouts.probeMs);
        return { host, port, ms: Math.round(performance.now() - started), programs };
      } catch (error) {
        throw upstreamError('The probe failed', error);
      }
    },

    /** A WAV clip as uploaded (any rate, channels, PCM width) → its transcript. */
    async transcribeWav(
      wav: Buffer,
      opts: { engine?: string; language?: string } = {},
    ): Promise<Transcription> {
      const clip = readClip(wav);
      const result = await transcribePcm(clip.pcm, opts);
      return { ...result, ms: Math.round(result.ms), durationMs: clip.durationMs };
    },

    synthesize,

    /** What the flow runner's VAD, STT and TTS stages call (FlowPorts['speech']). */
    port: {
      async detectSpeech(wav: Buffer) {
        return detectSpeechInWav(wav);
      },
      async transcribe(wav: Buffer, opts: { engine?: string; language?: string }) {
        const clip = readClip(wav);
        const result = await transcribePcm(clip.pcm, opts);
        return { text: result.text, engine: result.engine, model: result.model ?? undefined, ms: result.ms };
      },
      async synthesize(text: string, opts: { voice?: string }) {
        const result = await synthesize(text, opts);
        return { wav: result.wav, engine: result.engine, ms: result.ms };
      },
    },
  };
}

export type SpeechService = ReturnType<typeof createSpeechService>;
