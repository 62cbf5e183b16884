import { describe, expect, it } from 'vitest';
import type { NetworkInterface } from '@nexus/agent/contract';
import { httpsAddress, sortInterfaces } from './api';

function iface(name: string, extra: Partial<NetworkInterface> = {}): NetworkInterface {
  return {
    name,
    mac: '',
    ip4: null,
    ip4Subnet: null,
    ip6: null,
    operstate: 'up',
    type: 'wired',
    speed: null,
    mtu: 1500,
    internal: false,
    virtual: false,
    isDefault: false,
    rxSec: null,
    txSec: null,
    ...extra,
  };
}

describe('sortInterfaces', () => {
  it('puts the default route first, loopback last', () => {
    const sorted = sortInterfaces([
      iface('lo', { internal: true, operstate: 'unknown' }),
      iface('docker0', { virtual: true }),
      iface('wlan0', { operstate: 'down' }),
      iface('eth1'),
      iface('eth0', { isDefault: true }),
    ]);
    expect(sorted.map((i) => i.name)).toEqual(['eth0', 'eth1', 'wlan0', 'docker0', 'lo']);
  });
});

describe('httpsAddress', () => {
  it('keeps the name and path, adds the HTTPS port unless it is 443, and brackets IPv6', () => {
    expect(httpsAddress({ hostname: 'nexus.local', pathname: '/mic-test' }, 8443)).toBe(
      'https://nexus.local:8443/mic-test',
    );
    expect(httpsAddress({ hostname: '192.168.1.5', pathname: '/' }, 443)).toBe('https://192.168.1.5/');
    expect(httpsAddress({ hostname: '[fd00::5]', pathname: '/' }, 8443)).toBe('https://[fd00::5]:8443/');
    expect(httpsAddress({ hostname: 'nexus.local', pathname: '/' }, null)).toBeNull();
  });
});
