import { createHmac } from 'node:crypto';

/**
 * An independent RFC 6238 (TOTP) / RFC 4226 (HOTP) implementation for tests, written from the
 * RFCs with node:crypto only, so the agent's use of otplib is checked against something other
 * than otplib itself.
 */

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, as authenticator apps read the `secret` of an otpauth:// URL. */
export function base32Decode(input: string): Buffer {
  const clean = input.replace(/=+$/, '').replace(/\s+/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = BASE32_ALPHABET.indexOf(char);
    if (index === -1) throw new Error(`Not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 4226 §5.3: HMAC-SHA1 over the 8-byte counter, dynamic truncation, modulo 10^digits. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary =
    ((mac[offset]! & 0x7f) << 24) |
    ((mac[offset + 1]! & 0xff) << 16) |
    ((mac[offset + 2]! & 0xff) << 8) |
    (mac[offset + 3]! & 0xff);
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238 §4: T = floor((now - T0) / X) with T0 = 0 and X = 30 seconds. */
export const timeStep = (epochMs: number, periodSeconds = 30) => Math.floor(epochMs / 1000 / periodSeconds);

/** The code for a base32 secret at a time step (default: the current one). */
export function totpAt(secretBase32: string, step = timeStep(Date.now()), digits = 6): string {
  return hotp(base32Decode(secretBase32), step, digits);
}
