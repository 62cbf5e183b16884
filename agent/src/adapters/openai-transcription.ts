import { z } from 'zod';
import { OpenAiError } from './openai-compatible.js';

/**
 * OpenAI's Audio API `POST {base}/audio/transcriptions` (and the local servers that copy it, e.g.
 * faster-whisper-server, LocalAI): a multipart form with the recording as `file` and the `model`,
 * answered with `{text}` when `response_format` is json. `base` includes the version, e.g.
 * https://api.openai.com/v1. Errors are the chat adapter's OpenAiError so callers map them alike.
 */

/** Mirrors the API's error body `{error: {message, type, code}}`. */
const errorBodySchema = z.object({ error: z.object({ message: z.string() }).passthrough() });
const transcriptionSchema = z.object({ text: z.string() }).passthrough();

export async function transcribeWithOpenAi(req: {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  wav: Buffer;
  language?: string | null;
  timeoutMs: number;
}): Promise<{ text: string }> {
  const base = req.baseUrl.replace(/\/+$/, '');
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(req.wav)], { type: 'audio/wav' }), 'clip.wav');
  form.append('model', req.model);
  form.append('response_format', 'json');
  if (req.language) form.append('language', req.language);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (req.apiKey) headers.authorization = `Bearer ${req.apiKey}`;

  let res: Response;
  try {
    res = await fetch(`${base}/audio/transcriptions`, {
      method: 'POST',
      headers,
      body: form,
      signal: AbortSignal.timeout(req.timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw timedOut
      ? new OpenAiError(`${base} did not answer within ${req.timeoutMs} ms`, 'timeout')
      : new OpenAiError(`${base} cannot be reached`, 'unreachable');
  }
  let body: string;
  try {
    body = await res.text();
  } catch {
    throw new OpenAiError(`${base} closed the connection before its answer was complete`, 'bad_response');
  }
  if (!res.ok) {
    let message = `${base} answered ${res.status} ${res.statusText}`.trim();
    try {
      const parsed = errorBodySchema.safeParse(JSON.parse(body));
      if (parsed.success) message = parsed.data.error.message;
    } catch {
      if (body && !body.trimStart().startsWith('<')) message = body.slice(0, 500);
    }
    throw new OpenAiError(message, 'rejected', res.status);
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new OpenAiError(`${base}/audio/transcriptions did not answer with JSON`, 'bad_response');
  }
  const parsed = transcriptionSchema.safeParse(json);
  if (!parsed.success)
    throw new OpenAiError(`${base}/audio/transcriptions did not answer with a transcription`, 'bad_response');
  return { text: parsed.data.text };
}
