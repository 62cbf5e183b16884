import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { SettingsRepository } from '../settings/settings.repository.js';

export const HUB_ID_SETTING = 'hub.id';

/**
 * This hub's stable random id, made on first use and kept in the settings (so a backup restored
 * onto replacement hardware keeps the licences made for it). Licence keys name it.
 */
export function hubIdFrom(settings: SettingsRepository): () => string {
  let cached: string | undefined;
  return () => {
    if (cached) return cached;
    cached = settings.get(HUB_ID_SETTING, z.string().regex(/^[a-z0-9]{26}$/));
    if (!cached) {
      // 128 random bits in lowercase base32: short enough to read out to support, no ambiguity of case.
      cached = base32(randomBytes(16));
      settings.set(HUB_ID_SETTING, cached);
    }
    return cached;
  };
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}
