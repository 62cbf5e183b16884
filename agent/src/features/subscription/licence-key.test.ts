import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LicencePayload } from '../../contract/subscription.js';
import { VENDOR_LICENCE_PUBLIC_KEY_PEM } from './vendor-key.js';
import { checkLicenceKey, ed25519PublicKey, licenceReceipt, signLicenceKey } from './licence-key.js';

// Keys are made here, for this run only: no private key is ever committed.
const vendor = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('ed25519');

const NOW = Date.UTC(2026, 2, 1, 12);
const S = (ms: number) => Math.floor(ms / 1000);
const DAY = 86_400;
const HUB = 'abcdefghijklmnopqrstuvwxyz';

const payload = (over: Partial<LicencePayload> = {}): LicencePayload => ({
  lid: 'lic-1',
  hub: HUB,
  plan: 'pro',
  iat: S(NOW) - DAY,
  exp: S(NOW) + 365 * DAY,
  ...over,
});
const check = (key: string, now = NOW) =>
  checkLicenceKey(key, { publicKey: vendor.publicKey, hubId: HUB, now });

/** Replaces one character at `index` by another character of the base64url alphabet. */
function flip(key: string, index: number): string {
  const c = key[index]!;
  return key.slice(0, index) + (c === 'A' ? 'B' : 'A') + key.slice(index + 1);
}

describe('licence key matrix', () => {
  it('accepts a valid key and returns its payload', () => {
    const p = payload({ seats: 3, nbf: S(NOW) - 60 });
    expect(check(signLicenceKey(p, vendor.privateKey))).toEqual({ ok: true, payload: p });
  });

  it('accepts a key with a trailing newline or wrapped lines (a licence file)', () => {
    const key = signLicenceKey(payload(), vendor.privateKey);
    expect(check(`${key.slice(0, 40)}\n${key.slice(40)}\n`)).toMatchObject({ ok: true });
  });

  it('refuses a payload changed by one byte as a bad signature', () => {
    const key = signLicenceKey(payload(), vendor.privateKey);
    for (const index of [5, 12, key.indexOf('.', 5) - 1])
      expect(check(flip(key, index))).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a key signed with another key (a forged plan) as a bad signature', () => {
    const forged = signLicenceKey(payload({ plan: 'max' }), stranger.privateKey);
    expect(check(forged)).toMatchObject({ ok: false, reason: 'bad-signature' });
    // The genuine signature over another payload does not carry over either.
    const genuine = signLicenceKey(payload(), vendor.privateKey).split('.');
    const upgraded = signLicenceKey(payload({ plan: 'max' }), vendor.privateKey).split('.');
    expect(check([genuine[0], upgraded[1], genuine[2]].join('.'))).toMatchObject({ reason: 'bad-signature' });
  });

  it('refuses an expired key, naming when it expired', () => {
    const exp = S(NOW) - 1;
    const result = check(signLicenceKey(payload({ exp }), vendor.privateKey));
    expect(result).toMatchObject({
      ok: false,
      reason: 'expired',
      facts: { expiredAt: new Date(exp * 1000).toISOString() },
    });
    // The last valid second is accepted.
    expect(check(signLicenceKey(payload({ exp: S(NOW) + 1 }), vendor.privateKey))).toMatchObject({
      ok: true,
    });
  });

  it('refuses a key not yet valid, naming from when', () => {
    const nbf = S(NOW) + DAY;
    expect(check(signLicenceKey(payload({ nbf }), vendor.privateKey))).toMatchObject({
      ok: false,
      reason: 'not-yet-valid',
      facts: { validFrom: new Date(nbf * 1000).toISOString() },
    });
    expect(check(signLicenceKey(payload({ nbf }), vendor.privateKey), nbf * 1000)).toMatchObject({
      ok: true,
    });
  });

  it('refuses a key for another hub, naming both hub ids', () => {
    const result = check(signLicenceKey(payload({ hub: 'zzzzzzzzzzzzzzzzzzzzzzzzzz' }), vendor.privateKey));
    expect(result).toMatchObject({
      ok: false,
      reason: 'another-hub',
      facts: { keyHubId: 'zzzzzzzzzzzzzzzzzzzzzzzzzz', hubId: HUB },
    });
    expect((result as { message: string }).message).toBe(
      `This key is for another hub (hub id zzzzzzzzzzzzzzzzzzzzzzzzzz); this hub’s id is ${HUB}.`,
    );
  });

  it.each([
    ['garbage', 'hello world'],
    ['empty', '   '],
    ['wrong prefix', 'NXL2.' + signLicenceKey(payload(), vendor.privateKey).slice(5)],
    ['lower-case prefix', 'nxl1.' + signLicenceKey(payload(), vendor.privateKey).slice(5)],
    ['extra segments', signLicenceKey(payload(), vendor.privateKey) + '.AAAA'],
    ['missing signature', signLicenceKey(payload(), vendor.privateKey).split('.').slice(0, 2).join('.')],
    ['short signature', signLicenceKey(payload(), vendor.privateKey).slice(0, -4)],
    [
      'characters outside base64url',
      signLicenceKey(payload(), vendor.privateKey).replace(/^NXL1\.(.)/, 'NXL1.+'),
    ],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl'],
    ['huge input', 'NXL1.' + 'A'.repeat(1_000_000) + '.' + 'A'.repeat(86)],
  ])('refuses %s as malformed', (_name, key) => {
    expect(check(key)).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('refuses a correctly signed key whose payload is not a licence as malformed', () => {
    const bad = payload({ plan: 'free' as 'pro' });
    const text = Buffer.from(JSON.stringify(bad)).toString('base64url');
    const sig = sign(null, Buffer.from(`NXL1.${text}`), vendor.privateKey).toString('base64url');
    expect(check(`NXL1.${text}.${sig}`)).toMatchObject({ ok: false, reason: 'malformed' });
  });
});

describe('public keys', () => {
  it('reads the shipped vendor key as Ed25519', () => {
    expect(ed25519PublicKey(VENDOR_LICENCE_PUBLIC_KEY_PEM).asymmetricKeyType).toBe('ed25519');
  });

  it('refuses a PEM that is not an Ed25519 public key, in words', () => {
    expect(() => ed25519PublicKey('not a pem')).toThrow(/not a public key in PEM/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    expect(() => ed25519PublicKey(rsa.toString())).toThrow(/rsa key; licence keys are signed with Ed25519/);
  });
});

describe('receipt', () => {
  it('names the plan, hub, dates, licence id and the key', () => {
    const p = payload({ seats: 2 });
    const key = signLicenceKey(p, vendor.privateKey);
    const text = licenceReceipt(p, key);
    expect(text).toContain('Licence id:  lic-1');
    expect(text).toContain('Plan:        Pro');
    expect(text).toContain(`Hub id:      ${HUB}`);
    expect(text).toContain(`Expires:     ${new Date(p.exp * 1000).toISOString()}`);
    expect(text).toContain('Seats:       2');
    expect(text).toContain(key);
  });
});
