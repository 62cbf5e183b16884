import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEY_FILE = 'secret.key';
const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';

/**
 * Encrypts secrets at rest (Home Assistant tokens, provider API keys, TOTP secrets) with
 * AES-256-GCM under a key kept in the data directory, readable by the agent's user only.
 * A copied database alone does not reveal them.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export function loadOrCreateKey(dataDir: string): Buffer {
  const file = path.join(dataDir, KEY_FILE);
  try {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const key = randomBytes(32);
    // 'wx' so two processes starting at once cannot overwrite each other's key.
    fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
    return key;
  }
}

export function createSecretBox(key: Buffer): SecretBox {
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv(ALGORITHM, key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64'), tag.toString('base64'), body.toString('base64')].join(':');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== VERSION || !iv || !tag || body === undefined)
        throw new Error('Unreadable sealed secret');
      const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}
