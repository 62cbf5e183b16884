import { EventSourceParserStream } from 'eventsource-parser/stream';
import { networkToolDoneSchema, type NetworkToolDone } from '@nexus/agent/contract';
import { throwIfNotOk } from '@/lib/request';

export const NETWORK_TOOLS_API = '/api/network/tools';

export type ToolEvent =
  | { type: 'line'; text: string }
  | { type: 'done'; done: NetworkToolDone }
  | { type: 'error'; message: string };

export const LOST_CONNECTION = 'The connection to the hub ended before the tool finished.';

/**
 * Runs a tool on the hub and hands each server-sent event to `onEvent` as it arrives. A refusal
 * before the run starts (400 bad target, 403, 429) throws the usual ApiRequestError. Aborting
 * `signal` is the Stop button: the hub kills the tool when the connection closes.
 */
export async function runTool(
  tool: string,
  body: unknown,
  onEvent: (event: ToolEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const res = await throwIfNotOk(
    await fetch(`${NETWORK_TOOLS_API}/${tool}`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal,
    }),
  );
  if (!res.body) {
    onEvent({ type: 'error', message: LOST_CONNECTION });
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
      const event = parseToolEvent(value.event, value.data);
      if (!event) continue;
      if (event.type !== 'line') ended = true;
      onEvent(event);
    }
  } catch (err) {
    if (signal.aborted) throw err;
  }
  if (!ended) onEvent({ type: 'error', message: LOST_CONNECTION });
}

export function parseToolEvent(event: string | undefined, data: string): ToolEvent | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const o = (json ?? {}) as Record<string, unknown>;
  if (event === 'line' && typeof o.text === 'string') return { type: 'line', text: o.text };
  if (event === 'error' && typeof o.message === 'string') return { type: 'error', message: o.message };
  if (event === 'done') {
    const parsed = networkToolDoneSchema.safeParse(json);
    if (parsed.success) return { type: 'done', done: parsed.data };
  }
  return null;
}

/** Mbit/s of `bytes` moved in `ms`. */
export function mbitPerSecond(bytes: number, ms: number): number {
  if (ms <= 0) return 0;
  return Math.round(((bytes * 8) / (ms / 1000) / 1e6) * 10) / 10;
}

/**
 * The browser ↔ hub throughput test, timed by the browser: the hub streams `megabytes` MB for the
 * download, and takes as many for the upload.
 */
export async function measureThroughput(
  direction: 'download' | 'upload',
  megabytes: number,
  signal: AbortSignal,
  onProgress?: (bytes: number) => void,
): Promise<{ bytes: number; ms: number; mbps: number }> {
  const url = `${NETWORK_TOOLS_API}/throughput?direction=${direction}&megabytes=${megabytes}`;
  if (direction === 'download') {
    const started = performance.now();
    const res = await throwIfNotOk(await fetch(url, { method: 'POST', credentials: 'include', signal }));
    const reader = res.body!.getReader();
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      onProgress?.(bytes);
    }
    const ms = performance.now() - started;
    return { bytes, ms, mbps: mbitPerSecond(bytes, ms) };
  }
  const body = new Uint8Array(megabytes * 1024 * 1024);
  // Random bytes, so no compression on the way shrinks the upload (getRandomValues fills 64 KB at a time).
  for (let i = 0; i < body.length; i += 65536) crypto.getRandomValues(body.subarray(i, i + 65536));
  const started = performance.now();
  const res = await throwIfNotOk(
    await fetch(url, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/octet-stream' },
      body,
      signal,
    }),
  );
  await res.text();
  const ms = performance.now() - started;
  onProgress?.(body.length);
  return { bytes: body.length, ms, mbps: mbitPerSecond(body.length, ms) };
}
