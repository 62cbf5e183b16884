import { isIP } from 'node:net';
import type { Context, Next } from 'hono';
import type { Env } from '../env.js';

/**
 * DNS rebinding defence: a page on a stranger's site (evil.example) can make its own name resolve
 * to the hub's LAN address and then read the hub's answers as same-origin. The browser still sends
 * `Host: evil.example`, so the agent answers only requests whose Host is one of its own names.
 *
 * Accepted without configuration, because no stranger can make a browser resolve them to the hub:
 * - IP literals (v4, bracketed v6): an address in Host is not a name anyone can rebind;
 * - `localhost` and `*.localhost` (RFC 6761), `*.local` (mDNS, RFC 6762), `*.home.arpa` (RFC 8375),
 *   `*.internal` (reserved by ICANN for private use), and `*.lan`, `*.home`, `*.localdomain`: the
 *   names home routers hand out, none delegated in the public DNS;
 * - single-label names (`nexus`): resolved through the LAN's search domain, never by public DNS;
 * - `*.ts.net`: Tailscale's MagicDNS names, answered by Tailscale's resolver only (and Funnel names
 *   publicly resolve to Tailscale's relays, never to a LAN address);
 * - the machine's host name (and `<hostname>.local`), and the host of NEXUS_PUBLIC_URL;
 * - NEXUS_ALLOWED_HOSTS: anything else the household uses (a reverse proxy's name, a DNS name of
 *   the router's), with `*.example.org` matching every name under example.org.
 * The port is not part of the decision: the same name on another port is the same hub.
 */
const PRIVATE_SUFFIXES = [
  '.localhost',
  '.local',
  '.home.arpa',
  '.internal',
  '.lan',
  '.home',
  '.localdomain',
  '.ts.net',
];

/** Names are case-insensitive and may end in the root's dot ("nexus.local."). */
function normalizeName(name: string): string {
  const lower = name.trim().toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** The name part of a Host header: `[::1]:8080` → `[::1]`, `nexus.local:8080` → `nexus.local`. */
function hostName(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

export interface HostCheckOptions {
  /** The machine's host name(s) (os.hostname(), or the host's when the agent runs in a container). */
  hostnames: readonly string[];
  /** NEXUS_PUBLIC_URL, whose host is always the hub's. */
  publicUrl?: string;
  /** NEXUS_ALLOWED_HOSTS: exact names, or `*.example.org` for every name under example.org. */
  allowed: readonly string[];
}

export type HostCheck = (host: string | undefined) => boolean;

/** Each browser sends one or two Host values: decisions are remembered, up to this many. */
const MEMO_LIMIT = 256;

export function createHostCheck(opts: HostCheckOptions): HostCheck {
  const exact = new Set<string>(['localhost']);
  const suffixes = [...PRIVATE_SUFFIXES];
  for (const name of opts.hostnames.map(normalizeName).filter(Boolean)) {
    exact.add(name);
    exact.add(`${name}.local`);
  }
  if (opts.publicUrl) exact.add(normalizeName(new URL(opts.publicUrl).hostname));
  for (const entry of opts.allowed.map(normalizeName).filter(Boolean)) {
    if (entry.startsWith('*.')) suffixes.push(entry.slice(1));
    else exact.add(entry);
  }

  function decide(host: string): boolean {
    const name = normalizeName(hostName(host));
    if (!name) return false;
    if (name.startsWith('[')) return name.endsWith(']') && isIP(name.slice(1, -1)) === 6;
    if (isIP(name) === 4) return true;
    if (exact.has(name)) return true;
    if (!name.includes('.')) return /^[a-z0-9-]+$/.test(name);
    return suffixes.some((suffix) => name.endsWith(suffix) && name.length > suffix.length);
  }

  const memo = new Map<string, boolean>();
  return (host) => {
    // HTTP/1.1 requires Host; a request without one did not come from a browser, so it cannot be
    // a rebinding page's. HTTP/1.0 clients (and some health probes) omit it.
    if (host === undefined) return true;
    let allowed = memo.get(host);
    if (allowed === undefined) {
      allowed = decide(host);
      // Whoever sends random Host values must not grow the memo without bound.
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(host, allowed);
    }
    return allowed;
  };
}

/** The hub's check, from its environment and the machine's host name. */
export function hostCheckFor(env: Env, hostname: string): HostCheck {
  return createHostCheck({
    hostnames: [hostname],
    publicUrl: env.NEXUS_PUBLIC_URL,
    allowed: env.NEXUS_ALLOWED_HOSTS,
  });
}

/** The answer to a request for a name that is not the hub's. */
export function foreignHostBody(host: string | undefined) {
  const name = normalizeName(hostName(host ?? ''));
  return {
    message:
      `This hub does not answer to the name "${name}". If that is a name of this hub (a reverse ` +
      `proxy's or your own DNS name), add it to NEXUS_ALLOWED_HOSTS (comma-separated; ` +
      `*.example.org allows every name under example.org) and restart the agent.`,
  };
}

/**
 * Hono middleware: 421 Misdirected Request (RFC 9110: this server is not configured to answer
 * for that authority) for every request, the API, the console's pages and the WebSocket upgrade.
 */
export function refuseForeignHosts(allows: HostCheck) {
  return async (c: Context, next: Next) => {
    const host = c.req.header('host');
    if (!allows(host)) return c.json(foreignHostBody(host), 421);
    await next();
  };
}
