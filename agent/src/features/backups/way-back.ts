import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BACKUP_FILE_EXTENSION } from '../../contract/backups.js';
import { DamagedDatabaseError, DB_FILE } from '../../db/client.js';
import { storageCode } from '../../lib/storage-errors.js';
import { DEFAULT_BACKUPS_DIR } from './backup-archive.js';

/** Whether a failed start is a damaged database (quick_check, or SQLite finding it while opening). */
export function isDamagedDatabase(error: unknown): boolean {
  if (error instanceof DamagedDatabaseError) return true;
  const code = storageCode(error);
  return code !== undefined && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/** The backup folder the schedule names, read from the damaged database if it still can be. */
function configuredFolder(dataDir: string): string | null {
  try {
    const sqlite = new Database(path.join(dataDir, DB_FILE), { readonly: true, fileMustExist: true });
    try {
      const row = sqlite.prepare("SELECT value FROM settings WHERE key = 'backups.schedule'").get() as
        { value: string } | undefined;
      const directory = row ? (JSON.parse(row.value) as { directory?: unknown }).directory : null;
      return typeof directory === 'string' ? directory : null;
    } finally {
      sqlite.close();
    }
  } catch {
    return null;
  }
}

/** The newest `.nexusbackup` in the folders (by modification time), or null. */
export function newestBackup(folders: string[]): { file: string; at: Date } | null {
  let best: { file: string; at: Date } | null = null;
  for (const dir of folders) {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.endsWith(BACKUP_FILE_EXTENSION) || name.startsWith('.')) continue;
      const file = path.join(dir, name);
      try {
        const at = fs.statSync(file).mtime;
        if (!best || at > best.at) best = { file, at };
      } catch {
        // gone or unreadable
      }
    }
  }
  return best;
}

/**
 * The owner's way back from a damaged nexus.db: the agent never makes a new database over it
 * (that would lose every account and setting without a word); it names the newest backup and the
 * two ways to restore it.
 */
export function damagedDatabaseMessage(dataDir: string, error: unknown): string {
  const file = path.join(dataDir, DB_FILE);
  const what =
    error instanceof DamagedDatabaseError
      ? error.message
      : `${file} is damaged: ${String((error as Error).message ?? error)}`;
  const folders = [path.join(dataDir, DEFAULT_BACKUPS_DIR)];
  const configured = configuredFolder(dataDir);
  if (configured && !folders.includes(configured)) folders.push(configured);
  const newest = newestBackup(folders);
  const moveAside = `move the damaged database aside (mv ${file} ${file}.damaged, and its -wal and -shm files if present)`;
  const found = newest
    ? `The newest backup is ${newest.file} (made ${newest.at.toISOString()}). To restore it: ${moveAside}, start the agent and restore the file from the first-boot wizard (/install, "Restore a backup"); or unpack it by hand with \`npm run cli -- backup:decrypt ${newest.file} <out-dir>\` (the passphrase from NEXUS_BACKUP_PASSPHRASE or standard input) and copy the files from <out-dir> into ${dataDir}.`
    : `No backup was found in ${folders.join(' or ')}. If you have a .nexusbackup elsewhere: ${moveAside}, start the agent and restore it from the first-boot wizard (/install), or unpack it with \`npm run cli -- backup:decrypt <file> <out-dir>\`.`;
  return `${what}. The agent does not create a new database over it, which would lose the hub's accounts and data. ${found}`;
}
