import { BlockList, isIP } from 'node:net';

/**
 * Which client addresses count as "at home": the hub's own loopback, the private ranges a home
 * router hands out, link-local, and the VPNs that reach the home network from outside (Tailscale
 * gives its devices 100.64.0.0/10 and fd7a:115c:a1e0::/48, the latter inside fc00::/7; WireGuard
 * set-ups use a private subnet, covered by the private ranges). Anything else, including
 * addresses we cannot parse, is a stranger. Used to decide who may claim a fresh hub.
 */
const LOCAL_RANGES: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']> = [
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['10.0.0.0', 8, 'ipv4'], // private (RFC 1918)
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local
  ['100.64.0.0', 10, 'ipv4'], // CGNAT, Tailscale's addresses
  ['::1', 128, 'ipv6'], // loopback
  ['fc00::', 7, 'ipv6'], // unique local (private)
  ['fe80::', 10, 'ipv6'], // link-local
];

const local = new BlockList();
for (const [network, prefix, type] of LOCAL_RANGES) local.addSubnet(network, prefix, type);

/** Whether `address` (as `clientAddress` in http/request-info.ts answers it) is a local one. */
export function isLocalAddress(address: string): boolean {
  // fe80::1%eth0: the zone names the interface, not part of the address.
  let addr = address.trim().toLowerCase().replace(/%.*$/, '');
  // ::ffff:10.0.0.5 is the IPv4 client 10.0.0.5 on a dual-stack socket.
  if (addr.startsWith('::ffff:') && isIP(addr.slice(7)) === 4) addr = addr.slice(7);
  const version = isIP(addr);
  if (version === 0) return false;
  return local.check(addr, version === 4 ? 'ipv4' : 'ipv6');
}
