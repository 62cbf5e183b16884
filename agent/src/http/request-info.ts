import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The proxies of NEXUS_TRUSTED_PROXIES (IPs and CIDRs, already validated by env.ts) as a
 * BlockList, or null when none are listed. app.ts puts it on every request's context.
 */
export function trustedProxyList(entries: readonly string[]): BlockList | null {
  if (!entries.length) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

function listed(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** The socket's peer address, or 'unknown' for requests made in-process (app.request in unit tests). */
function peerAddress(c: Context): string {
  try {
    return normalizeAddress(getConnInfo(c).remote.address ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

/**
 * Whether this request's forwarded headers come from the trusted proxy: NEXUS_TRUST_PROXY, and,
 * when NEXUS_TRUSTED_PROXIES lists the proxies, a connection from one of them. Without the list
 * every peer counts as the proxy (the setting's meaning before the list existed).
 */
function fromTrustedProxy(c: Context, trustProxy: boolean): boolean {
  if (!trustProxy) return false;
  const proxies = c.get('trustedProxies') as BlockList | undefined;
  return !proxies || listed(proxies, peerAddress(c));
}

/**
 * Whether the browser reached us over TLS: directly, or (only when NEXUS_TRUST_PROXY says a
 * TLS-terminating proxy sits in front) as the proxy's X-Forwarded-Proto reports. Without the
 * trust setting the header is ignored, since any client can send it.
 */
export function isSecureRequest(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  if (!fromTrustedProxy(c, trustProxy)) return false;
  const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return proto === 'https';
}

/**
 * The client's address for rate limits, the session list, satellites and the request log: the
 * one place the agent reads X-Forwarded-For. Behind a trusted proxy it is the last entry, the one
 * our own proxy appended; earlier entries are whatever the client claimed. (Chains of proxies are
 * not walked: skipping the entries inside NEXUS_TRUSTED_PROXIES would, with a list as wide as the
 * LAN, let a LAN client choose its address again.) Otherwise it is the socket's peer address.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (fromTrustedProxy(c, trustProxy)) {
    const forwarded = c.req
      .header('x-forwarded-for')
      ?.split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .at(-1);
    if (forwarded) return normalizeAddress(forwarded);
  }
  return peerAddress(c);
}

/** "::ffff:192.168.1.5" and "192.168.1.5" are the same IPv4 client. */
function normalizeAddress(address: string): string {
  const trimmed = address.slice(0, 64).toLowerCase();
  return trimmed.startsWith('::ffff:') && trimmed.includes('.') ? trimmed.slice(7) : trimmed;
}
