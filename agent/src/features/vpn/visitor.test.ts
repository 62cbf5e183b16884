import { describe, expect, it } from 'vitest';
import { classifyVisitor, lanSubnets, netmaskPrefix, parseCidr, type VisitorRanges } from './visitor.js';

const HOME: VisitorRanges = { wireguard: '10.8.0.1/24', lan: ['192.168.1.0/24'] };

describe('classifyVisitor', () => {
  const cases: Array<[string, VisitorRanges, string, boolean, string | null]> = [
    // address, ranges, kind, viaVpn, range
    ['127.0.0.1', HOME, 'lan', false, '127.0.0.0/8'],
    ['127.8.9.10', HOME, 'lan', false, '127.0.0.0/8'],
    ['::1', HOME, 'lan', false, '::1/128'],
    ['::ffff:127.0.0.1', HOME, 'lan', false, '127.0.0.0/8'],
    ['10.8.0.2', HOME, 'wireguard', true, '10.8.0.0/24'],
    ['10.8.0.254', HOME, 'wireguard', true, '10.8.0.0/24'],
    ['::ffff:10.8.0.7', HOME, 'wireguard', true, '10.8.0.0/24'],
    // Just outside the server's /24: a private range the hub does not know.
    ['10.8.1.2', HOME, 'other', false, '10.0.0.0/8'],
    ['100.64.0.1', HOME, 'tailscale', true, '100.64.0.0/10'],
    ['100.101.102.103', HOME, 'tailscale', true, '100.64.0.0/10'],
    ['100.127.255.254', HOME, 'tailscale', true, '100.64.0.0/10'],
    ['100.128.0.1', HOME, 'other', false, null],
    ['fd7a:115c:a1e0::1234', HOME, 'tailscale', true, 'fd7a:115c:a1e0::/48'],
    ['FD7A:115C:A1E0:AB12::1', HOME, 'tailscale', true, 'fd7a:115c:a1e0::/48'],
    ['192.168.1.20', HOME, 'lan', false, '192.168.1.0/24'],
    ['169.254.10.1', HOME, 'lan', false, '169.254.0.0/16'],
    ['fe80::1%eth0', HOME, 'lan', false, 'fe80::/10'],
    ['192.168.2.5', HOME, 'teleport', true, '192.168.2.0/24'],
    ['192.168.3.5', HOME, 'other', false, '192.168.0.0/16'],
    ['172.20.1.1', HOME, 'other', false, '172.16.0.0/12'],
    ['fd00::5', HOME, 'other', false, 'fc00::/7'],
    ['8.8.8.8', HOME, 'other', false, null],
    ['2001:db8::1', HOME, 'other', false, null],
    ['unknown', HOME, 'other', false, null],
    ['', HOME, 'other', false, null],
    ['10.8.0.2; DROP', HOME, 'other', false, null],
    // No WireGuard server: its old range is just another private range.
    ['10.8.0.2', { wireguard: null, lan: ['192.168.1.0/24'] }, 'other', false, '10.0.0.0/8'],
    // A home whose LAN is 192.168.2.0/24 is a LAN, not Teleport.
    ['192.168.2.5', { wireguard: null, lan: ['192.168.2.0/24'] }, 'lan', false, '192.168.2.0/24'],
    // Teleport moved to another subnet in UniFi.
    [
      '192.168.50.9',
      { wireguard: null, lan: [], teleport: '192.168.50.0/24' },
      'teleport',
      true,
      '192.168.50.0/24',
    ],
    [
      '192.168.2.5',
      { wireguard: null, lan: [], teleport: '192.168.50.0/24' },
      'other',
      false,
      '192.168.0.0/16',
    ],
    // The WireGuard range wins over a LAN that overlaps it, and over Tailscale's.
    ['10.0.0.9', { wireguard: '10.0.0.1/24', lan: ['10.0.0.0/16'] }, 'wireguard', true, '10.0.0.0/24'],
    ['100.64.0.9', { wireguard: '100.64.0.1/24', lan: [] }, 'wireguard', true, '100.64.0.0/24'],
    // An IPv6 WireGuard range.
    ['fd42::5', { wireguard: 'fd42::1/64', lan: [] }, 'wireguard', true, 'fd42::1/64'],
    // A broken stored range never throws: it matches nothing.
    ['10.8.0.2', { wireguard: 'garbage', lan: ['nope/99'] }, 'other', false, '10.0.0.0/8'],
  ];
  for (const [address, ranges, kind, viaVpn, range] of cases) {
    it(`${address || '(empty)'} → ${kind}${ranges === HOME ? '' : ` with ${JSON.stringify(ranges)}`}`, () => {
      const result = classifyVisitor(address, ranges);
      expect(result).toMatchObject({ kind, viaVpn, range });
    });
  }

  it('answers the address it judged, without the IPv4-mapped prefix', () => {
    expect(classifyVisitor('::ffff:10.8.0.7', HOME).address).toBe('10.8.0.7');
  });
});

describe('parseCidr', () => {
  it('names the network of a host address', () => {
    expect(parseCidr('10.8.0.1/24')?.text).toBe('10.8.0.0/24');
    expect(parseCidr('192.168.1.77/16')?.text).toBe('192.168.0.0/16');
    expect(parseCidr('1.2.3.4/0')?.text).toBe('0.0.0.0/0');
    expect(parseCidr('1.2.3.4/32')?.text).toBe('1.2.3.4/32');
  });
  it('refuses what is not an address with a prefix', () => {
    for (const bad of ['10.8.0.1', '10.8.0.1/33', '10.8.0.1/24/1', 'x/24', '::1/129', '10.8.0.1/-1', '']) {
      expect(parseCidr(bad), bad).toBeNull();
    }
  });
});

describe('lanSubnets', () => {
  it('takes physical interfaces with an IPv4 address, not loopback, tunnels or containers', () => {
    const base = { internal: false, virtual: false };
    expect(
      lanSubnets([
        { name: 'eth0', ip4: '192.168.1.10', ip4Subnet: '255.255.255.0', ...base },
        { name: 'wlan0', ip4: '10.1.2.3', ip4Subnet: '255.255.0.0', ...base },
        { name: 'lo', ip4: '127.0.0.1', ip4Subnet: '255.0.0.0', internal: true, virtual: false },
        { name: 'docker0', ip4: '172.17.0.1', ip4Subnet: '255.255.0.0', internal: false, virtual: true },
        { name: 'wg0', ip4: '10.8.0.1', ip4Subnet: '255.255.255.0', ...base },
        { name: 'tailscale0', ip4: '100.100.1.1', ip4Subnet: '255.255.255.255', ...base },
        { name: 'eth1', ip4: null, ip4Subnet: null, ...base },
        { name: 'eth2', ip4: '192.168.9.1', ip4Subnet: '255.0.255.0', ...base },
      ]),
    ).toEqual(['192.168.1.0/24', '10.1.0.0/16']);
  });
  it('reads netmasks', () => {
    expect(netmaskPrefix('255.255.255.0')).toBe(24);
    expect(netmaskPrefix('255.255.255.255')).toBe(32);
    expect(netmaskPrefix('0.0.0.0')).toBe(0);
    expect(netmaskPrefix('255.255.240.0')).toBe(20);
    expect(netmaskPrefix('255.0.255.0')).toBeNull();
    expect(netmaskPrefix('nope')).toBeNull();
  });
});
