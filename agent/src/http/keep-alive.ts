import type { ServerType } from '@hono/node-server';

/**
 * How long an idle connection stays open for the browser's next request. Node's default, 5 s, is
 * the console's most frequent poll (the pipeline status, every 5 s): an open tab's connections were
 * closed just before or as its next polls went out, and each then paid for a new connection (over a
 * VPN from a phone, a TCP and a TLS handshake: two round trips of 150 ms) or, when the close crossed
 * the request, a failed request the browser had to send again. 75 s, nginx's default, outlasts the
 * longest poll (60 s), so an open tab keeps its connections. It only ever applies between requests:
 * a connection that has not sent its first request's headers is still closed after headersTimeout.
 */
export const IDLE_CONNECTION_MS = 75_000;

/** Keeps idle connections of `server` (HTTP or HTTPS) open for IDLE_CONNECTION_MS. */
export function keepConnectionsOpen(server: ServerType): void {
  // Both of the agent's servers are HTTP/1.1 (node:http, node:https); HTTP/2 has no such setting.
  if ('keepAliveTimeout' in server) server.keepAliveTimeout = IDLE_CONNECTION_MS;
}
