import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BACKUP_CHUNK_SIZE,
  BackupFileError,
  createEncryptStream,
  openBackup,
  readBackupHeader,
} from './backup-format.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-format-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const FIELDS = {
  createdAt: '2026-11-25T03:00:00.000Z',
  trigger: 'manual' as const,
  hubName: 'Kitchen hub',
  appVersion: '1.2.3',
  schemaLevel: 10,
};
const PASS = 'a long enough passphrase';
// Low cost keeps the unit tests quick; the floor is lowered to match, as NODE_ENV=test does.
const KDF = { N: 2 ** 10, minN: 2 ** 10 };

async function write(payload: Buffer, name = `${randomBytes(4).toString('hex')}.nexusbackup`) {
  const file = path.join(dir, name);
  const { stream } = await createEncryptStream(FIELDS, PASS, KDF);
  // Fed in odd-sized pieces, as a gzip stream would.
  const pieces: Buffer[] = [];
  for (let i = 0; i < payload.length; i += 70_001) pieces.push(payload.subarray(i, i + 70_001));
  await pipeline(Readable.from(pieces), stream, fs.createWriteStream(file));
  return file;
}

async function read(file: string, passphrase = PASS): Promise<Buffer> {
  const { payload } = await openBackup(file, passphrase, KDF);
  const parts: Buffer[] = [];
  for await (const part of payload()) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

async function failure(promise: Promise<unknown>): Promise<BackupFileError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BackupFileError);
  return error as BackupFileError;
}

describe('the .nexusbackup format', () => {
  const payload = randomBytes(BACKUP_CHUNK_SIZE * 2 + 12345);

  it('round-trips a payload of several chunks, and an empty one, and one of exactly a chunk', async () => {
    expect((await read(await write(payload))).equals(payload)).toBe(true);
    expect((await read(await write(Buffer.alloc(0)))).length).toBe(0);
    const exact = randomBytes(BACKUP_CHUNK_SIZE);
    expect((await read(await write(exact))).equals(exact)).toBe(true);
  });

  it('lists the header without the passphrase', async () => {
    const { header } = await readBackupHeader(await write(payload));
    expect(header).toMatchObject({
      ...FIELDS,
      formatVersion: 1,
      cipher: 'aes-256-gcm',
      chunkSize: BACKUP_CHUNK_SIZE,
    });
    expect(header.kdf).toMatchObject({ name: 'scrypt', N: KDF.N, r: 8, p: 1 });
  });

  it('refuses a wrong passphrase before reading any chunk', async () => {
    const error = await failure(read(await write(payload), 'not the passphrase at all'));
    expect(error.reason).toBe('wrong-passphrase');
  });

  it('refuses a file that is not a backup', async () => {
    const file = path.join(dir, 'plain.txt');
    fs.writeFileSync(file, 'hello, this is a text file and not a backup');
    expect((await failure(read(file))).reason).toBe('not-a-backup');
  });

  it('refuses a flipped byte in the payload, naming the part', async () => {
    const file = await write(payload);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 100]! ^= 0x01;
    fs.writeFileSync(file, bytes);
    const error = await failure(read(file));
    expect(error.reason).toBe('damaged');
    expect(error.message).toMatch(/part 3/);
  });

  it('refuses an edited header (authenticated as AAD), even with the key check intact', async () => {
    const file = await write(payload);
    const bytes = fs.readFileSync(file);
    const text = bytes.toString('latin1').replace('Kitchen hub', 'Kitchen hug');
    fs.writeFileSync(file, Buffer.from(text, 'latin1'));
    expect((await readBackupHeader(file)).header.hubName).toBe('Kitchen hug');
    expect((await failure(read(file))).reason).toBe('damaged');
  });

  it('refuses a file cut short at a chunk boundary (no final chunk) and mid-chunk', async () => {
    const file = await write(payload);
    const bytes = fs.readFileSync(file);
    const { headerBytes } = await readBackupHeader(file);
    const firstRecord = headerBytes.length + 5 + BACKUP_CHUNK_SIZE + 16;
    fs.writeFileSync(file, bytes.subarray(0, firstRecord));
    expect((await failure(read(file))).reason).toBe('truncated');
    fs.writeFileSync(file, bytes.subarray(0, bytes.length - 10));
    expect((await failure(read(file))).reason).toBe('truncated');
  });

  it('refuses reordered chunks and bytes after the last chunk', async () => {
    const file = await write(payload);
    const bytes = fs.readFileSync(file);
    const { headerBytes } = await readBackupHeader(file);
    const record = 5 + BACKUP_CHUNK_SIZE + 16;
    const h = headerBytes.length;
    const swapped = Buffer.concat([
      bytes.subarray(0, h),
      bytes.subarray(h + record, h + 2 * record),
      bytes.subarray(h, h + record),
      bytes.subarray(h + 2 * record),
    ]);
    fs.writeFileSync(file, swapped);
    expect((await failure(read(file))).reason).toBe('damaged');
    fs.writeFileSync(file, Buffer.concat([bytes, Buffer.from('extra')]));
    expect((await failure(read(file))).reason).toBe('damaged');
  });

  it('refuses a header asking for a weak key derivation unless the floor allows it', async () => {
    const file = await write(payload);
    const error = await failure(openBackup(file, PASS));
    expect(error.reason).toBe('weak-kdf');
  });
});
