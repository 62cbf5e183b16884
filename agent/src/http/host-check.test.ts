import { describe, expect, it } from 'vitest';
import { createHostCheck } from './host-check.js';

describe('createHostCheck', () => {
  const allows = createHostCheck({
    hostnames: ['kitchen-hub'],
    publicUrl: 'https://nexus.example.org/console',
    allowed: ['proxy.example.net', '*.house.example'],
  });

  it.each([
    '127.0.0.1',
    '192.168.1.20:8080',
    '[::1]:8080',
    '[fe80::1]',
    'localhost',
    'localhost:5173',
    'app.localhost',
    'nexus.local',
    'Nexus.Local.',
    'nexus.home.arpa',
    'nexus.internal',
    'nexus.lan',
    'nexus',
    'hub.tail1234.ts.net',
    'kitchen-hub',
    'kitchen-hub.local',
    'nexus.example.org:443',
    'proxy.example.net',
    'a.b.house.example',
  ])('serves %s', (host) => {
    expect(allows(host)).toBe(true);
  });

  it.each([
    'evil.example',
    'evil.example:8080',
    'nexus.example.org.evil.example',
    'example.org',
    'house.example',
    'evilhouse.example',
    '.local',
    '[not-an-ip]',
    // Public DNS that answers any address it is asked for: the rebinding attacker's tool.
    '127.0.0.1.nip.io',
    '',
  ])('refuses %s', (host) => {
    expect(allows(host)).toBe(false);
  });

  it('keeps deciding correctly after more distinct Host values than it remembers', () => {
    for (let i = 0; i < 1000; i++) expect(allows(`scan-${i}.evil.example`)).toBe(false);
    expect(allows('nexus.local')).toBe(true);
    expect(allows('evil.example')).toBe(false);
  });
});
