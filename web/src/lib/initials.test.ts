import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('initials (spec §3)', () => {
  it('takes the first letters of the first two words of the name, uppercased', () => {
    expect(initials('ada lovelace', 'ada@example.com')).toBe('AL');
    expect(initials('Grace Brewster Murray Hopper')).toBe('GB');
  });

  it('uses one letter for a one-word name', () => {
    expect(initials('cher', 'cher@example.com')).toBe('C');
  });

  it('ignores surrounding and repeated whitespace', () => {
    expect(initials('   Alan \t  Turing  ')).toBe('AT');
  });

  it('falls back to the first two letters of the email when the name is empty or blank', () => {
    expect(initials('', 'bob@example.com')).toBe('BO');
    expect(initials('   ', 'zed@example.com')).toBe('ZE');
    expect(initials(null, 'q@x.io')).toBe('Q@');
    expect(initials(undefined, 'max@example.com')).toBe('MA');
  });

  it('falls back to U when there is neither a name nor an email', () => {
    expect(initials()).toBe('U');
    expect(initials('', '')).toBe('U');
    expect(initials(null, '  ')).toBe('U');
  });

  it('keeps letters outside the basic plane whole', () => {
    expect(initials('😀 smile')).toBe('😀S');
    expect(initials('émile zola')).toBe('ÉZ');
  });
});
