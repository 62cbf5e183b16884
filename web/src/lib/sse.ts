import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';
import { throwIfNotOk } from './request';

/**
 * POSTs `body` as JSON and reads the answer as server-sent events (EventSource itself can only GET).
 * A refusal before the stream starts throws the usual ApiRequestError. Each message goes to
 * `onMessage`, which answers true once the stream has said its last word (done or error). Answers
 * false when the stream ended, or the network dropped, before that word came; an abort through
 * `signal` throws.
 */
export async function postForEvents(
  url: string,
  body: unknown,
  onMessage: (message: EventSourceMessage) => boolean,
  signal?: AbortSignal,
): Promise<boolean> {
  const res = await throwIfNotOk(
    await fetch(url, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal,
    }),
  );
  if (!res.body) return false;
  const reader = res.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  let ended = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (onMessage(value)) ended = true;
    }
  } catch (err) {
    if (signal?.aborted) throw err;
    // The network dropped mid-stream: said by the false answer.
  }
  return ended;
}
