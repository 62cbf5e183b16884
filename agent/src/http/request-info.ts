import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * Whether the browser reached us over TLS: directly, or (only when NEXUS_TRUST_PROXY says a
 * TLS-terminating proxy sits in front) as the proxy's X-Forwarded-Proto reports. Without the
 * trust setting the header is ignored, since any client can send it.
 */
export function isSecureRequest(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  if (!trustProxy) return false;
  const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return proto === 'https';
}

/**
 * The client's address for rate limits and the session list. Behind a trusted proxy it is the
 * last X-Forwarded-For entry, the one our own proxy appended; earlier entries are whatever the
 * client claimed. Otherwise it is the socket's peer address.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req
      .header('x-forwarded-for')
      ?.split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .at(-1);
    if (forwarded) return normalizeAddress(forwarded);
  }
  try {
    return normalizeAddress(getConnInfo(c).remote.address ?? 'unknown');
  } catch {
    // Requests made in-process (app.request in unit tests) have no socket.
    return 'unknown';
  }
}

/** "::ffff:192.168.1.5" and "192.168.1.5" are the same IPv4 client. */
function normalizeAddress(address: string): string {
  const trimmed = address.slice(0, 64).toLowerCase();
  return trimmed.startsWith('::ffff:') && trimmed.includes('.') ? trimmed.slice(7) : trimmed;
}
