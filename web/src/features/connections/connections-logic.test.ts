import { describe, expect, it } from 'vitest';
import {
  configFileName,
  handshakeAgo,
  parseUplinksForm,
  svgDataUrl,
  uplinksFormValues,
  visitorSentence,
} from './connections-logic';

const NOW = Date.parse('2030-01-01T12:00:00Z');
const ago = (s: number) => new Date(NOW - s * 1000).toISOString();

describe('handshakeAgo', () => {
  it('reads like people talk', () => {
    expect(handshakeAgo(null, NOW)).toBe('never');
    expect(handshakeAgo(ago(5), NOW)).toBe('just now');
    expect(handshakeAgo(ago(125), NOW)).toBe('2 min ago');
    expect(handshakeAgo(ago(3 * 3600 + 10), NOW)).toBe('3 h ago');
    expect(handshakeAgo(ago(5 * 86400), NOW)).toBe('5 days ago');
    expect(handshakeAgo('garbage', NOW)).toBe('never');
  });
});

describe('svgDataUrl', () => {
  it('encodes the markup so it cannot leave the attribute', () => {
    const url = svgDataUrl('<svg onload="alert(1)">"\'</svg>');
    expect(url.startsWith('data:image/svg+xml')).toBe(true);
    expect(url).not.toMatch(/["<> ]/);
  });
});

describe('configFileName', () => {
  it('keeps names the WireGuard apps accept', () => {
    expect(configFileName("Anna's iPhone")).toBe('Anna-s-iPhone.conf');
    expect(configFileName('a very long laptop name')).toBe('a-very-long-lap.conf');
    expect(configFileName('😀')).toBe('nexus.conf');
  });
});

describe('parseUplinksForm', () => {
  const good = { ...uplinksFormValues(undefined), probeTarget: '1.1.1.1' };
  it('omits empty configs (kept) and sends "" to remove one', () => {
    expect(parseUplinksForm(good)).toEqual({
      ok: true,
      input: { probeTarget: '1.1.1.1', intervalSeconds: 10, failAfter: 3, recoverAfter: 5 },
    });
    const removed = parseUplinksForm({ ...good, primary: '[Interface]' }, { backup: true });
    expect(removed.ok && removed.input).toMatchObject({ primary: '[Interface]', backup: '' });
  });
  it('names every bad field', () => {
    const result = parseUplinksForm({
      ...good,
      probeTarget: ' ',
      intervalSeconds: '0',
      failAfter: '2.5',
      recoverAfter: '',
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(Object.keys(result.errors).sort()).toEqual([
        'failAfter',
        'intervalSeconds',
        'probeTarget',
        'recoverAfter',
      ]);
      expect(result.errors.intervalSeconds).toMatch(/1 to 600/);
    }
  });
});

describe('visitorSentence', () => {
  it('says where the visitor came from', () => {
    expect(
      visitorSentence({ address: '127.0.0.1', viaVpn: false, range: '127.0.0.0/8', kind: 'lan' }).title,
    ).toMatch(/own network, not a VPN/);
    expect(visitorSentence({ address: '8.8.8.8', viaVpn: false, range: null, kind: 'other' }).title).toMatch(
      /not coming through a VPN/,
    );
    expect(
      visitorSentence({ address: '192.168.2.4', viaVpn: true, range: '192.168.2.0/24', kind: 'teleport' })
        .title,
    ).toMatch(/Teleport/);
  });
});
