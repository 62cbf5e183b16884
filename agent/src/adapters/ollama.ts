import type * as OllamaLibrary from 'ollama';
import type { AbortableAsyncIterator, ChatResponse, Ollama, ProgressResponse } from 'ollama';
import { z } from 'zod';

/**
 * Ollama's HTTP API (docs/api.md in the Ollama repository) through the `ollama` JS library,
 * which parses its NDJSON streams. Every call has a deadline for the response to start, and every
 * failure becomes an OllamaError: unreachable, timeout, rejected (Ollama answered with an error
 * status and its `{error}` message) or bad_response.
 */

const modelSchema = z.object({
  name: z.string(),
  model: z.string().optional(),
  size: z.number().optional(),
  digest: z.string().optional(),
  modified_at: z.string().optional(),
  expires_at: z.string().optional(),
  size_vram: z.number().optional(),
  details: z
    .object({
      format: z.string().optional(),
      family: z.string().optional(),
      parameter_size: z.string().optional(),
      quantization_level: z.string().optional(),
    })
    .partial()
    .nullish(),
});
export type OllamaModel = z.infer<typeof modelSchema>;
const modelListSchema = z.object({ models: z.array(modelSchema).nullish() });

const showSchema = z.object({
  modelfile: z.string().optional(),
  parameters: z.string().optional(),
  template: z.string().optional(),
  system: z.string().optional(),
  license: z.string().optional(),
  details: modelSchema.shape.details,
  model_info: z.record(z.string(), z.unknown()).nullish(),
});
export type OllamaShow = z.infer<typeof showSchema>;

export type OllamaErrorKind = 'unreachable' | 'timeout' | 'rejected' | 'bad_response';

export class OllamaError extends Error {
  constructor(
    message: string,
    readonly kind: OllamaErrorKind,
    /** Ollama's HTTP status when it answered with an error. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OllamaError';
  }
}

/** The final chunk's counters, as Ollama reports them (durations in nanoseconds). */
export interface OllamaCounters {
  promptTokens: number | null;
  completionTokens: number | null;
  evalDurationNs: number | null;
  totalDurationNs: number | null;
  loadDurationNs: number | null;
  doneReason: string | null;
}

export type OllamaChatChunk =
  { content: string; done: false } | { content: string; done: true; counters: OllamaCounters };

/** A stream that can be stopped; stopping it closes the connection, which makes Ollama stop generating. */
export interface AbortableStream<T> extends AsyncIterable<T> {
  abort(): void;
}

export interface OllamaChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const isAbort = (err: unknown) =>
  err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');

/**
 * fetch with a deadline for the response headers only: a stream may then run as long as it
 * needs. Ollama sends its headers with the first chunk, so for a chat this bounds the time to
 * the first token (model loading included).
 */
function fetchWithHeaderDeadline(timeoutMs: number, onTimeout: () => void): typeof fetch {
  return async (input, init) => {
    const deadline = new AbortController();
    const timer = setTimeout(() => {
      onTimeout();
      deadline.abort();
    }, timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    try {
      return await fetch(input, { ...init, signal });
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * The library loads with the first call, not at start-up: its Node entry imports a browser fetch
 * polyfill (whatwg-fetch) whose check for a global fetch has Node load its own fetch
 * implementation, so a hub whose owner never uses Ollama would carry both at idle.
 */
let library: Promise<typeof OllamaLibrary> | undefined;
const loadLibrary = () => (library ??= import('ollama'));

export function createOllamaClient(opts: { baseUrl: string; timeoutMs?: number }) {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const defaultTimeoutMs = opts.timeoutMs ?? 2000;

  function translate(err: unknown, timedOut: boolean, timeoutMs: number): OllamaError {
    if (err instanceof OllamaError) return err;
    if (timedOut)
      return new OllamaError(`Ollama at ${base} did not answer within ${timeoutMs} ms`, 'timeout');
    if (err instanceof Error && err.name === 'ResponseError') {
      const status = (err as Error & { status_code?: number }).status_code;
      return new OllamaError(err.message, 'rejected', status);
    }
    if (err instanceof TypeError)
      return new OllamaError(`Ollama cannot be reached at ${base}`, 'unreachable');
    if (isAbort(err)) return new OllamaError('The request to Ollama was cancelled', 'unreachable');
    return new OllamaError(err instanceof Error ? err.message : String(err), 'bad_response');
  }

  /** Runs one library call with its own deadline and maps what goes wrong. */
  async function call<T>(timeoutMs: number, run: (client: Ollama) => Promise<T>): Promise<T> {
    let timedOut = false;
    try {
      const client = new (await loadLibrary()).Ollama({
        host: base,
        fetch: fetchWithHeaderDeadline(timeoutMs, () => (timedOut = true)),
      });
      return await run(client);
    } catch (err) {
      throw translate(err, timedOut, timeoutMs);
    }
  }

  /** Wraps the library's stream so a mid-stream failure is an OllamaError too. */
  function wrap<T extends object, U>(
    iterator: AbortableAsyncIterator<T>,
    map: (item: T) => U,
  ): AbortableStream<U> {
    return {
      abort: () => iterator.abort(),
      async *[Symbol.asyncIterator]() {
        try {
          for await (const item of iterator) yield map(item);
        } catch (err) {
          if (isAbort(err)) throw new OllamaError('Stopped', 'unreachable');
          // A `{"error": …}` line, a cut connection ("terminated") or a stream that ended without
          // its done chunk: either way the answer is incomplete.
          const message = err instanceof Error ? err.message : String(err);
          throw new OllamaError(
            message === 'terminated'
              ? `Ollama at ${base} closed the stream before the answer was complete`
              : message,
            'bad_response',
          );
        }
      },
    };
  }

  async function list(path: 'tags' | 'ps'): Promise<OllamaModel[]> {
    const raw = await call(defaultTimeoutMs, (c) => (path === 'tags' ? c.list() : c.ps()));
    const parsed = modelListSchema.safeParse(raw);
    if (!parsed.success)
      throw new OllamaError(`Ollama's answer to /api/${path} is not what its API documents`, 'bad_response');
    return parsed.data.models ?? [];
  }

  return {
    baseUrl: base,

    /** Ollama's version (`GET /api/version`): the cheapest proof that it answers. */
    async version(timeoutMs = defaultTimeoutMs): Promise<string> {
      const raw = await call(timeoutMs, (c) => c.version());
      return typeof raw?.version === 'string' ? raw.version : 'unknown';
    },

    /** Installed models. */
    tags: () => list('tags'),
    /** Models loaded in memory now. */
    ps: () => list('ps'),

    async show(model: string): Promise<OllamaShow> {
      const raw = await call(defaultTimeoutMs * 5, (c) => c.show({ model }));
      const parsed = showSchema.safeParse(raw);
      if (!parsed.success)
        throw new OllamaError("Ollama's answer to /api/show is not what its API documents", 'bad_response');
      return parsed.data;
    },

    /**
     * Starts a streamed chat. Resolves once Ollama starts answering (within `timeoutMs`); the
     * stream then yields the answer's pieces and ends with the done chunk and its counters.
     */
    async chat(req: {
      model: string;
      messages: OllamaChatMessage[];
      timeoutMs: number;
    }): Promise<AbortableStream<OllamaChatChunk>> {
      const iterator = await call(req.timeoutMs, (c) =>
        c.chat({ model: req.model, messages: req.messages, stream: true }),
      );
      return wrap(iterator, (part: ChatResponse): OllamaChatChunk => {
        const content = part.message?.content ?? '';
        if (!part.done) return { content, done: false };
        return {
          content,
          done: true,
          counters: {
            promptTokens: part.prompt_eval_count ?? null,
            completionTokens: part.eval_count ?? null,
            evalDurationNs: part.eval_duration ?? null,
            totalDurationNs: part.total_duration ?? null,
            loadDurationNs: part.load_duration ?? null,
            doneReason: part.done_reason ?? null,
          },
        };
      });
    },

    /** Starts a streamed pull: status lines, per-layer `digest`/`total`/`completed`, then `success`. */
    async pull(model: string, timeoutMs = 30_000): Promise<AbortableStream<ProgressResponse>> {
      const iterator = await call(timeoutMs, (c) => c.pull({ model, stream: true }));
      return wrap(iterator, (p: ProgressResponse) => p);
    },

    async delete(model: string): Promise<void> {
      await call(defaultTimeoutMs * 5, (c) => c.delete({ model }));
    },

    /**
     * Passes a request through to Ollama's API as it is (the admins' /api/ollama proxy). The
     * answer, streamed or not, comes back untouched; only a failure to reach Ollama throws.
     */
    async forward(req: {
      method: string;
      path: string;
      search: string;
      body: ArrayBuffer | null;
      contentType: string | null;
      signal: AbortSignal;
      timeoutMs: number;
    }): Promise<Response> {
      let timedOut = false;
      const doFetch = fetchWithHeaderDeadline(req.timeoutMs, () => (timedOut = true));
      try {
        return await doFetch(`${base}${req.path}${req.search}`, {
          method: req.method,
          headers: req.contentType ? { 'content-type': req.contentType } : {},
          body: req.body && req.body.byteLength > 0 ? req.body : undefined,
          signal: req.signal,
        });
      } catch (err) {
        throw translate(err, timedOut, req.timeoutMs);
      }
    },
  };
}

export type OllamaClient = ReturnType<typeof createOllamaClient>;
