import { describe, expect, it } from 'vitest';
import { RECOVERY_CODE_PATTERN } from '../../contract/second-factor.js';
import { hashRecoveryCode, newRecoveryCode, normalizeRecoveryCode } from './recovery-codes.js';

describe('recovery codes', () => {
  it('are xxxxx-xxxxx from Crockford base32: 50 random bits, no i, l, o or u', () => {
    const codes = Array.from({ length: 2000 }, newRecoveryCode);
    for (const code of codes) {
      expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
      expect(RECOVERY_CODE_PATTERN.test(code)).toBe(true);
    }
    expect(new Set(codes).size).toBe(codes.length);
    // Every symbol of the 32 turns up: the alphabet is used evenly enough to carry 5 bits each.
    expect(new Set(codes.join('').replace(/-/g, '')).size).toBe(32);
  });

  it('match however they are typed: case, spaces, the hyphen, and letters misread as digits', () => {
    const code = 'ab1c0-defgh';
    for (const typed of ['AB1C0-DEFGH', 'ab1c0defgh', ' ab1c0 defgh ', 'abic0-defgh', 'ablco-defgh']) {
      expect(normalizeRecoveryCode(typed)).toBe('ab1c0defgh');
      expect(hashRecoveryCode(typed)).toBe(hashRecoveryCode(code));
    }
    expect(hashRecoveryCode(code)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCode('ab1c0-defgj')).not.toBe(hashRecoveryCode(code));
  });
});
