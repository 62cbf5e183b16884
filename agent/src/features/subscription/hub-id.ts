import { randomInt } from 'node:crypto';
import { z } from 'zod';
import type { SettingsRepository } from '../settings/index.js';

export const HUB_ID_SETTING = 'hub.id';
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const HUB_ID_LENGTH = 26;

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
      // 26 random characters of lowercase base32 (130 bits), as recovery codes are made: short enough
      // to read out to support, no ambiguity of case.
      cached = Array.from({ length: HUB_ID_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
      settings.set(HUB_ID_SETTING, cached);
    }
    return cached;
  };
}
