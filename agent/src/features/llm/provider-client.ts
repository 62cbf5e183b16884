import { OllamaError, createOllamaClient, type OllamaClient } from '../../adapters/ollama.js';
import { OpenAiError, createOpenAiCompatibleClient } from '../../adapters/openai-compatible.js';
import type { ChatCounters, LlmProviderKind } from '../../contract/llm.js';
import { HttpError } from '../../lib/http-error.js';

/** One piece of an answer, the same for every kind of provider. */
export type ChatChunk =
  { content: string; done: false } | { content: string; done: true; counters: ChatCounters };

export interface ChatStream extends AsyncIterable<ChatChunk> {
  abort(): void;
}

export interface ProviderModel {
  name: string;
  size: number | null;
  family: string | null;
  parameterSize: string | null;
  quantization: string | null;
  format: string | null;
  digest: string | null;
  modifiedAt: string | null;
  loaded: boolean;
  sizeVram: number | null;
  expiresAt: string | null;
}

/** What the LLM feature needs from any provider. */
export interface ProviderClient {
  kind: LlmProviderKind;
  baseUrl: string;
  /** Proves the provider answers; its version when it says one. */
  health(timeoutMs: number): Promise<{ version: string | null }>;
  models(): Promise<ProviderModel[]>;
  chat(req: {
    model: string;
    messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
    timeoutMs: number;
  }): Promise<ChatStream>;
  /** Ollama's own API, for pulls, deletes, details and the admins' proxy; null for other kinds. */
  ollama: OllamaClient | null;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export type UpstreamErrorKind = 'unreachable' | 'timeout' | 'rejected' | 'bad_response';

/** A provider failure noticed here rather than by an adapter (it went quiet mid-answer). */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly kind: UpstreamErrorKind,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

/** A provider failure, whichever adapter raised it. */
export function upstreamError(
  err: unknown,
): { kind: UpstreamErrorKind; status?: number; message: string } | null {
  if (err instanceof OllamaError || err instanceof OpenAiError || err instanceof UpstreamError) {
    return { kind: err.kind, status: err.status, message: err.message };
  }
  return null;
}

/**
 * Whether the router should try the next target: the provider is down, too slow, broke the
 * stream or failed on its side. A refusal of the request itself (unknown model, bad input) is
 * the same everywhere and goes back to the person.
 */
export function isFallbackWorthy(err: unknown): boolean {
  const e = upstreamError(err);
  if (!e) return false;
  if (e.kind !== 'rejected') return true;
  return (
    e.status === undefined || e.status >= 500 || e.status === 429 || e.status === 401 || e.status === 403
  );
}

/**
 * The brief's error statuses for a provider failure: 404 passes the provider's own message
 * (Ollama's "model 'x' not found, try pulling it first"), a provider that cannot be reached or
 * broke is 502, one that did not answer in time 504.
 */
export function toHttpError(err: unknown, providerName: string): Error {
  const e = upstreamError(err);
  if (!e) return err instanceof Error ? err : new Error(String(err));
  if (e.kind === 'timeout') return new HttpError(504, `${providerName}: ${e.message}`);
  if (e.kind === 'rejected') {
    if (e.status === 404) return new HttpError(404, e.message);
    if (e.status === 400) return new HttpError(400, e.message);
    if (e.status === 401 || e.status === 403)
      return new HttpError(502, `${providerName} refused the stored API key: ${e.message}`);
    return new HttpError(502, `${providerName} answered with an error: ${e.message}`);
  }
  return new HttpError(502, e.kind === 'unreachable' ? e.message : `${providerName}: ${e.message}`);
}

export function createProviderClient(p: {
  kind: LlmProviderKind;
  baseUrl: string;
  apiKey: string | null;
}): ProviderClient {
  if (p.kind === 'ollama') {
    const ollama = createOllamaClient({ baseUrl: p.baseUrl });
    return {
      kind: 'ollama',
      baseUrl: ollama.baseUrl,
      ollama,
      async health(timeoutMs) {
        return { version: await ollama.version(timeoutMs) };
      },
      async models() {
        const [installed, loaded] = await Promise.all([ollama.tags(), ollama.ps()]);
        const inMemory = new Map(loaded.map((m) => [m.name, m]));
        return installed.map((m) => {
          const running = inMemory.get(m.name);
          return {
            name: m.name,
            size: m.size ?? null,
            family: m.details?.family ?? null,
            parameterSize: m.details?.parameter_size ?? null,
            quantization: m.details?.quantization_level ?? null,
            format: m.details?.format ?? null,
            digest: m.digest ?? null,
            modifiedAt: m.modified_at ?? null,
            loaded: running !== undefined,
            sizeVram: running?.size_vram ?? null,
            expiresAt: running?.expires_at ?? null,
          };
        });
      },
      async chat(req) {
        const stream = await ollama.chat(req);
        return {
          abort: () => stream.abort(),
          async *[Symbol.asyncIterator]() {
            for await (const chunk of stream) {
              if (!chunk.done) {
                yield chunk;
                continue;
              }
              const c = chunk.counters;
              yield {
                content: chunk.content,
                done: true,
                counters: {
                  promptTokens: c.promptTokens,
                  completionTokens: c.completionTokens,
                  // Ollama's docs: tokens per second = eval_count / eval_duration * 10^9.
                  tokensPerSecond:
                    c.completionTokens !== null && c.evalDurationNs
                      ? round2((c.completionTokens / c.evalDurationNs) * 1e9)
                      : null,
                  totalDurationMs: c.totalDurationNs === null ? null : c.totalDurationNs / 1e6,
                  loadDurationMs: c.loadDurationNs === null ? null : c.loadDurationNs / 1e6,
                  doneReason: c.doneReason,
                },
              };
            }
          },
        };
      },
    };
  }

  const openai = createOpenAiCompatibleClient({ baseUrl: p.baseUrl, apiKey: p.apiKey });
  return {
    kind: 'openai',
    baseUrl: openai.baseUrl,
    ollama: null,
    async health(timeoutMs) {
      await openai.models(timeoutMs);
      return { version: null };
    },
    async models() {
      const list = await openai.models();
      return list.map((m) => ({
        name: m.id,
        size: null,
        family: m.ownedBy,
        parameterSize: null,
        quantization: null,
        format: null,
        digest: null,
        modifiedAt: null,
        loaded: false,
        sizeVram: null,
        expiresAt: null,
      }));
    },
    async chat(req) {
      const started = performance.now();
      const stream = await openai.chat(req);
      return {
        abort: () => stream.abort(),
        async *[Symbol.asyncIterator]() {
          for await (const chunk of stream) {
            if (!chunk.done) {
              yield chunk;
              continue;
            }
            const c = chunk.counters;
            yield {
              content: chunk.content,
              done: true,
              counters: {
                promptTokens: c.promptTokens,
                completionTokens: c.completionTokens,
                tokensPerSecond:
                  c.completionTokens !== null && c.generationMs
                    ? round2((c.completionTokens / c.generationMs) * 1000)
                    : null,
                totalDurationMs: performance.now() - started,
                loadDurationMs: null,
                doneReason: c.doneReason,
              },
            };
          }
        },
      };
    },
  };
}
