import { describe, expect, it } from 'vitest';
import { base32Decode, hotp, timeStep, totpAt } from '../../../../tests/support/totp.js';
import { checkTotp, newTotpSecret, totpUri } from './totp.js';

/** RFC 6238 Appendix B's SHA-1 seed, "12345678901234567890", in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('the independent RFC 6238 reference used by the tests', () => {
  it('reproduces the RFC 6238 Appendix B SHA-1 vectors (8 digits)', () => {
    const key = base32Decode(RFC_SECRET);
    expect(key.toString('ascii')).toBe('12345678901234567890');
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors) expect(hotp(key, timeStep(seconds * 1000), 8)).toBe(code);
  });
});

describe('checkTotp', () => {
  const at = 1_234_567_890_000;
  const step = timeStep(at);

  it('accepts the RFC vector at its time and reports the step', async () => {
    await expect(checkTotp(RFC_SECRET, '005924', null, at)).resolves.toEqual({ ok: true, step });
  });

  it('accepts one step of drift either way, not two', async () => {
    const secret = newTotpSecret();
    for (const offset of [-1, 0, 1]) {
      const result = await checkTotp(secret, totpAt(secret, step + offset), null, at);
      expect(result).toEqual({ ok: true, step: step + offset });
    }
    for (const offset of [-2, 2]) {
      const result = await checkTotp(secret, totpAt(secret, step + offset), null, at);
      expect(result).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('refuses a code from the last accepted step or before as replayed', async () => {
    const secret = newTotpSecret();
    const code = totpAt(secret, step);
    await expect(checkTotp(secret, code, step, at)).resolves.toEqual({ ok: false, reason: 'replayed' });
    await expect(checkTotp(secret, totpAt(secret, step - 1), step, at)).resolves.toEqual({
      ok: false,
      reason: 'replayed',
    });
    // The next step is still fine.
    await expect(checkTotp(secret, totpAt(secret, step + 1), step, at)).resolves.toEqual({
      ok: true,
      step: step + 1,
    });
  });

  it('refuses everything, without throwing, when the last step is ahead of the clock', async () => {
    const secret = newTotpSecret();
    const result = await checkTotp(secret, totpAt(secret, step), step + 50, at);
    expect(result.ok).toBe(false);
  });

  it('refuses a wrong code', async () => {
    const secret = newTotpSecret();
    const right = totpAt(secret, step);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    await expect(checkTotp(secret, wrong, null, at)).resolves.toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('enrolment data', () => {
  it('makes 160-bit base32 secrets and an otpauth URL authenticator apps read', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]+$/);
    expect(base32Decode(secret)).toHaveLength(20);
    const url = new URL(totpUri(secret, 'ann@example.com'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Nexus Console:ann@example.com');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('Nexus Console');
  });
});
