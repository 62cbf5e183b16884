import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import {
  BACKUP_FILE_EXTENSION,
  backupIdSchema,
  backupRunSchema,
  type BackupList,
  type BackupRun,
  type BackupScheduleInput,
  type BackupScheduleView,
  type BackupSummary,
  type CreatedBackup,
  type RestoreAccepted,
} from '../../contract/backups.js';
import type { Db } from '../../db/client.js';
import type { AuditRecorder } from '../audit/index.js';
import type { SettingsRepository } from '../settings/index.js';
import { HttpError, badRequest, conflict, notFound } from '../../lib/http-error.js';
import { inBackground } from '../../lib/background.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import {
  BackupFileError,
  createEncryptStream,
  openBackup,
  readBackupHeader,
  type BackupTrigger,
  type KdfOptions,
} from './backup-format.js';
import {
  DEFAULT_BACKUPS_DIR,
  EXCLUDED_TOP_LEVEL,
  listFiles,
  packSnapshot,
  schemaLevel,
  takeSnapshot,
  unpackAndCheck,
} from './backup-archive.js';
import {
  INCOMING,
  cleanRestoreLeftovers,
  confirmRestore,
  markRevert,
  readRestoreState,
  restoreDir,
  takeRestoreEvent,
  writeRestoreState,
} from './restore-state.js';
import { startDailySchedule } from './backup-schedule.js';
import { listDestinations } from './destinations.js';
import type { RequestOrigin } from '../audit/index.js';

export const SCHEDULE_KEY = 'backups.schedule';
export const LAST_RUN_KEY = 'backups.lastRun';

const storedScheduleSchema = z.object({
  enabled: z.boolean(),
  hour: z.number().int().min(0).max(23),
  keep: z.number().int().min(1).max(365),
  directory: z.string(),
  passphraseSealed: z.string().nullable(),
});
type StoredSchedule = z.infer<typeof storedScheduleSchema>;

export interface BackupsDeps {
  sqlite: Database.Database;
  dataDir: string;
  settings: SettingsRepository;
  secrets: SecretBox;
  log: Logger;
  audit: AuditRecorder;
  hubName: () => string;
  appVersion: string;
  /** scrypt's cost for new backups and the floor for read ones; tests lower both. */
  kdf: KdfOptions;
  /** Ends the process so that its supervisor starts it again (main.ts: graceful close, exit 75). */
  restart?: () => void;
  onShutdown?: (stop: () => void) => void;
  now?: () => number;
}

/** The better-sqlite3 connection under drizzle (its online backup API is not drizzle's). */
export function sqliteOf(db: Db): Database.Database {
  return (db as Db & { $client: Database.Database }).$client;
}

export type BackupRunListener = (run: BackupRun) => void;

/** Bytes kept free beyond a backup's estimated size: the file system needs room of its own. */
const SPACE_MARGIN = 8 * 1024 * 1024;

const pad = (n: number) => String(n).padStart(2, '0');

export function createBackupsService(deps: BackupsDeps) {
  const now = deps.now ?? Date.now;
  const log = deps.log.child({ feature: 'backups' });
  const defaultDirectory = path.join(deps.dataDir, DEFAULT_BACKUPS_DIR);
  const listeners = new Set<BackupRunListener>();
  let running: Promise<CreatedBackup> | null = null;

  cleanRestoreLeftovers(deps.dataDir);
  const finished = takeRestoreEvent(deps.dataDir);
  if (finished) {
    deps.audit.record({
      type: finished.type,
      actor: null,
      ipAddress: null,
      userAgent: null,
      target: `${finished.hubName} ${finished.backupCreatedAt}`,
    });
  }

  function stored(): StoredSchedule {
    return (
      deps.settings.get(SCHEDULE_KEY, storedScheduleSchema) ?? {
        enabled: true,
        hour: 3,
        keep: 7,
        directory: defaultDirectory,
        passphraseSealed: null,
      }
    );
  }

  function scheduleView(): BackupScheduleView {
    const { passphraseSealed, ...rest } = stored();
    return { ...rest, hasPassphrase: passphraseSealed !== null };
  }

  function lastRun(): BackupRun | null {
    return deps.settings.get(LAST_RUN_KEY, backupRunSchema) ?? null;
  }

  function recordRun(run: BackupRun): void {
    try {
      deps.settings.set(LAST_RUN_KEY, run);
    } catch (err) {
      log.error({ err }, 'could not record the last backup run');
    }
    for (const listener of listeners) {
      try {
        listener(run);
      } catch (err) {
        log.error({ err }, 'a backup run listener failed');
      }
    }
  }

  /** The folders backups may be in: the configured one and the default one. */
  function folders(): string[] {
    const configured = stored().directory;
    return configured === defaultDirectory ? [defaultDirectory] : [configured, defaultDirectory];
  }

  function ensureFolder(dir: string): void {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /**
   * Why `dir` cannot hold backups, or null. It must be absolute and outside the data directory (or
   * its own backups folder): a restore moves the data directory aside, and a folder inside it would
   * go with it.
   */
  function directoryProblem(dir: string): string | null {
    if (!path.isAbsolute(dir)) return 'The folder must be an absolute path, such as /media/usb/nexus-backups';
    const normal = path.resolve(dir);
    const data = path.resolve(deps.dataDir);
    if (normal !== defaultDirectory && (normal === data || normal.startsWith(data + path.sep))) {
      return `The folder cannot be inside the hub's data directory (${data}), except ${defaultDirectory}`;
    }
    try {
      ensureFolder(normal);
    } catch (error) {
      return `The folder ${normal} does not exist and cannot be created (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    }
    try {
      if (!fs.statSync(normal).isDirectory()) return `${normal} is not a folder`;
      fs.accessSync(normal, fs.constants.W_OK);
    } catch {
      return `The hub cannot write to ${normal}; give the agent's user write access to it`;
    }
    return null;
  }

  function newId(at: Date): string {
    return `nexus-${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}-${pad(at.getHours())}${pad(
      at.getMinutes(),
    )}-${randomBytes(2).toString('hex')}`;
  }

  function currentSchemaLevel(): number {
    return schemaLevel(deps.sqlite);
  }

  /** Bytes the data a backup would hold takes now: the database and every file that goes in. */
  function estimateBytes(): number {
    let bytes = 0;
    for (const name of ['nexus.db', 'nexus.db-wal']) {
      try {
        bytes += fs.statSync(path.join(deps.dataDir, name)).size;
      } catch {
        // absent: nothing to count
      }
    }
    const extra = extraExcluded();
    for (const rel of listFiles(
      deps.dataDir,
      (r) => !r.includes('/') && (EXCLUDED_TOP_LEVEL.has(r) || extra.has(r)),
    )) {
      try {
        bytes += fs.statSync(path.join(deps.dataDir, rel)).size;
      } catch {
        // gone meanwhile
      }
    }
    return bytes;
  }

  function extraExcluded(): Set<string> {
    const rel = path.relative(deps.dataDir, stored().directory);
    return !rel.startsWith('..') && !path.isAbsolute(rel) && rel !== ''
      ? new Set([rel.split(path.sep)[0]!])
      : new Set();
  }

  function noSpace(dir: string, need: number, free: number): HttpError {
    return new HttpError(
      507,
      `Not enough free space in ${dir} for a backup: it needs about ${mb(need)}, ${mb(free)} is free. Free space there or choose another folder`,
    );
  }

  async function make(trigger: BackupTrigger, passphrase: string): Promise<CreatedBackup> {
    const dir = stored().directory;
    try {
      ensureFolder(dir);
    } catch (error) {
      throw new HttpError(
        503,
        `The backup folder ${dir} cannot be used (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    const need = estimateBytes() + SPACE_MARGIN;
    const stats = fs.statfsSync(dir);
    const free = Number(stats.bavail) * Number(stats.bsize);
    if (free < need) throw noSpace(dir, need, free);
    const at = new Date(now());
    const id = newId(at);
    const target = path.join(dir, `${id}${BACKUP_FILE_EXTENSION}`);
    const tmp = path.join(dir, `.${id}${BACKUP_FILE_EXTENSION}.tmp`);
    const snapshot = await takeSnapshot(
      deps.sqlite,
      deps.dataDir,
      { appVersion: deps.appVersion },
      extraExcluded(),
    );
    try {
      const { stream } = await createEncryptStream(
        {
          createdAt: at.toISOString(),
          trigger,
          hubName: deps.hubName(),
          appVersion: deps.appVersion,
          schemaLevel: snapshot.manifest.schemaLevel,
        },
        passphrase,
        deps.kdf,
      );
      const fd = fs.openSync(tmp, 'wx', 0o600);
      try {
        await pipeline(
          packSnapshot(deps.dataDir, snapshot),
          stream,
          fs.createWriteStream('', { fd, autoClose: false }),
        );
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, target);
      const dirFd = fs.openSync(dir, 'r');
      try {
        fs.fsyncSync(dirFd);
      } finally {
        fs.closeSync(dirFd);
      }
    } catch (error) {
      fs.rmSync(tmp, { force: true });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EDQUOT') throw noSpace(dir, need, 0);
      throw error;
    } finally {
      fs.rmSync(snapshot.workDir, { recursive: true, force: true });
    }
    return { id, createdAt: at.toISOString(), size: fs.statSync(target).size };
  }

  /** One backup at a time; each run is recorded as the last run, success or failure. */
  async function createBackup(input: {
    trigger: BackupTrigger;
    passphrase?: string;
  }): Promise<CreatedBackup> {
    if (running) throw conflict('A backup is being made; wait for it to finish');
    const at = new Date(now()).toISOString();
    const attempt = (async () => {
      const passphrase = input.passphrase ?? storedPassphrase();
      if (passphrase === null) {
        throw badRequest(
          'No passphrase is stored for scheduled backups: set one in the backup schedule on Nexus management',
        );
      }
      return make(input.trigger, passphrase);
    })();
    running = attempt;
    try {
      const created = await attempt;
      recordRun({ at, trigger: input.trigger, ok: true, id: created.id, error: null });
      deps.audit.record({ type: 'backup_created', target: created.id, details: { trigger: input.trigger } });
      log.info({ id: created.id, size: created.size, trigger: input.trigger }, 'backup made');
      return created;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      recordRun({ at, trigger: input.trigger, ok: false, id: null, error: message });
      log.error({ err: error, trigger: input.trigger }, 'backup failed');
      throw error;
    } finally {
      running = null;
    }
  }

  function storedPassphrase(): string | null {
    const sealed = stored().passphraseSealed;
    if (sealed === null) return null;
    try {
      return deps.secrets.open(sealed);
    } catch {
      return null;
    }
  }

  async function summaries(): Promise<BackupSummary[]> {
    const out: BackupSummary[] = [];
    for (const dir of folders()) {
      let names: string[];
      try {
        names = fs.readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        if (!name.endsWith(BACKUP_FILE_EXTENSION)) continue;
        const id = name.slice(0, -BACKUP_FILE_EXTENSION.length);
        if (!backupIdSchema.safeParse(id).success) continue;
        const file = path.join(dir, name);
        try {
          const { header } = await readBackupHeader(file);
          out.push({
            id,
            createdAt: header.createdAt,
            size: fs.statSync(file).size,
            trigger: header.trigger,
            hubName: header.hubName,
            appVersion: header.appVersion,
            directory: dir,
          });
        } catch {
          // Not a backup (or not readable): not listed.
        }
      }
    }
    return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /** The file of a backup by id; the id's pattern keeps it inside the folders. */
  function fileOf(id: string): string {
    if (!backupIdSchema.safeParse(id).success) throw notFound('No such backup');
    for (const dir of folders()) {
      const file = path.join(dir, `${id}${BACKUP_FILE_EXTENSION}`);
      if (fs.existsSync(file)) return file;
    }
    throw notFound('No such backup');
  }

  async function prune(keep: number): Promise<void> {
    const dir = stored().directory;
    const scheduled = (await summaries()).filter((b) => b.trigger === 'scheduled' && b.directory === dir);
    for (const old of scheduled.slice(keep)) {
      fs.rmSync(path.join(dir, `${old.id}${BACKUP_FILE_EXTENSION}`), { force: true });
      log.info({ id: old.id }, 'old scheduled backup deleted (keep limit)');
    }
  }

  async function scheduledRun(): Promise<void> {
    await createBackup({ trigger: 'scheduled' });
    await prune(stored().keep);
  }

  const schedule = startDailySchedule({
    hour: () => (stored().enabled ? stored().hour : null),
    run: () => inBackground(log, 'scheduled backup', scheduledRun),
    now,
  });
  deps.onShutdown?.(() => schedule.stop());

  function pendingRestore(): BackupList['pendingRestore'] {
    const state = readRestoreState(deps.dataDir);
    if (!state || state.state !== 'applied') return null;
    return {
      restoredAt: state.restoredAt ?? '',
      backupCreatedAt: state.backupCreatedAt,
      hubName: state.hubName,
    };
  }

  function restartSoon(): void {
    if (!deps.restart) {
      log.warn('no restart function: the restore is applied at the next start');
      return;
    }
    // After the answer has gone out: main.ts's shutdown lets in-flight responses finish.
    setImmediate(deps.restart);
  }

  return {
    createBackup,
    scheduleView,
    onRun(listener: BackupRunListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    lastRun,
    async list(): Promise<BackupList> {
      return {
        backups: await summaries(),
        schedule: scheduleView(),
        lastRun: lastRun(),
        destinations: listDestinations(),
        pendingRestore: pendingRestore(),
      };
    },
    /** Whether any backup exists or the last run succeeded (the onboarding checklist). */
    async hasBackup(): Promise<boolean> {
      return lastRun()?.ok === true || (await summaries()).length > 0;
    },
    fileOf,
    /** Downloads are reads, which the audit scope leaves out: the route passes who asked. */
    recordDownload(id: string, origin: RequestOrigin): void {
      deps.audit.record({ type: 'backup_downloaded', target: id, ...origin });
    },
    remove(id: string): void {
      fs.rmSync(fileOf(id));
      deps.audit.record({ type: 'backup_deleted', target: id });
    },
    updateSchedule(input: BackupScheduleInput): BackupScheduleView {
      const directory = path.resolve(input.directory);
      const problem = directoryProblem(input.directory);
      if (problem) throw badRequest(problem);
      const current = stored();
      const passphraseSealed =
        input.passphrase !== undefined ? deps.secrets.seal(input.passphrase) : current.passphraseSealed;
      if (input.enabled && passphraseSealed === null) {
        throw badRequest('Enter a passphrase for scheduled backups: a backup cannot be made without one');
      }
      deps.settings.set(SCHEDULE_KEY, {
        enabled: input.enabled,
        hour: input.hour,
        keep: input.keep,
        directory,
        passphraseSealed,
      } satisfies StoredSchedule);
      if (input.passphrase !== undefined) {
        deps.audit.record({ type: 'settings_secret_changed', target: 'backup passphrase' });
      }
      schedule.rearm();
      return scheduleView();
    },
    nextRunAt: () => schedule.nextRunAt(),

    /**
     * Checks an uploaded backup completely and stages it; nothing of the hub's data changes unless
     * every check passes. Then the agent restarts into it (restartSoon, after the answer).
     */
    async stageRestore(
      upload: string,
      passphrase: string,
      by: 'admin' | 'first-boot',
    ): Promise<RestoreAccepted> {
      try {
        if (readRestoreState(deps.dataDir)) {
          throw conflict('A restore is waiting: confirm or revert it before restoring another backup');
        }
        const dir = restoreDir(deps.dataDir);
        let opened;
        try {
          opened = await openBackup(upload, passphrase, deps.kdf);
        } catch (error) {
          if (error instanceof BackupFileError) throw badRequest(error.message, { reason: error.reason });
          throw error;
        }
        const staging = path.join(dir, `staging-${randomBytes(6).toString('hex')}`);
        let staged;
        try {
          staged = await unpackAndCheck(opened.payload, staging, opened.header, {
            schemaLevel: currentSchemaLevel(),
            appVersion: deps.appVersion,
          });
        } catch (error) {
          if (error instanceof BackupFileError) throw badRequest(error.message, { reason: error.reason });
          throw error;
        }
        if (!fs.existsSync(path.join(staged.dir, 'secret.key'))) {
          fs.rmSync(staged.dir, { recursive: true, force: true });
          throw badRequest('The backup holds no secret.key: its stored secrets could not be read', {
            reason: 'damaged',
          });
        }
        const incoming = path.join(dir, INCOMING);
        fs.rmSync(incoming, { recursive: true, force: true });
        fs.renameSync(staged.dir, incoming);
        writeRestoreState(deps.dataDir, {
          state: 'staged',
          backupCreatedAt: opened.header.createdAt,
          hubName: opened.header.hubName,
          restoredAt: null,
        });
        // The security log records the restore after the restart, in the restored database.
        log.warn(
          { by, hubName: opened.header.hubName, createdAt: opened.header.createdAt },
          'restore staged; restarting',
        );
        restartSoon();
        return { restarting: true, backupCreatedAt: opened.header.createdAt, hubName: opened.header.hubName };
      } finally {
        fs.rmSync(upload, { force: true });
      }
    },
    /** Where uploads are written while they arrive: inside the data directory, removed after. */
    uploadPath(): string {
      const dir = restoreDir(deps.dataDir);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      return path.join(dir, `upload-${randomBytes(6).toString('hex')}${BACKUP_FILE_EXTENSION}`);
    },
    confirmRestore(): void {
      if (!pendingRestore()) throw conflict('No restore is waiting for confirmation');
      confirmRestore(deps.dataDir);
      deps.audit.record({ type: 'restore_confirmed' });
    },
    revertRestore(): { restarting: true } {
      if (!pendingRestore()) throw conflict('No restore is waiting for confirmation');
      markRevert(deps.dataDir);
      restartSoon();
      return { restarting: true };
    },
  };
}

function mb(bytes: number): string {
  return `${Math.ceil(bytes / (1024 * 1024))} MB`;
}

export type BackupsService = ReturnType<typeof createBackupsService>;
