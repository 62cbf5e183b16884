import { describe, expect, it } from 'vitest';
import { readCookie } from './cookies.js';

describe('readCookie', () => {
  it('finds the cookie wherever it stands in the header', () => {
    expect(readCookie('nexus_session=abc', 'nexus_session')).toBe('abc');
    expect(readCookie('theme=dark; nexus_session=abc-_1; other=x', 'nexus_session')).toBe('abc-_1');
    expect(readCookie('theme=dark;nexus_session=abc', 'nexus_session')).toBe('abc');
    expect(readCookie('a=1; nexus_session="quoted"', 'nexus_session')).toBe('quoted');
  });

  it('does not take a cookie whose name merely ends with ours', () => {
    expect(readCookie('xnexus_session=evil', 'nexus_session')).toBeUndefined();
    expect(readCookie('xnexus_session=evil; nexus_session=good', 'nexus_session')).toBe('good');
  });

  it('answers undefined for a missing header, a missing cookie or an empty value', () => {
    expect(readCookie(undefined, 'nexus_session')).toBeUndefined();
    expect(readCookie('theme=dark', 'nexus_session')).toBeUndefined();
    expect(readCookie('nexus_session=; theme=dark', 'nexus_session')).toBeUndefined();
  });
});
