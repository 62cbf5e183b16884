import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { StartupError } from './startup-error.js';

export const KEY_FILE = 'secret.key';
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

/**
 * Where the database remembers which key sealed its secrets: an id derived from the key (an HMAC of
 * a fixed label, which reveals nothing of the key), not the key itself.
 */
export interface KeyRecord {
  get(): string | undefined;
  set(id: string): void;
  /** Whether any secret is stored sealed: a database from before key ids were recorded has none. */
  holdsSealedSecrets(): boolean;
}

export function keyId(key: Buffer): string {
  return createHmac('sha256', key).update('nexus secret.key id').digest('hex').slice(0, 16);
}

/**
 * Reads `<dataDir>/secret.key`. It is created only on a database that never had one: once the
 * database records a key, a missing or different key stops the start instead of being replaced,
 * because a new key silently orphans every stored secret (tokens, API keys, 2FA secrets).
 */
export function loadSecretKey(dataDir: string, record: KeyRecord): Buffer {
  const file = path.join(dataDir, KEY_FILE);
  const recorded = record.get();
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // There but unreadable (a directory in its place, no permission): never a new key, which would
    // orphan the secrets the database holds; the owner fixes the file.
    if (code !== 'ENOENT')
      throw new StartupError(
        `${file} cannot be read (${code ?? (error as Error).message}): it must be a file the agent's user may read (chmod 600, owned by that user). ${RESTORE_HINT}`,
      );
    if (recorded !== undefined) throw new StartupError(missingKeyMessage(file, recorded));
    // A database written before key ids were recorded may still hold secrets sealed with the lost key.
    if (record.holdsSealedSecrets())
      throw new StartupError(
        `${file} is missing, and the database holds secrets sealed with it; a new key would make them unreadable, so the agent does not create one. ${RESTORE_HINT}`,
      );
    const key = randomBytes(32);
    // 'wx' so two processes starting at once cannot overwrite each other's key.
    fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
    record.set(keyId(key));
    return key;
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new StartupError(`${file} does not hold a 32-byte key. ${RESTORE_HINT}`);
  const id = keyId(key);
  if (recorded === undefined) record.set(id);
  else if (recorded !== id)
    throw new StartupError(
      `${file} is not the key this database's secrets were sealed with (key id ${id}, the database expects ${recorded}). ${RESTORE_HINT}`,
    );
  // A key restored by hand (cp) gets the umask's mode; it is the agent's alone.
  if ((fs.statSync(file).mode & 0o777) !== 0o600) fs.chmodSync(file, 0o600);
  return key;
}

const RESTORE_HINT =
  'Restore secret.key from the backup of NEXUS_DATA_DIR (the file beside nexus.db) and start again. ' +
  'If it is lost for good, `npm run cli -- secrets:reset` forgets the stored secrets (Home Assistant token, ' +
  "provider and speech API keys, other hubs' tokens, flow header secrets, 2FA) so that they can be entered again.";

function missingKeyMessage(file: string, recorded: string): string {
  return `${file} is missing, and the database holds secrets sealed with it (key id ${recorded}); a new key would make them unreadable, so the agent does not create one. ${RESTORE_HINT}`;
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
