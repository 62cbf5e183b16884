import { describe, expect, it } from 'vitest';
import { outboundSettingsInputSchema, parseAllowEntry } from './outbound.js';

describe('outbound allow-list entries', () => {
  it.each([
    ['192.168.1.20:8123', '192.168.1.20:8123'],
    [' Printer.Local.:631 ', 'printer.local:631'],
    ['homeassistant:8123', 'homeassistant:8123'],
    ['192.168.1.0/24:80', '192.168.1.0/24:80'],
    ['[FD00::20]:80', '[fd00::20]:80'],
    ['[fd00::/64]:443', '[fd00::/64]:443'],
    ['0xc0.0xa8.1.20:80', '192.168.1.20:80'], // the URL parser's reading of an IPv4 literal
  ])('%s is stored as %s', (text, canonical) => {
    const parsed = outboundSettingsInputSchema.safeParse({ allowList: [text] });
    expect(parsed.success).toBe(true);
    expect(parsed.data?.allowList).toEqual([canonical]);
  });

  it.each([
    '192.168.1.20',
    'http://192.168.1.20:8123',
    '192.168.1.20:0',
    '192.168.1.20:70000',
    'printer.local:',
    ':80',
    'fd00::20:80',
    '[fd00::zz]:80',
    '192.168.1.0/33:80',
    'printer.local/24:80',
    'bad_host!:80',
    'metadata.google.internal:80',
    '169.254.169.254:80',
    '[fd00:ec2::254]:80',
  ])('%s is refused with a message', (text) => {
    const parsed = outboundSettingsInputSchema.safeParse({ allowList: [text] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBeTruthy();
    expect(parsed.error?.issues[0]?.path).toEqual(['allowList', 0]);
  });

  it('keeps one of each entry, however spelled', () => {
    expect(
      outboundSettingsInputSchema.parse({ allowList: ['nas.local:80', 'NAS.local:80', 'nas.local.:80'] }),
    ).toEqual({ allowList: ['nas.local:80'] });
    expect(typeof parseAllowEntry('x')).toBe('string');
  });
});
