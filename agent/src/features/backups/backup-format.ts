import { createCipheriv, createDecipheriv, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { z } from 'zod';

/**
 * The `.nexusbackup` file (issue 20). Everything before the payload is plaintext so that a backup
 * can be listed without its passphrase; the header is authenticated with every chunk, so editing it
 * breaks the file as surely as editing the payload.
 *
 *   "NEXUSBAK"                       8 bytes, magic
 *   format version                   uint16 big-endian (1)
 *   header length L                  uint32 big-endian (at most 64 KiB)
 *   header                           L bytes of UTF-8 JSON (backupHeaderSchema)
 *   records, until the final one:
 *     flag                           1 byte: 0 more records follow, 1 this is the last
 *     length n                       uint32 big-endian, at most header.chunkSize
 *     ciphertext                     n bytes, AES-256-GCM
 *     tag                            16 bytes, GCM authentication tag
 *
 * Key: scrypt(passphrase, salt, N, r, p) → 64 bytes; the first 32 are the AES key, the last 32 only
 * make `keyCheck` (their first 16 bytes), which tells a wrong passphrase from a damaged file.
 * Nonce of record i (from 0): header.noncePrefix (8 random bytes per file) ‖ uint32 BE i, so records
 * cannot be reordered. AAD of every record: the header bytes (magic to the end of the JSON) ‖ flag,
 * so a changed header or a moved "last" flag fails, and a file cut short lacks its final record.
 * The plaintext is a gzip'd tar (backup-archive.ts).
 */

export const BACKUP_MAGIC = Buffer.from('NEXUSBAK', 'ascii');
export const BACKUP_FORMAT_VERSION = 1;
export const BACKUP_CHUNK_SIZE = 1024 * 1024;
const PREAMBLE_BYTES = BACKUP_MAGIC.length + 2 + 4;
const MAX_HEADER_BYTES = 64 * 1024;
const RECORD_PREFIX_BYTES = 1 + 4;
const TAG_BYTES = 16;
const FLAG_MORE = 0;
const FLAG_FINAL = 1;

/** scrypt's cost in production: 2^17 × r 8 = 128 MiB and about half a second on a Pi-class CPU. */
export const SCRYPT_N = 2 ** 17;
/** A file asking for less is refused: the header is the attacker's to choose. Tests may go lower. */
export const SCRYPT_MIN_N = 2 ** 16;
export const SCRYPT_TEST_MIN_N = 2 ** 10;
/** Nor more: N beyond this would make the hub allocate gigabytes on a crafted file's say-so. */
const SCRYPT_MAX_N = 2 ** 20;
const SCRYPT_R = 8;
const SCRYPT_P = 1;

export const backupTriggerSchema = z.enum(['manual', 'scheduled', 'before-update']);
export type BackupTrigger = z.infer<typeof backupTriggerSchema>;

export const backupHeaderSchema = z.object({
  formatVersion: z.literal(BACKUP_FORMAT_VERSION),
  createdAt: z.string(),
  trigger: backupTriggerSchema,
  hubName: z.string(),
  appVersion: z.string(),
  /** How many database migrations the backup's nexus.db has applied (rows of __drizzle_migrations). */
  schemaLevel: z.number().int().nonnegative(),
  kdf: z.object({
    name: z.literal('scrypt'),
    N: z.number().int().positive(),
    r: z.number().int().positive().max(32),
    p: z.number().int().positive().max(16),
    salt: z.string(),
  }),
  cipher: z.literal('aes-256-gcm'),
  chunkSize: z
    .number()
    .int()
    .positive()
    .max(16 * 1024 * 1024),
  noncePrefix: z.string(),
  keyCheck: z.string(),
});
export type BackupHeader = z.infer<typeof backupHeaderSchema>;

/** What is wrong with a backup file, in words an owner can act on; `reason` for tests and logs. */
export class BackupFileError extends Error {
  constructor(
    readonly reason:
      'not-a-backup' | 'unsupported-version' | 'wrong-passphrase' | 'damaged' | 'truncated' | 'weak-kdf',
    message: string,
  ) {
    super(message);
    this.name = 'BackupFileError';
  }
}

const damaged = (what: string) =>
  new BackupFileError('damaged', `The backup file is damaged (${what}): it was changed after it was made`);

export interface KdfOptions {
  /** scrypt's N for new files; SCRYPT_N unless a test asks for less. */
  N?: number;
  /** The smallest N a file may ask for when read. */
  minN?: number;
}

/** scrypt with maxmem raised: Node's default 32 MiB refuses N = 2^17, r = 8. */
function deriveKeys(passphrase: string, kdf: BackupHeader['kdf']): Promise<{ key: Buffer; check: Buffer }> {
  const maxmem = 128 * kdf.N * kdf.r * kdf.p + 64 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(
      passphrase.normalize('NFC'),
      Buffer.from(kdf.salt, 'base64'),
      64,
      { N: kdf.N, r: kdf.r, p: kdf.p, maxmem },
      (err, derived) => {
        if (err) return reject(err);
        resolve({ key: derived.subarray(0, 32), check: derived.subarray(32, 48) });
      },
    );
  });
}

function nonce(prefix: Buffer, counter: number): Buffer {
  const n = Buffer.alloc(12);
  prefix.copy(n, 0, 0, 8);
  n.writeUInt32BE(counter, 8);
  return n;
}

/** The header's bytes as written: magic, version, length, JSON. */
function encodeHeader(header: BackupHeader): Buffer {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const preamble = Buffer.alloc(PREAMBLE_BYTES);
  BACKUP_MAGIC.copy(preamble, 0);
  preamble.writeUInt16BE(BACKUP_FORMAT_VERSION, BACKUP_MAGIC.length);
  preamble.writeUInt32BE(json.length, BACKUP_MAGIC.length + 2);
  return Buffer.concat([preamble, json]);
}

export type BackupHeaderFields = Pick<
  BackupHeader,
  'createdAt' | 'trigger' | 'hubName' | 'appVersion' | 'schemaLevel'
>;

/**
 * A stream that turns the payload written to it into a `.nexusbackup` file's bytes. Holds at most
 * one chunk (plus what arrived since) in memory.
 */
export async function createEncryptStream(
  fields: BackupHeaderFields,
  passphrase: string,
  options: KdfOptions = {},
): Promise<{ stream: Transform; header: BackupHeader }> {
  const kdf = {
    name: 'scrypt' as const,
    N: options.N ?? SCRYPT_N,
    r: SCRYPT_R,
    p: SCRYPT_P,
    salt: randomBytes(16).toString('base64'),
  };
  const { key, check } = await deriveKeys(passphrase, kdf);
  const prefix = randomBytes(8);
  const header: BackupHeader = {
    formatVersion: BACKUP_FORMAT_VERSION,
    ...fields,
    kdf,
    cipher: 'aes-256-gcm',
    chunkSize: BACKUP_CHUNK_SIZE,
    noncePrefix: prefix.toString('base64'),
    keyCheck: check.toString('base64'),
  };
  const headerBytes = encodeHeader(header);
  let counter = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;

  const seal = (plain: Buffer, final: boolean): Buffer => {
    const flag = final ? FLAG_FINAL : FLAG_MORE;
    const cipher = createCipheriv('aes-256-gcm', key, nonce(prefix, counter));
    counter += 1;
    cipher.setAAD(Buffer.concat([headerBytes, Buffer.from([flag])]));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    const prefixBytes = Buffer.alloc(RECORD_PREFIX_BYTES);
    prefixBytes.writeUInt8(flag, 0);
    prefixBytes.writeUInt32BE(body.length, 1);
    return Buffer.concat([prefixBytes, body, cipher.getAuthTag()]);
  };
  const take = (n: number): Buffer => {
    const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    pending = rest.length ? [rest] : [];
    pendingBytes = rest.length;
    return out;
  };

  const stream = new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      // A chunk goes out only once more data follows it: the last one must carry the final flag.
      while (pendingBytes > BACKUP_CHUNK_SIZE) this.push(seal(take(BACKUP_CHUNK_SIZE), false));
      done();
    },
    flush(done: TransformCallback) {
      this.push(seal(take(pendingBytes), true));
      done();
    },
  });
  stream.push(headerBytes);
  return { stream, header };
}

/** Reads and checks the plaintext header of a backup file (no passphrase needed). */
export async function readBackupHeader(file: string): Promise<{ header: BackupHeader; headerBytes: Buffer }> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const preamble = Buffer.alloc(PREAMBLE_BYTES);
    const { bytesRead } = await handle.read(preamble, 0, PREAMBLE_BYTES, 0);
    if (bytesRead < PREAMBLE_BYTES || !preamble.subarray(0, BACKUP_MAGIC.length).equals(BACKUP_MAGIC)) {
      throw new BackupFileError('not-a-backup', 'This is not a Nexus backup file (.nexusbackup)');
    }
    const version = preamble.readUInt16BE(BACKUP_MAGIC.length);
    if (version !== BACKUP_FORMAT_VERSION) {
      throw new BackupFileError(
        'unsupported-version',
        `This backup uses format version ${version}, which this hub cannot read; update the hub first`,
      );
    }
    const length = preamble.readUInt32BE(BACKUP_MAGIC.length + 2);
    if (length === 0 || length > MAX_HEADER_BYTES) throw damaged('its header has an impossible length');
    const json = Buffer.alloc(length);
    const read = await handle.read(json, 0, length, PREAMBLE_BYTES);
    if (read.bytesRead < length) throw new BackupFileError('truncated', 'The backup file is cut short');
    let parsed: unknown;
    try {
      parsed = JSON.parse(json.toString('utf8'));
    } catch {
      throw damaged('its header is not readable');
    }
    const result = backupHeaderSchema.safeParse(parsed);
    if (!result.success) throw damaged('its header is not readable');
    return { header: result.data, headerBytes: Buffer.concat([preamble, json]) };
  } finally {
    await handle.close();
  }
}

/**
 * Opens a backup file with its passphrase: checks the header and the passphrase (before any chunk
 * is read), and gives a stream of the payload. The stream fails with a BackupFileError on the first
 * record whose tag does not match, on a file cut short, and on bytes after the last record; no
 * plaintext of a record leaves it before its tag is verified.
 */
export async function openBackup(
  file: string,
  passphrase: string,
  options: KdfOptions = {},
): Promise<{ header: BackupHeader; payload: () => Readable }> {
  const { header, headerBytes } = await readBackupHeader(file);
  const minN = options.minN ?? SCRYPT_MIN_N;
  if (header.kdf.N < minN || header.kdf.N > SCRYPT_MAX_N || (header.kdf.N & (header.kdf.N - 1)) !== 0) {
    throw new BackupFileError(
      'weak-kdf',
      `The backup's key derivation (scrypt N=${header.kdf.N}) is outside what this hub accepts`,
    );
  }
  const { key, check } = await deriveKeys(passphrase, header.kdf);
  const expected = Buffer.from(header.keyCheck, 'base64');
  if (expected.length !== check.length || !timingSafeEqual(expected, check)) {
    throw new BackupFileError('wrong-passphrase', 'The passphrase is wrong for this backup');
  }
  const prefix = Buffer.from(header.noncePrefix, 'base64');
  if (prefix.length !== 8) throw damaged('its header is not readable');
  return {
    header,
    payload: () => {
      const source = fs.createReadStream(file, { start: headerBytes.length, highWaterMark: 256 * 1024 });
      const decrypt = createDecryptTransform(key, prefix, headerBytes, header.chunkSize);
      // pipe() forwards no errors: a file that cannot be read fails the payload stream.
      source.on('error', (error) => decrypt.destroy(error));
      decrypt.on('close', () => source.destroy());
      return source.pipe(decrypt);
    },
  };
}

function createDecryptTransform(key: Buffer, prefix: Buffer, headerBytes: Buffer, chunkSize: number) {
  let buffered: Buffer[] = [];
  let bufferedBytes = 0;
  let counter = 0;
  let finished = false;
  const peek = (): Buffer => {
    if (buffered.length > 1) buffered = [Buffer.concat(buffered)];
    return buffered[0] ?? Buffer.alloc(0);
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      if (finished) return done(damaged('bytes follow its last part'));
      buffered.push(chunk);
      bufferedBytes += chunk.length;
      try {
        while (!finished && bufferedBytes >= RECORD_PREFIX_BYTES) {
          const all = peek();
          const flag = all.readUInt8(0);
          const length = all.readUInt32BE(1);
          if ((flag !== FLAG_MORE && flag !== FLAG_FINAL) || length > chunkSize) {
            throw damaged(`part ${counter + 1} is not readable`);
          }
          const total = RECORD_PREFIX_BYTES + length + TAG_BYTES;
          if (all.length < total) break;
          const decipher = createDecipheriv('aes-256-gcm', key, nonce(prefix, counter));
          decipher.setAAD(Buffer.concat([headerBytes, Buffer.from([flag])]));
          decipher.setAuthTag(all.subarray(RECORD_PREFIX_BYTES + length, total));
          let plain: Buffer;
          try {
            plain = Buffer.concat([
              decipher.update(all.subarray(RECORD_PREFIX_BYTES, RECORD_PREFIX_BYTES + length)),
              decipher.final(),
            ]);
          } catch {
            throw damaged(`part ${counter + 1} fails its integrity check`);
          }
          counter += 1;
          const rest = all.subarray(total);
          buffered = rest.length ? [rest] : [];
          bufferedBytes = rest.length;
          if (flag === FLAG_FINAL) finished = true;
          this.push(plain);
        }
        if (finished && bufferedBytes > 0) throw damaged('bytes follow its last part');
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done: TransformCallback) {
      if (!finished) return done(new BackupFileError('truncated', 'The backup file is cut short'));
      done();
    },
  });
}

/** The error of a failed stream, as a BackupFileError when it is one (pipeline wraps nothing). */
export function isBackupFileError(error: unknown): error is BackupFileError {
  return error instanceof BackupFileError;
}
