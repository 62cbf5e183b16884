import { z } from 'zod';

/**
 * Any OpenAI-compatible Chat Completions API (OpenAI's own, or a local server that speaks it):
 * `GET {base}/models` and `POST {base}/chat/completions` with `stream: true`, whose answer is
 * server-sent events `data: {chunk}` ending with `data: [DONE]`. The SSE framing is parsed by
 * eventsource-parser. `base` is the API root including its version, e.g. https://api.openai.com/v1.
 */

export type OpenAiErrorKind = 'unreachable' | 'timeout' | 'rejected' | 'bad_response';

export class OpenAiError extends Error {
  constructor(
    message: string,
    readonly kind: OpenAiErrorKind,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OpenAiError';
  }
}

/** Mirrors the API's error body `{error: {message, type, code}}`. */
const errorBodySchema = z.object({ error: z.object({ message: z.string() }).passthrough() });
const modelListSchema = z.object({
  data: z.array(z.object({ id: z.string(), owned_by: z.string().optional() }).passthrough()),
});
/** Mirrors a `chat.completion.chunk`. */
const chunkSchema = z.object({
  choices: z
    .array(
      z.object({
        delta: z.object({ content: z.string().nullish() }).passthrough().nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .default([]),
  usage: z
    .object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() })
    .nullish(),
});

export interface OpenAiCounters {
  promptTokens: number | null;
  completionTokens: number | null;
  /** From the first to the last piece of the answer, as seen here. */
  generationMs: number | null;
  doneReason: string | null;
}

export type OpenAiChatChunk =
  { content: string; done: false } | { content: string; done: true; counters: OpenAiCounters };

export interface AbortableStream<T> extends AsyncIterable<T> {
  abort(): void;
}

export function createOpenAiCompatibleClient(opts: {
  baseUrl: string;
  apiKey: string | null;
  timeoutMs?: number;
}) {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const defaultTimeoutMs = opts.timeoutMs ?? 5000;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;

  /** Sends one request; resolves with an OK response whose headers arrived within `timeoutMs`. */
  async function send(
    path: string,
    init: { method: string; body?: string; accept?: string },
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Response> {
    const deadline = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort();
    }, timeoutMs);
    let res: Response;
    try {
      res = await fetch(base + path, {
        method: init.method,
        headers: init.accept ? { ...headers, accept: init.accept } : headers,
        body: init.body,
        signal: signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal,
      });
    } catch {
      throw timedOut
        ? new OpenAiError(`${base} did not answer within ${timeoutMs} ms`, 'timeout')
        : new OpenAiError(`${base} cannot be reached`, 'unreachable');
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      let message = `${base} answered ${res.status} ${res.statusText}`.trim();
      try {
        const parsed = errorBodySchema.safeParse(JSON.parse(text));
        if (parsed.success) message = parsed.data.error.message;
      } catch {
        if (text && !text.trimStart().startsWith('<')) message = text.slice(0, 500);
      }
      throw new OpenAiError(message, 'rejected', res.status);
    }
    return res;
  }

  return {
    baseUrl: base,

    /** The models the endpoint offers (`GET /models`). */
    async models(timeoutMs = defaultTimeoutMs): Promise<{ id: string; ownedBy: string | null }[]> {
      const res = await send('/models', { method: 'GET' }, timeoutMs);
      const parsed = modelListSchema.safeParse(await res.json().catch(() => undefined));
      if (!parsed.success)
        throw new OpenAiError(`${base}/models did not answer with a model list`, 'bad_response');
      return parsed.data.data.map((m) => ({ id: m.id, ownedBy: m.owned_by ?? null }));
    },

    /**
     * Starts a streamed chat completion. Resolves once the endpoint accepted the request (within
     * `timeoutMs`); the stream yields the answer's pieces and ends with a done chunk.
     */
    async chat(req: {
      model: string;
      messages: { role: string; content: string }[];
      timeoutMs: number;
    }): Promise<AbortableStream<OpenAiChatChunk>> {
      // The server-sent events parser loads with the first streamed chat, not at start-up.
      const { EventSourceParserStream } = await import('eventsource-parser/stream');
      const controller = new AbortController();
      const res = await send(
        '/chat/completions',
        {
          method: 'POST',
          accept: 'text/event-stream',
          body: JSON.stringify({
            model: req.model,
            messages: req.messages,
            stream: true,
            stream_options: { include_usage: true },
          }),
        },
        req.timeoutMs,
        controller.signal,
      );
      if (!res.body) throw new OpenAiError(`${base} answered without a body`, 'bad_response');
      const events = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());

      return {
        abort: () => controller.abort(),
        async *[Symbol.asyncIterator]() {
          const reader = events.getReader();
          let promptTokens: number | null = null;
          let completionTokens: number | null = null;
          let doneReason: string | null = null;
          let firstAt: number | null = null;
          let lastAt: number | null = null;
          try {
            for (;;) {
              let next: Awaited<ReturnType<typeof reader.read>>;
              try {
                next = await reader.read();
              } catch (err) {
                if (controller.signal.aborted) throw new OpenAiError('Stopped', 'unreachable');
                throw new OpenAiError(
                  `${base} closed the stream before the answer was complete (${err instanceof Error ? err.message : String(err)})`,
                  'bad_response',
                );
              }
              if (next.done) {
                throw new OpenAiError(
                  `${base} closed the stream before the answer was complete`,
                  'bad_response',
                );
              }
              const data = next.value.data;
              if (data === '[DONE]') {
                yield {
                  content: '',
                  done: true,
                  counters: {
                    promptTokens,
                    completionTokens,
                    generationMs: firstAt !== null && lastAt !== null ? lastAt - firstAt : null,
                    doneReason,
                  },
                };
                return;
              }
              let json: unknown;
              try {
                json = JSON.parse(data);
              } catch {
                throw new OpenAiError(`${base} sent an event that is not JSON`, 'bad_response');
              }
              const error = errorBodySchema.safeParse(json);
              if (error.success) throw new OpenAiError(error.data.error.message, 'bad_response');
              const chunk = chunkSchema.safeParse(json);
              if (!chunk.success)
                throw new OpenAiError(`${base} sent a chunk its API does not describe`, 'bad_response');
              if (chunk.data.usage) {
                promptTokens = chunk.data.usage.prompt_tokens ?? promptTokens;
                completionTokens = chunk.data.usage.completion_tokens ?? completionTokens;
              }
              for (const choice of chunk.data.choices) {
                if (choice.finish_reason) doneReason = choice.finish_reason;
                const content = choice.delta?.content ?? '';
                if (content) {
                  const t = performance.now();
                  firstAt ??= t;
                  lastAt = t;
                  yield { content, done: false };
                }
              }
            }
          } finally {
            controller.abort();
            reader.releaseLock();
          }
        },
      };
    },
  };
}

export type OpenAiCompatibleClient = ReturnType<typeof createOpenAiCompatibleClient>;
