import { z } from 'zod';

/**
 * Outbound requests that members can aim (a flow's http_request stage) reach only public addresses;
 * the admin-set allow-list opens what the household needs on its own network: a `host:port`
 * (`192.168.1.20:8123`, `printer.local:631`, `[fd00::20]:80`) or a `cidr:port` (`192.168.1.0/24:80`).
 */

/** How many entries the allow-list holds at most. */
export const OUTBOUND_ALLOW_LIST_MAX = 100;

/** One allow-list entry, parsed: a host name, an address, or a range of addresses, and one port. */
export type OutboundAllowEntry =
  | { kind: 'name'; name: string; port: number }
  | { kind: 'address'; address: string; prefix: number | null; port: number };

/** Names that always mean a cloud's metadata service; never allowed, whatever the list says. */
export const METADATA_HOST_NAMES: readonly string[] = ['metadata.google.internal', 'metadata'];

/**
 * Cloud metadata addresses (AWS/GCP/Azure/OpenStack's 169.254.169.254, AWS's IPv6 fd00:ec2::254,
 * ECS's task metadata 169.254.170.2, Alibaba's 100.100.100.200); never allowed either.
 */
export const METADATA_ADDRESSES: readonly string[] = [
  '169.254.169.254',
  'fd00:ec2::254',
  '169.254.170.2',
  '100.100.100.200',
];

const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/**
 * The host of `http://<host>/` as the WHATWG URL parser reads it (lower case, punycode, and IPv4 in
 * any of its decimal/octal/hex spellings made dotted-decimal), or null when it is no host. The
 * same parser reads the flows' URLs, so an entry means what a URL with that host means.
 */
function urlHost(host: string): string | null {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * Reads one allow-list entry; a string says what is wrong with it. The canonical text of an entry
 * is `formatAllowEntry(parsed)`, so `Printer.Local.:631` and `printer.local:631` are one entry.
 */
export function parseAllowEntry(text: string): OutboundAllowEntry | string {
  const match = /^(?:\[([^\]]*)\]|([^[\]:\s]*)):(\d{1,5})$/.exec(text.trim());
  if (!match) return 'Write host:port, e.g. 192.168.1.20:8123, printer.local:631 or [fd00::20]:80';
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return 'Ports go from 1 to 65535';
  const bracketed = match[1] !== undefined;
  let host = (match[1] ?? match[2] ?? '').toLowerCase();
  let prefix: number | null = null;
  const slash = host.indexOf('/');
  if (slash >= 0) {
    const bits = host.slice(slash + 1);
    host = host.slice(0, slash);
    if (!/^\d{1,3}$/.test(bits)) return 'A range is written address/prefix, e.g. 192.168.1.0/24:80';
    prefix = Number(bits);
  }
  if (bracketed) {
    const parsed = urlHost(`[${host}]`);
    if (!parsed || host.includes('%')) return `${host} is not an IPv6 address`;
    if (prefix !== null && prefix > 128) return 'An IPv6 prefix goes from 0 to 128';
    return { kind: 'address', address: parsed.slice(1, -1), prefix, port };
  }
  if (host === '') return 'Write host:port, e.g. 192.168.1.20:8123';
  const parsed = urlHost(host);
  if (parsed === null) return `${host} is not a host name or an IPv4 address`;
  if (IPV4.test(parsed)) {
    if (prefix !== null && prefix > 32) return 'An IPv4 prefix goes from 0 to 32';
    return { kind: 'address', address: parsed, prefix, port };
  }
  if (prefix !== null) return 'Only addresses take a /prefix, not names';
  const name = parsed.replace(/\.$/, '');
  if (parsed.startsWith('[') || !HOST_NAME.test(name)) return `${host} is not a host name or an IPv4 address`;
  return { kind: 'name', name, port };
}

/** The canonical text of an entry. */
export function formatAllowEntry(entry: OutboundAllowEntry): string {
  if (entry.kind === 'name') return `${entry.name}:${entry.port}`;
  const range = entry.prefix === null ? entry.address : `${entry.address}/${entry.prefix}`;
  return entry.address.includes(':') ? `[${range}]:${entry.port}` : `${range}:${entry.port}`;
}

/** One entry as typed: checked, and stored in its canonical form. */
export const outboundAllowEntrySchema = z.string().transform((text, ctx) => {
  const parsed = parseAllowEntry(text);
  if (typeof parsed === 'string') {
    ctx.addIssue({ code: 'custom', message: parsed });
    return z.NEVER;
  }
  if (
    parsed.kind === 'name'
      ? METADATA_HOST_NAMES.includes(parsed.name)
      : parsed.prefix === null && METADATA_ADDRESSES.includes(parsed.address)
  ) {
    ctx.addIssue({ code: 'custom', message: 'Cloud metadata services cannot be allowed' });
    return z.NEVER;
  }
  return formatAllowEntry(parsed);
});

export const outboundSettingsSchema = z.object({
  /** Canonical `host:port` / `cidr:port` entries. */
  allowList: z.array(z.string()),
});
export type OutboundSettings = z.infer<typeof outboundSettingsSchema>;

export const outboundSettingsInputSchema = z.object({
  allowList: z
    .array(outboundAllowEntrySchema)
    .max(OUTBOUND_ALLOW_LIST_MAX, `At most ${OUTBOUND_ALLOW_LIST_MAX} entries`)
    // Duplicates (also spelled differently) are kept once, in the order first given.
    .transform((entries) => [...new Set(entries)]),
});
export type OutboundSettingsInput = z.input<typeof outboundSettingsInputSchema>;
