import { once } from 'node:events';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type busboy from 'busboy';
import { Hono, type Context } from 'hono';
import {
  BACKUP_FILE_EXTENSION,
  MAX_BACKUP_PASSPHRASE_LENGTH,
  MAX_BACKUP_UPLOAD_BYTES,
  backupParamSchema,
  backupScheduleInputSchema,
  createBackupInputSchema,
  type RestoreAccepted,
} from '../../contract/backups.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireRecentAuth } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import { HttpError, badRequest } from '../../lib/http-error.js';
import type { BackupsService } from './backups.service.js';
import { requestOrigin } from '../audit/index.js';
import { lazyRequire } from '../../lib/lazy-require.js';

/** busboy parses the one kind of upload this feature takes (a backup to restore): loaded then. */
const multipart = lazyRequire<typeof busboy>('busboy');

/** Mounted at /api/backups: admins only; restoring and the stored passphrase also need a recent sign-in. */
export function backupsRoutes(service: BackupsService, opts: { trustProxy: boolean; now?: () => number }) {
  const recentAuth = requireRecentAuth(opts.now);
  return new Hono<AppEnv>()
    .get('/', requireAdmin, async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await service.list());
    })
    .post('/', requireAdmin, validate('json', createBackupInputSchema), async (c) =>
      c.json(
        await service.createBackup({ trigger: 'manual', passphrase: c.req.valid('json').passphrase }),
        201,
      ),
    )
    .get('/schedule', requireAdmin, (c) => c.json(service.scheduleView()))
    .put('/schedule', requireAdmin, validate('json', backupScheduleInputSchema), async (c) => {
      const input = c.req.valid('json');
      // Only a change of the stored passphrase needs a fresh proof of who is asking; the guard
      // throws its 401 when the proof is stale.
      if (input.passphrase !== undefined) await recentAuth(c as never, async () => {});
      return c.json(service.updateSchedule(input));
    })
    .post('/restore', requireAdmin, recentAuth, async (c) =>
      c.json(await receiveRestore(c, service, 'admin'), 202),
    )
    .post('/restore/confirm', requireAdmin, (c) => {
      service.confirmRestore();
      return c.json({ confirmed: true as const });
    })
    .post('/restore/revert', requireAdmin, recentAuth, (c) => c.json(service.revertRestore(), 202))
    .get('/:id/download', requireAdmin, validate('param', backupParamSchema), (c) => {
      const { id } = c.req.valid('param');
      const file = service.fileOf(id);
      const size = fs.statSync(file).size;
      // A read: outside the audit scope (audit-scope.ts), so it says who asked itself.
      service.recordDownload(id, requestOrigin(c, opts.trustProxy));
      return c.body(Readable.toWeb(fs.createReadStream(file)) as ReadableStream, 200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(size),
        'Content-Disposition': `attachment; filename="${id}${BACKUP_FILE_EXTENSION}"`,
        'Cache-Control': 'no-store',
      });
    })
    .delete('/:id', requireAdmin, validate('param', backupParamSchema), (c) => {
      service.remove(c.req.valid('param').id);
      return c.body(null, 204);
    });
}

/**
 * Streams a multipart upload (`file`, `passphrase`) to a file in the data directory with busboy
 * (Hono's parseBody would hold all of it in memory), at most MAX_BACKUP_UPLOAD_BYTES, then has the
 * service check and stage it.
 */
export async function receiveRestore(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- only the request is read, under any guard's env
  c: Context<any>,
  service: BackupsService,
  by: 'admin' | 'first-boot',
): Promise<RestoreAccepted> {
  const type = c.req.header('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw badRequest('Send the backup as multipart/form-data with the fields file and passphrase');
  }
  const body = c.req.raw.body;
  if (!body) throw badRequest('Send the backup file in the field file');
  const upload = service.uploadPath();
  let passphrase: string | null = null;
  let gotFile = false;
  let tooLarge = false;
  let file: fs.WriteStream | null = null;
  try {
    let parser: busboy.Busboy;
    try {
      parser = multipart()({
        headers: { 'content-type': type },
        limits: {
          files: 1,
          fields: 4,
          fileSize: MAX_BACKUP_UPLOAD_BYTES,
          fieldSize: MAX_BACKUP_PASSPHRASE_LENGTH * 4,
        },
      });
    } catch {
      throw badRequest('The multipart body is malformed');
    }
    const writes: Promise<void>[] = [];
    parser.on('field', (name, value) => {
      if (name === 'passphrase') passphrase = value;
    });
    parser.on('file', (name, stream) => {
      if (name !== 'file' || gotFile) {
        stream.resume();
        return;
      }
      gotFile = true;
      stream.on('limit', () => {
        tooLarge = true;
      });
      file = fs.createWriteStream(upload, { mode: 0o600 });
      writes.push(pipeline(stream, file));
    });
    let failure: unknown = null;
    try {
      await pipeline(Readable.fromWeb(body as WebReadableStream), parser);
    } catch (error) {
      failure = error;
    }
    // Always wait for the file's write: a malformed body fails the parser first and then the file
    // stream, and a write left unawaited would reject with nobody listening (the fuzz found it).
    const written = await Promise.allSettled(writes);
    failure ??= written.find((r) => r.status === 'rejected')?.reason ?? null;
    if (failure !== null) {
      const error = failure;
      if (error instanceof HttpError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EDQUOT') {
        throw new HttpError(
          507,
          "The hub's disk is too full to receive this backup: free space and try again",
        );
      }
      throw badRequest('The upload was cut short or its multipart body is malformed');
    }
    if (tooLarge) {
      throw new HttpError(413, `The backup is larger than ${MAX_BACKUP_UPLOAD_BYTES / 1024 ** 3} GB`);
    }
    if (!gotFile) throw badRequest('Send the backup file in the field file');
    const given = passphrase as string | null;
    if (!given) throw badRequest('Enter the passphrase the backup was made with');
    if (given.length > MAX_BACKUP_PASSPHRASE_LENGTH) throw badRequest('The passphrase is too long');
    return await service.stageRestore(upload, given, by);
  } finally {
    // A write stream destroyed by a cut upload may still be opening its file: wait until it has
    // closed, or the file would appear again after it was removed.
    const open = file as fs.WriteStream | null;
    if (open && !open.closed) await once(open, 'close').catch(() => undefined);
    fs.rmSync(upload, { force: true });
  }
}
