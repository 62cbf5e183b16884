import { z } from 'zod';

/**
 * Ollama's HTTP API (docs/api.md in the Ollama repository). Only what the agent uses so far:
 * the installed models (`GET /api/tags`) and the models loaded in memory (`GET /api/ps`).
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
      family: z.string().optional(),
      parameter_size: z.string().optional(),
      quantization_level: z.string().optional(),
    })
    .partial()
    .optional(),
});
export type OllamaModel = z.infer<typeof modelSchema>;
const modelListSchema = z.object({ models: z.array(modelSchema).default([]) });

export class OllamaError extends Error {
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'timeout' | 'bad_response',
  ) {
    super(message);
    this.name = 'OllamaError';
  }
}

export function createOllamaClient(opts: { baseUrl: string; timeoutMs?: number }) {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 2000;

  async function getJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    let res: Response;
    try {
      res = await fetch(base + path, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new OllamaError(
        timedOut ? `Ollama did not answer within ${timeoutMs} ms` : `Ollama cannot be reached at ${base}`,
        timedOut ? 'timeout' : 'unreachable',
      );
    }
    if (!res.ok) throw new OllamaError(`Ollama answered ${res.status} to ${path}`, 'bad_response');
    const parsed = schema.safeParse(await res.json().catch(() => undefined));
    if (!parsed.success)
      throw new OllamaError(`Ollama's answer to ${path} is not what its API documents`, 'bad_response');
    return parsed.data;
  }

  return {
    baseUrl: base,
    /** Installed models. */
    tags: () => getJson('/api/tags', modelListSchema).then((r) => r.models),
    /** Models loaded in memory now. */
    ps: () => getJson('/api/ps', modelListSchema).then((r) => r.models),
  };
}

export type OllamaClient = ReturnType<typeof createOllamaClient>;
