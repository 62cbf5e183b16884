import { isIpv4, isWgKey } from '../../adapters/wireguard.js';
import { badRequest } from '../../lib/http-error.js';

/**
 * wg-quick files (issue 17): the provider configs admins paste for the uplinks are parsed here, and
 * the client config a phone imports is written here. Only what the hub uses is read; anything else
 * (PostUp scripts, Table, MTU...) is refused rather than silently ignored, so a config never runs
 * commands on the hub.
 */

export interface UplinkConfig {
  privateKey: string;
  /** The tunnel's IPv4 address on the hub, with its prefix. */
  address: string;
  dns: string[];
  publicKey: string;
  presharedKey: string | null;
  endpoint: string;
  allowedIps: string[];
  keepalive: number | null;
}

const CIDR4 = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/;
const ENDPOINT = /^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/;

export function isCidr4(value: string): boolean {
  const m = CIDR4.exec(value);
  return !!m && isIpv4(m[1]!) && Number(m[2]) <= 32;
}

const INTERFACE_KEYS = new Set(['privatekey', 'address', 'dns', 'listenport', 'mtu']);
const PEER_KEYS = new Set(['publickey', 'presharedkey', 'endpoint', 'allowedips', 'persistentkeepalive']);

/** Parses and checks a provider's wg-quick file; every problem is a 400 naming the line, never echoing a key. */
export function parseUplinkConfig(text: string, role: string): UplinkConfig {
  const fail = (why: string) => badRequest(`The ${role} config: ${why}`);
  const sections: { name: string; values: Map<string, string[]> }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) return;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      sections.push({ name: header[1]!.toLowerCase(), values: new Map() });
      return;
    }
    const kv = /^(\w+)\s*=\s*(.*)$/.exec(line);
    const section = sections.at(-1);
    if (!kv || !section)
      throw fail(`line ${i + 1} is not "Key = value" inside a [Interface] or [Peer] section`);
    const key = kv[1]!.toLowerCase();
    const allowed =
      section.name === 'interface' ? INTERFACE_KEYS : section.name === 'peer' ? PEER_KEYS : null;
    if (!allowed) throw fail(`unknown section [${section.name}]`);
    if (!allowed.has(key)) throw fail(`line ${i + 1}: ${kv[1]} is not supported here`);
    const list = section.values.get(key) ?? [];
    list.push(
      ...kv[2]!
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    );
    section.values.set(key, list);
  });
  const iface = sections.filter((s) => s.name === 'interface');
  const peers = sections.filter((s) => s.name === 'peer');
  if (iface.length !== 1) throw fail('needs exactly one [Interface] section');
  if (peers.length !== 1) throw fail('needs exactly one [Peer] section (the provider’s server)');
  const i = iface[0]!.values;
  const p = peers[0]!.values;
  const one = (m: Map<string, string[]>, key: string, label: string) => {
    const v = m.get(key);
    if (!v || v.length !== 1) throw fail(`needs one ${label}`);
    return v[0]!;
  };
  const privateKey = one(i, 'privatekey', 'PrivateKey');
  if (!isWgKey(privateKey)) throw fail('PrivateKey is not a WireGuard key');
  const address = (i.get('address') ?? []).find(isCidr4);
  if (!address) throw fail('needs an IPv4 Address with its prefix, such as 10.64.0.2/32');
  const publicKey = one(p, 'publickey', 'PublicKey');
  if (!isWgKey(publicKey)) throw fail('PublicKey is not a WireGuard key');
  const psk = p.get('presharedkey')?.[0] ?? null;
  if (psk !== null && !isWgKey(psk)) throw fail('PresharedKey is not a WireGuard key');
  const endpoint = one(p, 'endpoint', 'Endpoint');
  if (!ENDPOINT.test(endpoint) || Number(endpoint.slice(endpoint.lastIndexOf(':') + 1)) > 65535)
    throw fail('Endpoint is not host:port');
  const allowedIps = (p.get('allowedips') ?? []).filter((a) => !a.includes(':'));
  if (!allowedIps.length || !allowedIps.every(isCidr4)) throw fail('AllowedIPs must list IPv4 ranges');
  const keepaliveText = p.get('persistentkeepalive')?.[0];
  const keepalive = keepaliveText === undefined || keepaliveText === 'off' ? null : Number(keepaliveText);
  if (keepalive !== null && !(Number.isInteger(keepalive) && keepalive >= 0 && keepalive <= 65535))
    throw fail('PersistentKeepalive is not a number of seconds');
  return {
    privateKey,
    address,
    dns: (i.get('dns') ?? []).filter(isIpv4),
    publicKey,
    presharedKey: psk,
    endpoint,
    allowedIps,
    keepalive: keepalive || null,
  };
}

/** The wg-quick file a phone or laptop imports. */
export function renderClientConfig(c: {
  privateKey: string;
  address: string;
  dns: string | null;
  serverPublicKey: string;
  presharedKey: string;
  allowedIps: string[];
  endpoint: string;
  keepalive: number | null;
}): string {
  const lines = ['[Interface]', `PrivateKey = ${c.privateKey}`, `Address = ${c.address}`];
  if (c.dns) lines.push(`DNS = ${c.dns}`);
  lines.push(
    '',
    '[Peer]',
    `PublicKey = ${c.serverPublicKey}`,
    `PresharedKey = ${c.presharedKey}`,
    `AllowedIPs = ${c.allowedIps.join(', ')}`,
    `Endpoint = ${c.endpoint}`,
  );
  if (c.keepalive) lines.push(`PersistentKeepalive = ${c.keepalive}`);
  return lines.join('\n') + '\n';
}

// ---- IPv4 ranges --------------------------------------------------------------------------------

export const ipToInt = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
export const intToIp = (n: number) => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

/** The server's range: its own address, the network, and the usable host addresses. */
export function serverRange(cidr: string): {
  host: number;
  network: number;
  first: number;
  last: number;
  prefix: number;
} {
  const m = CIDR4.exec(cidr);
  if (!m || !isIpv4(m[1]!)) throw badRequest('The address must be IPv4 with its prefix, such as 10.8.0.1/24');
  const prefix = Number(m[2]);
  if (prefix < 16 || prefix > 30) throw badRequest('The address range must be between /16 and /30');
  const host = ipToInt(m[1]!);
  const size = 2 ** (32 - prefix);
  const network = host - (host % size);
  const first = network + 1;
  const last = network + size - 2;
  if (host < first || host > last) throw badRequest('The hub’s address must be a host address of its range');
  return { host, network, first, last, prefix };
}
