import { describe, expect, it } from 'vitest';
import type { NetworkInterface } from '@nexus/agent/contract';
import { sortInterfaces } from './network';

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
