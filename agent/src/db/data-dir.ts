import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StartupError } from '../lib/startup-error.js';

/** Directories under the data directory that hold people's recordings: the agent's alone, like it. */
const PRIVATE_DIRS = ['flows', 'flows/clips', 'wake-words'];

/**
 * Makes NEXUS_DATA_DIR exist, belong to the agent alone (0700) and be writable, before anything is
 * stored in it. A data directory the agent cannot write stops the start with a message that names
 * it, rather than a stack trace from deep inside SQLite.
 */
export function prepareDataDir(dataDir: string): void {
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.accessSync(dataDir, fs.constants.W_OK);
  } catch (error) {
    throw notWritable(dataDir, error);
  }
  restrictFile(dataDir, 0o700);
  for (const dir of PRIVATE_DIRS) restrictFile(path.join(dataDir, dir), 0o700);
}

/**
 * Sets a file's or directory's mode if it exists, whatever the umask made of it at creation. A file
 * the agent does not own (EPERM) keeps its mode: the data directory's 0700 still guards it.
 */
export function restrictFile(file: string, mode: number): void {
  try {
    if ((fs.statSync(file).mode & 0o777) !== mode) fs.chmodSync(file, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EPERM') return;
    throw notWritable(path.dirname(file), error);
  }
}

/** The message for a data directory the agent cannot use, e.g. "NEXUS_DATA_DIR /x is not writable by user nexus: …". */
export function notWritable(dataDir: string, error: unknown): StartupError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'EROFS'
      ? 'the file system is read-only'
      : code === 'ENOSPC' || code === 'EDQUOT'
        ? 'the disk is full'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : error instanceof Error
            ? error.message
            : String(error);
  return new StartupError(
    `NEXUS_DATA_DIR ${dataDir} is not writable by user ${userName()}: ${reason}${code ? ` (${code})` : ''}`,
  );
}

function userName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return String(process.getuid?.() ?? 'unknown');
  }
}
