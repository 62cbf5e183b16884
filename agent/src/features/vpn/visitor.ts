import { BlockList, isIP } from 'node:net';
import type { NetworkVisitor } from '../../contract/network-visitor.js';

/**
 * Which way a visitor reached the hub (GET /api/network/visitor, shown on /unifi-teleport), from its
 * address alone. The order matters: the hub's own WireGuard range and Tailscale's come before the
 * LAN (they are what the check is about), and the LAN comes before Teleport's default range, because
 * a home whose LAN happens to be 192.168.2.0/24 is a LAN, not a Teleport client.
 */

/** Tailscale hands out addresses from CGNAT space and its own ULA prefix. */
export const TAILSCALE_RANGES = ['100.64.0.0/10', 'fd7a:115c:a1e0::/48'] as const;
/** UniFi Teleport's default client subnet; an admin can change it in UniFi, which the guide says. */
export const TELEPORT_DEFAULT_RANGE = '192.168.2.0/24';
const LOOPBACK_RANGES = ['127.0.0.0/8', '::1/128'] as const;
/** On the hub's own link: whoever has one of these is next to it. */
const LINK_LOCAL_RANGES = ['169.254.0.0/16', 'fe80::/10'] as const;
/** Private ranges that are none of the above: another VPN (Teleport moved, a site-to-site tunnel) or another LAN. */
const PRIVATE_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'] as const;

export interface VisitorRanges {
  /** The hub's WireGuard server address with its prefix (e.g. 10.8.0.1/24); null when not set up. */
  wireguard: string | null;
  /** The hub's own LAN subnets as CIDRs (see lanSubnets). */
  lan: readonly string[];
  /** Teleport's client subnet; its default when absent. */
  teleport?: string;
}

interface Cidr {
  /** The network's address and prefix, e.g. 10.8.0.0/24 (IPv6 as written). */
  text: string;
  list: BlockList;
  family: 'ipv4' | 'ipv6';
}

/** "10.8.0.1/24" → the 10.8.0.0/24 network; null for anything that is not an address with a sane prefix. */
export function parseCidr(cidr: string): Cidr | null {
  const [address = '', prefixText, extra] = cidr.trim().toLowerCase().split('/');
  if (extra !== undefined || prefixText === undefined || !/^\d{1,3}$/.test(prefixText)) return null;
  const version = isIP(address);
  const prefix = Number(prefixText);
  if (version === 0 || prefix > (version === 4 ? 32 : 128)) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const list = new BlockList();
  list.addSubnet(address, prefix, family);
  const text = version === 4 ? `${maskIpv4(address, prefix)}/${prefix}` : `${address}/${prefix}`;
  return { text, list, family };
}

function maskIpv4(address: string, prefix: number): string {
  const value = address.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  const network = (value & mask) >>> 0;
  return [24, 16, 8, 0].map((shift) => (network >>> shift) & 255).join('.');
}

/** "255.255.255.0" → 24; null for a mask whose ones are not contiguous. */
export function netmaskPrefix(mask: string): number | null {
  if (isIP(mask) !== 4) return null;
  const bits = mask
    .split('.')
    .map((part) => Number(part).toString(2).padStart(8, '0'))
    .join('');
  return /^1*0*$/.test(bits) ? (bits.indexOf('0') === -1 ? 32 : bits.indexOf('0')) : null;
}

/** The address as clientAddress answers it, without an IPv6 zone or the IPv4-mapped prefix. */
function normalize(address: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  let addr = address.trim().toLowerCase().replace(/%.*$/, '');
  if (addr.startsWith('::ffff:') && isIP(addr.slice(7)) === 4) addr = addr.slice(7);
  const version = isIP(addr);
  return version === 0 ? null : { address: addr, family: version === 4 ? 'ipv4' : 'ipv6' };
}

export interface InterfaceAddress {
  name: string;
  ip4: string | null;
  /** The IPv4 netmask, e.g. 255.255.255.0. */
  ip4Subnet: string | null;
  internal: boolean;
  virtual: boolean;
}

/** Tunnels and container plumbing are not the home's LAN, even when they carry a private address. */
const NOT_LAN_INTERFACE = /^(wg|tun|tap|tailscale|utun|zt|docker|br-|veth|podman|cni|virbr|flannel|cali)/;

/** The hub's own LAN subnets, from its interfaces (the network screen's reading). */
export function lanSubnets(interfaces: readonly InterfaceAddress[]): string[] {
  const subnets = new Set<string>();
  for (const i of interfaces) {
    if (i.internal || i.virtual || NOT_LAN_INTERFACE.test(i.name) || !i.ip4 || !i.ip4Subnet) continue;
    const prefix = netmaskPrefix(i.ip4Subnet);
    const cidr = prefix === null ? null : parseCidr(`${i.ip4}/${prefix}`);
    if (cidr) subnets.add(cidr.text);
  }
  return [...subnets];
}

/** The first of `ranges` that holds the address, as its network text. */
function match(addr: { address: string; family: 'ipv4' | 'ipv6' }, ranges: readonly string[]) {
  for (const range of ranges) {
    const cidr = parseCidr(range);
    if (cidr && cidr.family === addr.family && cidr.list.check(addr.address, addr.family)) return cidr.text;
  }
  return null;
}

export function classifyVisitor(address: string, ranges: VisitorRanges): NetworkVisitor {
  const addr = normalize(address);
  if (!addr) return { address, viaVpn: false, range: null, kind: 'other' };
  const result = (kind: NetworkVisitor['kind'], range: string | null, viaVpn: boolean): NetworkVisitor => ({
    address: addr.address,
    viaVpn,
    range,
    kind,
  });
  let range: string | null;
  if ((range = match(addr, LOOPBACK_RANGES))) return result('lan', range, false);
  if (ranges.wireguard && (range = match(addr, [ranges.wireguard]))) return result('wireguard', range, true);
  if ((range = match(addr, TAILSCALE_RANGES))) return result('tailscale', range, true);
  if ((range = match(addr, ranges.lan))) return result('lan', range, false);
  if ((range = match(addr, LINK_LOCAL_RANGES))) return result('lan', range, false);
  if ((range = match(addr, [ranges.teleport ?? TELEPORT_DEFAULT_RANGE])))
    return result('teleport', range, true);
  // A private range the hub does not know: another VPN or another LAN; the hub cannot tell which.
  if ((range = match(addr, PRIVATE_RANGES))) return result('other', range, false);
  return result('other', null, false);
}
