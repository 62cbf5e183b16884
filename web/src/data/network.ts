import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  networkPageSchema,
  type NetworkInterface,
  networkToolDoneSchema,
  type NetworkToolDone,
} from '@nexus/agent/contract';
import { getParsed } from './auth-session';
import { throwIfNotOk } from '@/lib/request';
import { postForEvents } from '@/lib/sse';

/** /api/system/network's figures with the Wi-Fi links and Tailscale's state (issue 17). */
export const NETWORK_INFO_PATH = '/api/network/info';

/** Rates and addresses change slowly; a refresh every 10 s keeps the rx/tx figures meaningful. */
export const NETWORK_INFO_REFRESH_MS = 10_000;

export const networkInfoQueryOptions = () =>
  queryOptions({
    queryKey: [NETWORK_INFO_PATH],
    queryFn: () => getParsed(NETWORK_INFO_PATH, networkPageSchema),
    refetchInterval: NETWORK_INFO_REFRESH_MS,
  });

/** The hub's interfaces, addresses and VPN state, refreshed every NETWORK_INFO_REFRESH_MS. */
export function useNetworkInfo() {
  return useQuery(networkInfoQueryOptions());
}

/**
 * The order people look for interfaces in: the one with the default route, then the other
 * physical ones that are up, then virtual ones, then loopback; by name within each group.
 */
export function sortInterfaces(interfaces: readonly NetworkInterface[]): NetworkInterface[] {
  const rank = (i: NetworkInterface) =>
    i.isDefault ? 0 : i.internal ? 4 : i.virtual ? 3 : i.operstate === 'up' ? 1 : 2;
  return [...interfaces].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** Signal strength in words, by the usual dBm bands. */
export function signalWords(dbm: number | null): string {
  if (dbm === null) return 'Unknown';
  if (dbm >= -55) return 'Excellent';
  if (dbm >= -67) return 'Good';
  if (dbm >= -75) return 'Fair';
  return 'Weak';
}

// ---- from features/creative-networking/api.ts

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
  const ended = await postForEvents(
    `${NETWORK_TOOLS_API}/${tool}`,
    body,
    (message) => {
      const event = parseToolEvent(message.event, message.data);
      if (!event) return false;
      onEvent(event);
      return event.type !== 'line';
    },
    signal,
  );
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
