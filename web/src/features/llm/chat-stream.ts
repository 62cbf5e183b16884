import { EventSourceParserStream } from 'eventsource-parser/stream';
import { chatStreamEventSchema, type ChatInput, type ChatStreamEvent } from '@nexus/agent/contract';
import { throwIfNotOk } from '@/lib/request';
import { LLM_API } from './api';

export const LOST_CONNECTION_MESSAGE = 'The connection to the hub ended before the answer was complete.';

/**
 * Sends a chat and hands each server-sent event to `onEvent` as it arrives (parsed by
 * eventsource-parser). A refusal before the answer starts (400, 403, 404, 429, 502…) throws the
 * usual ApiRequestError. A stream that ends without `done` or `error` produces an `error` event,
 * so the screen never waits for an answer that will not come. Aborting `signal` is the stop button.
 */
export async function streamChat(
  input: ChatInput,
  onEvent: (event: ChatStreamEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const res = await throwIfNotOk(
    await fetch(`${LLM_API}/chat`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify(input),
      signal,
    }),
  );
  if (!res.body) {
    onEvent({ type: 'error', message: LOST_CONNECTION_MESSAGE, status: 502 });
    return;
  }
  const reader = res.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  let ended = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      let parsed;
      try {
        parsed = chatStreamEventSchema.safeParse(JSON.parse(value.data));
      } catch {
        continue;
      }
      if (!parsed.success) continue;
      if (parsed.data.type === 'done' || parsed.data.type === 'error') ended = true;
      onEvent(parsed.data);
    }
  } catch (err) {
    if (signal?.aborted) throw err;
    // The network dropped mid-answer.
  }
  if (!ended) onEvent({ type: 'error', message: LOST_CONNECTION_MESSAGE, status: 502 });
}
