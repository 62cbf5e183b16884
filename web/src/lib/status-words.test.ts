import { describe, expect, it } from 'vitest';
import { statusLabel, statusTone } from './status-words';

describe('statusTone (spec §4 status words)', () => {
  it.each([
    ['online', 'good'],
    ['connected', 'good'],
    ['running', 'good'],
    ['active', 'good'],
    ['Online', 'good'],
    ['offline', 'bad'],
    ['disconnected', 'bad'],
    ['stopped', 'bad'],
    ['degraded', 'warning'],
    ['warning', 'warning'],
    ['not_configured', 'neutral'],
    ['available', 'neutral'],
    ['trialing', 'neutral'],
    ['', 'neutral'],
    [undefined, 'neutral'],
    [null, 'neutral'],
  ] as const)('%s is %s', (word, tone) => {
    expect(statusTone(word)).toBe(tone);
  });

  it('labels words for people', () => {
    expect(statusLabel('not_configured')).toBe('Not configured');
    expect(statusLabel('online')).toBe('Online');
  });
});
