import { describe, expect, it } from 'vitest';
import {
  describeService,
  formatDiscovered,
  formatDnsRecords,
  magicPacket,
  parsePingSummary,
  parseTracepathSummary,
} from './network-tools.js';
import { checkResolver, checkTarget } from '../features/network/network-tools.service.js';

describe('network tool targets', () => {
  it('takes IP addresses and hostnames', () => {
    expect(checkTarget('127.0.0.1')).toBe('127.0.0.1');
    expect(checkTarget('::1')).toBe('::1');
    expect(checkTarget('[fe80::1]')).toBe('fe80::1');
    expect(checkTarget(' homeassistant.local ')).toBe('homeassistant.local');
    expect(checkTarget('_esphomelib._tcp.local')).toBe('_esphomelib._tcp.local');
  });

  it.each([
    '-f',
    '--help',
    '-c1',
    'a b',
    'x;reboot',
    '$(id)',
    '`id`',
    'host\nname',
    '1.2.3.4.5',
    '999.1.1.1',
    'a..b',
    '',
  ])('refuses %j', (target) => {
    expect(() => checkTarget(target)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('takes a resolver as an IP with an optional port, nothing else', () => {
    expect(checkResolver('1.1.1.1')).toBe('1.1.1.1');
    expect(checkResolver('127.0.0.1:5300')).toBe('127.0.0.1:5300');
    expect(checkResolver('[::1]:53')).toBe('[::1]:53');
    for (const bad of ['dns.google', '1.1.1.1:0', '1.1.1.1:70000', '-1', '1.1.1.1:53:53']) {
      expect(() => checkResolver(bad)).toThrow(expect.objectContaining({ status: 400 }));
    }
  });
});

describe('network tool output', () => {
  it('reads ping’s summary lines (iputils)', () => {
    const s = parsePingSummary([
      '--- 127.0.0.1 ping statistics ---',
      '4 packets transmitted, 3 received, 25% packet loss, time 3004ms',
      'rtt min/avg/max/mdev = 0.031/0.045/0.062/0.011 ms',
    ]);
    expect(s).toEqual({ transmitted: 4, received: 3, lossPercent: 25, avgMs: 0.045 });
    expect(parsePingSummary(['ping: unknown host'])).toEqual({
      transmitted: null,
      received: null,
      lossPercent: null,
      avgMs: null,
    });
  });

  it('reads tracepath’s resume line', () => {
    expect(
      parseTracepathSummary([' 1:  127.0.0.1  0.050ms reached', '     Resume: pmtu 65535 hops 1 back 1 ']),
    ).toEqual({
      pmtu: 65535,
      hops: 1,
    });
  });

  it('prints DNS records as dig’s short form would', () => {
    expect(formatDnsRecords('MX', [{ priority: 10, exchange: 'mx.example.org' }])).toEqual([
      '10 mx.example.org',
    ]);
    expect(formatDnsRecords('TXT', [['v=spf1 ', '-all']])).toEqual(['v=spf1 -all']);
    expect(formatDnsRecords('SRV', [{ priority: 0, weight: 5, port: 6053, name: 'kitchen.local' }])).toEqual([
      '0 5 6053 kitchen.local',
    ]);
  });

  it('describes a discovered service', () => {
    const d = describeService('ESPHome', {
      name: 'kitchen',
      host: 'kitchen.local',
      port: 6053,
      addresses: ['192.0.2.4'],
    });
    expect(formatDiscovered(d)).toBe('ESPHome: kitchen at 192.0.2.4 port 6053 (kitchen.local)');
  });

  it('builds the Wake-on-LAN magic packet: 6 × 0xFF then 16 × the MAC', () => {
    const p = magicPacket('01-23-45-67-89-ab');
    expect(p.length).toBe(102);
    expect(p.subarray(0, 6)).toEqual(Buffer.alloc(6, 0xff));
    expect(p.subarray(96)).toEqual(Buffer.from('0123456789ab', 'hex'));
  });
});
