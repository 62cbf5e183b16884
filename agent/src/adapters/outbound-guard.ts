import { lookup as dnsLookup } from 'node:dns/promises';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import type { buildConnector, Response } from 'undici';
import {
  METADATA_ADDRESSES,
  METADATA_HOST_NAMES,
  parseAllowEntry,
  type OutboundAllowEntry,
} from '../contract/outbound.js';

/**
 * The one gate for outbound HTTP whose address a member chooses (today: flows' http_request stage).
 * Members are not trusted, so by default such a request may reach only public, routable addresses:
 * never this hub, the home network, link-local or cloud metadata services, whatever spelling the URL
 * uses (decimal/hex IPv4, IPv4-mapped IPv6, NAT64…) and whatever a name resolves to. An admin's
 * allow-list of `host:port` / `cidr:port` opens what the household needs.
 *
 * The check runs inside the socket's connect step, after DNS, and the socket dials the very address
 * that passed (no second lookup a rebinding DNS server could answer differently). Redirects are
 * followed here, hop by hop, each hop through the same connect step.
 */

/** Why an address is refused. */
export type RefusalReason =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'metadata'
  | 'local-name';

const REASON_TEXT: Record<RefusalReason, string> = {
  loopback: 'this hub itself (loopback)',
  private: 'a private address on the home network',
  'link-local': 'a link-local address on the home network',
  shared: "a carrier's shared address space (100.64.0.0/10), as VPNs such as Tailscale use",
  unspecified: 'an unspecified address (0.0.0.0 or ::)',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved, non-public address',
  metadata: 'a cloud metadata service',
  'local-name': 'a name of this hub itself',
};

/** A request the guard refused before any packet went to the address. */
export class OutboundRefusedError extends Error {
  readonly code = 'OUTBOUND_REFUSED';
  constructor(
    readonly target: { host: string; port: number; address: string | null },
    readonly reason: RefusalReason,
  ) {
    const where = `${formatHost(target.host)}:${target.port}`;
    const resolved =
      target.address && target.address !== target.host ? ` (which resolves to ${target.address})` : '';
    const allow =
      reason === 'metadata'
        ? ''
        : ` Outbound requests from flows reach public addresses only; an admin can allow "${where}" ` +
          'in FlowForge under Home network access.';
    super(`Refused to connect to ${where}${resolved}: it is ${REASON_TEXT[reason]}.${allow}`);
    this.name = 'OutboundRefusedError';
  }
}

const formatHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** IPv4 addresses that IPv6 forms carry: mapped, translated, compatible, NAT64 (64:ff9b::/96), 6to4. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = v6.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return v4(p[6]!, p[7]!);
  // 64:ff9b::/96 carries the address in its last 32 bits; 64:ff9b:1::/48 is local-use, classified below.
  if (range === 'rfc6052' && p[2] === 0) return v4(p[6]!, p[7]!);
  if (range === '6to4') return v4(p[1]!, p[2]!);
  // Deprecated IPv4-compatible ::a.b.c.d (but not :: and ::1, which are IPv6's own).
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1)) return v4(p[6]!, p[7]!);
  return null;
}

const metadataAddresses = METADATA_ADDRESSES.map((a) => ipaddr.parse(a));

function isMetadata(address: Address): boolean {
  return metadataAddresses.some(
    (m) => m.kind() === address.kind() && address.match(m, m.kind() === 'ipv4' ? 32 : 128),
  );
}

function classifyParsed(address: Address): RefusalReason | null {
  if (isMetadata(address)) return 'metadata';
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    const inner = embeddedIPv4(v6);
    if (inner) return classifyParsed(inner);
    // ipaddr.js names more ranges than its typings list (deprecatedSiteLocal, discard…).
    switch (v6.range() as string) {
      case 'unicast':
        return null;
      case 'loopback':
        return 'loopback';
      case 'uniqueLocal':
      case 'deprecatedSiteLocal':
        return 'private';
      case 'linkLocal':
        return 'link-local';
      case 'multicast':
        return 'multicast';
      case 'unspecified':
        return 'unspecified';
      default:
        // Local-use NAT64, Teredo, documentation, discard, ORCHID…: nothing a flow needs.
        return 'reserved';
    }
  }
  switch ((address as ipaddr.IPv4).range()) {
    case 'unicast':
      return null;
    case 'loopback':
      return 'loopback';
    case 'private':
      return 'private';
    case 'linkLocal':
      return 'link-local';
    case 'carrierGradeNat':
      return 'shared';
    case 'unspecified':
      return 'unspecified';
    case 'multicast':
      return 'multicast';
    case 'broadcast':
      return 'broadcast';
    default:
      return 'reserved';
  }
}

/** Why an IP address is refused by default, or null for a public one; an unreadable address is refused. */
export function classifyAddress(address: string): RefusalReason | null {
  try {
    return classifyParsed(ipaddr.parse(address.replace(/^\[|\]$/g, '')));
  } catch {
    return 'reserved';
  }
}

/** IPv4-mapped IPv6 compared as IPv4, so `[::ffff:192.168.1.20]` meets the entry `192.168.1.20:80`. */
function plain(address: Address): Address {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (address as ipaddr.IPv6).toIPv4Address();
  }
  return address;
}

function entryAllows(entry: OutboundAllowEntry, host: string, address: Address, port: number): boolean {
  if (entry.port !== port) return false;
  if (entry.kind === 'name') return entry.name === host;
  const allowed = plain(ipaddr.parse(entry.address));
  const candidate = plain(address);
  if (allowed.kind() !== candidate.kind()) return false;
  const bits = entry.prefix ?? (allowed.kind() === 'ipv4' ? 32 : 128);
  return candidate.match(allowed, bits);
}

export interface LookupAnswer {
  address: string;
  family: number;
}

/** Resolves a name to every address it has (dns.lookup, as the OS resolves: /etc/hosts, mDNS…). */
export type OutboundLookup = (hostname: string) => Promise<LookupAnswer[]>;

const systemLookup: OutboundLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface OutboundGuardDeps {
  /** The admin's allow-list, read for every connection so an edit applies at once. */
  allowList: () => readonly string[];
  /** Name resolution; tests inject one so no real DNS is asked. */
  lookup?: OutboundLookup;
  /** Opens the socket to the checked address; tests wrap it to see whether a socket was opened. */
  connector?: buildConnector.connector;
  /** Hops followed at most (each checked); default 5. */
  maxRedirects?: number;
}

export interface GuardedRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that carry credentials for one origin: not sent on to another. */
const ORIGIN_CREDENTIALS = new Set(['authorization', 'cookie', 'proxy-authorization']);
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'content-language']);

export function createOutboundGuard(deps: OutboundGuardDeps) {
  const lookup = deps.lookup ?? systemLookup;
  const maxRedirects = deps.maxRedirects ?? 5;

  function allowEntries(): OutboundAllowEntry[] {
    return deps
      .allowList()
      .map((text) => parseAllowEntry(text))
      .filter((e): e is OutboundAllowEntry => typeof e !== 'string');
  }

  /**
   * The address to dial for host:port, checked: every answer of the lookup is classified and the
   * first allowed one is returned; throws OutboundRefusedError when none is. Literal addresses are
   * not looked up; `localhost` and metadata names are refused without asking DNS.
   */
  async function resolve(hostname: string, port: number): Promise<LookupAnswer> {
    const host = hostname
      .replace(/^\[|\]$/g, '')
      .toLowerCase()
      .replace(/\.$/, '');
    const entries = allowEntries();
    const family = net.isIP(host);
    if (!family) {
      if (METADATA_HOST_NAMES.includes(host)) {
        throw new OutboundRefusedError({ host, port, address: null }, 'metadata');
      }
      const nameAllowed = entries.some((e) => e.kind === 'name' && e.name === host && e.port === port);
      if (!nameAllowed && (host === 'localhost' || host.endsWith('.localhost'))) {
        throw new OutboundRefusedError({ host, port, address: null }, 'local-name');
      }
    }
    const answers = family ? [{ address: host, family }] : await lookup(host);
    let refusal: OutboundRefusedError | null = null;
    for (const answer of answers) {
      let parsed: Address;
      try {
        parsed = ipaddr.parse(answer.address);
      } catch {
        refusal ??= new OutboundRefusedError({ host, port, address: answer.address }, 'reserved');
        continue;
      }
      const reason = classifyParsed(parsed);
      if (reason === null) return answer;
      if (reason !== 'metadata' && entries.some((e) => entryAllows(e, host, parsed, port))) return answer;
      refusal ??= new OutboundRefusedError({ host, port, address: answer.address }, reason);
    }
    throw refusal ?? new OutboundRefusedError({ host, port, address: null }, 'reserved');
  }

  /**
   * undici's connect step, guarded: resolve and check, then open the socket to that address. TLS
   * still verifies the certificate against the URL's name (undici takes SNI from `host`).
   */
  function guardedConnector(base: buildConnector.connector): buildConnector.connector {
    return (options, callback) => {
      const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
      resolve(options.hostname, port).then(
        (answer) => base({ ...options, hostname: answer.address }, callback),
        (error: Error) => callback(error, null),
      );
    };
  }

  return {
    resolve,

    /**
     * fetch() with every hop checked: redirects are followed here (at most `maxRedirects`), a
     * credential header is dropped when a hop leaves the origin, and 303 (or 301/302 after a POST)
     * goes on as a GET without the body, as browsers do. `consume` reads the last response (its URL
     * is the last hop's); the connections are closed when it is done.
     */
    async fetch<T>(
      url: URL,
      init: GuardedRequest,
      consume: (response: Response, url: URL) => Promise<T>,
    ): Promise<T> {
      // undici (about 20 MB once loaded) only when a flow or a webhook first reaches out: an idle hub
      // never does.
      const { Agent, buildConnector, fetch } = await import('undici');
      // A dispatcher per exchange: its sockets serve this exchange's hops only.
      const dispatcher = new Agent({ connect: guardedConnector(deps.connector ?? buildConnector({})) });
      let current = url;
      let method = init.method;
      let body = method === 'GET' || method === 'HEAD' ? undefined : init.body;
      let headers = { ...init.headers };
      try {
        for (let hop = 0; ; hop++) {
          const response = await fetch(current, {
            method,
            headers,
            body,
            signal: init.signal,
            redirect: 'manual',
            dispatcher,
          });
          const location = response.headers.get('location');
          if (!REDIRECT_STATUSES.has(response.status) || location === null) {
            return await consume(response, current);
          }
          await response.body?.cancel().catch(() => undefined);
          if (hop >= maxRedirects) {
            throw new OutboundRedirectError(`${current.host} redirected more than ${maxRedirects} times`);
          }
          let next: URL;
          try {
            next = new URL(location, current);
          } catch {
            throw new OutboundRedirectError(`${current.host} redirected to an invalid address`);
          }
          if (next.protocol !== 'http:' && next.protocol !== 'https:') {
            throw new OutboundRedirectError(`${current.host} redirected to a ${next.protocol} address`);
          }
          if (next.origin !== current.origin) {
            headers = withoutHeaders(headers, ORIGIN_CREDENTIALS);
          }
          const status = response.status;
          if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
            if (method !== 'HEAD') method = 'GET';
            body = undefined;
            headers = withoutHeaders(headers, BODY_HEADERS);
          }
          current = next;
        }
      } finally {
        // destroy, not close: a consumer that stopped reading early leaves nothing to wait for.
        void dispatcher.destroy().catch(() => undefined);
      }
    },
  };
}

function withoutHeaders(headers: Record<string, string>, names: Set<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.has(name.toLowerCase())));
}

/** A redirect the guard would not follow (too many hops, another scheme, no address). */
export class OutboundRedirectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRedirectError';
  }
}

export type OutboundGuard = ReturnType<typeof createOutboundGuard>;
