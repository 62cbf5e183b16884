import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import type * as Tar from 'tar';
import { z } from 'zod';
import { lazyRequire } from '../../lib/lazy-require.js';
import { BackupFileError, type BackupHeader } from './backup-format.js';

/** tar (and its gzip and file-system code) loads with the first backup or restore, not at start. */
const tar = lazyRequire<typeof Tar>('tar');

/**
 * The payload of a backup: a gzip'd tar of the data directory as it was, with nexus.db made by
 * SQLite's online backup (consistent while the hub writes), and manifest.json listing every file
 * with its size and SHA-256. A restore unpacks it into a staging folder and checks all of it.
 */

export const DB_FILE = 'nexus.db';
export const MANIFEST_FILE = 'manifest.json';
/** Where restores are staged and the replaced data waits for confirmation. */
export const RESTORE_DIR = '.restore';
/** Where a backup being made keeps its database snapshot. */
export const WORK_DIR = '.backup-work';
export const DEFAULT_BACKUPS_DIR = 'backups';

/** Top-level entries of the data directory that are never part of a backup. */
export const EXCLUDED_TOP_LEVEL = new Set([
  DB_FILE,
  `${DB_FILE}-wal`,
  `${DB_FILE}-shm`,
  `${DB_FILE}-journal`,
  RESTORE_DIR,
  WORK_DIR,
  DEFAULT_BACKUPS_DIR,
]);

export const manifestSchema = z.object({
  schemaLevel: z.number().int().nonnegative(),
  appVersion: z.string(),
  files: z.array(z.object({ path: z.string(), size: z.number().int().nonnegative(), sha256: z.string() })),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** How many drizzle migrations a database has applied: its schema level. */
export function schemaLevel(sqlite: Database.Database): number {
  const row = sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get();
  if (!row) return 0;
  return (sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n;
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** Every regular file under `root` (relative, '/'-separated), skipping `skip(relativePath)`. */
export function listFiles(root: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (skip(rel)) continue;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), rel);
      else if (entry.isFile()) out.push(rel);
    }
  };
  walk(root, '');
  return out.sort();
}

/** What goes into a backup, and the bytes it needs at most (before compression). */
export interface Snapshot {
  /** The work folder (inside the data directory) to remove when done. */
  workDir: string;
  /** Paths relative to the data directory as tar reads them, and their names in the archive. */
  entries: { source: string; name: string }[];
  manifest: Manifest;
  bytes: number;
}

/**
 * Takes the database snapshot (sqlite.backup, then journal_mode DELETE so the copy is one
 * self-contained file) and hashes every file that goes in. `extraExcluded` are further top-level
 * names (the configured backup folder when it lies inside the data directory).
 */
export async function takeSnapshot(
  sqlite: Database.Database,
  dataDir: string,
  meta: { appVersion: string },
  extraExcluded: ReadonlySet<string> = new Set(),
): Promise<Snapshot> {
  const workName = `${WORK_DIR}/${Date.now()}-${randomBytes(4).toString('hex')}`;
  const workDir = path.join(dataDir, workName);
  fs.mkdirSync(workDir, { recursive: true, mode: 0o700 });
  try {
    const dbCopy = path.join(workDir, DB_FILE);
    await sqlite.backup(dbCopy);
    const copy = new Database(dbCopy);
    let level: number;
    try {
      copy.pragma('journal_mode = DELETE');
      level = schemaLevel(copy);
    } finally {
      copy.close();
    }
    fs.chmodSync(dbCopy, 0o600);
    // Only top-level names are excluded; nothing below them is visited.
    const files = listFiles(
      dataDir,
      (rel) => !rel.includes('/') && (EXCLUDED_TOP_LEVEL.has(rel) || extraExcluded.has(rel)),
    );
    const entries = [
      { source: `${workName}/${DB_FILE}`, name: DB_FILE },
      ...files.map((f) => ({ source: f, name: f })),
    ];
    const manifest: Manifest = { schemaLevel: level, appVersion: meta.appVersion, files: [] };
    let bytes = 0;
    for (const entry of entries) {
      const file = path.join(dataDir, entry.source);
      const size = fs.statSync(file).size;
      bytes += size;
      manifest.files.push({ path: entry.name, size, sha256: await sha256(file) });
    }
    fs.writeFileSync(path.join(workDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2), { mode: 0o600 });
    entries.push({ source: `${workName}/${MANIFEST_FILE}`, name: MANIFEST_FILE });
    return { workDir, entries, manifest, bytes };
  } catch (error) {
    fs.rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
}

/** The gzip'd tar of a snapshot, as a stream. Entries keep their modes (0600 files). */
export function packSnapshot(dataDir: string, snapshot: Snapshot) {
  const names = new Map(snapshot.entries.map((e) => [e.source, e.name]));
  return tar().c(
    {
      cwd: dataDir,
      gzip: true,
      portable: true,
      // The database snapshot and manifest live in the work folder; in the archive they sit at the top.
      onWriteEntry: (entry) => {
        const name = names.get(entry.path);
        if (name !== undefined) entry.path = name;
      },
    },
    snapshot.entries.map((e) => e.source),
  );
}

/** What a checked backup holds, ready to be moved into place. */
export interface StagedBackup {
  dir: string;
  header: BackupHeader;
  manifest: Manifest;
}

/**
 * Unpacks a payload into `dir` (which must not exist) and checks everything: the tar, that only
 * regular files and folders are in it, the manifest's sizes and checksums (nothing missing, nothing
 * extra), SQLite's integrity_check of nexus.db, and its schema level against this agent's. Throws a
 * BackupFileError saying what is wrong; `dir` is removed on failure.
 */
export async function unpackAndCheck(
  payload: () => NodeJS.ReadableStream,
  dir: string,
  header: BackupHeader,
  current: { schemaLevel: number; appVersion: string },
): Promise<StagedBackup> {
  fs.mkdirSync(dir, { recursive: false, mode: 0o700 });
  try {
    if (header.schemaLevel > current.schemaLevel) throw newer(header.appVersion);
    const unpack = tar().x({
      cwd: dir,
      strict: true,
      // Only files and folders: a link inside a backup could point anywhere on the hub.
      filter: (_p, entry) => {
        const type = (entry as { type?: string }).type;
        return type === 'File' || type === 'OldFile' || type === 'Directory';
      },
    });
    try {
      await pipeline(payload(), unpack);
    } catch (error) {
      if (error instanceof BackupFileError) throw error;
      throw new BackupFileError('damaged', 'The backup file is damaged: its archive cannot be unpacked');
    }
    const manifestPath = path.join(dir, MANIFEST_FILE);
    let manifest: Manifest;
    try {
      manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(manifestPath, 'utf8')));
    } catch {
      throw new BackupFileError('damaged', 'The backup has no readable manifest.json');
    }
    const found = new Set(listFiles(dir).filter((f) => f !== MANIFEST_FILE));
    for (const entry of manifest.files) {
      const file = path.join(dir, entry.path);
      if (
        !found.delete(entry.path) ||
        fs.statSync(file).size !== entry.size ||
        (await sha256(file)) !== entry.sha256
      ) {
        throw new BackupFileError(
          'damaged',
          `The backup is damaged: ${entry.path} does not match its checksum`,
        );
      }
    }
    if (found.size > 0)
      throw new BackupFileError(
        'damaged',
        `The backup holds files its manifest does not list (${[...found][0]})`,
      );
    if (!manifest.files.some((f) => f.path === DB_FILE))
      throw new BackupFileError('damaged', 'The backup holds no database');
    fs.rmSync(manifestPath);
    const db = path.join(dir, DB_FILE);
    let level: number;
    try {
      const sqlite = new Database(db, { readonly: true, fileMustExist: true });
      try {
        const result = sqlite.pragma('integrity_check') as { integrity_check: string }[];
        if (result.length !== 1 || result[0]!.integrity_check !== 'ok') throw new Error('integrity');
        level = schemaLevel(sqlite);
      } finally {
        sqlite.close();
      }
    } catch {
      throw new BackupFileError('damaged', "The backup's database fails SQLite's integrity check");
    }
    if (level > current.schemaLevel) throw newer(manifest.appVersion);
    restrictTree(dir);
    return { dir, header, manifest };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function newer(version: string): BackupFileError {
  return new BackupFileError(
    'unsupported-version',
    `This backup was made by version ${version}, newer than this hub; update this hub first, then restore it`,
  );
}

/** Files 0600, folders 0700, whatever the archive or the umask said. */
export function restrictTree(dir: string): void {
  fs.chmodSync(dir, 0o700);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) restrictTree(full);
    else fs.chmodSync(full, 0o600);
  }
}
