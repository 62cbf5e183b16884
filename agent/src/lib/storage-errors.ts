import { HttpError } from './http-error.js';

/**
 * Failures of the hub's own storage (the SQLite database and the files under NEXUS_DATA_DIR),
 * turned into answers that say what happened instead of a 500: the change was not saved, and why.
 */

/**
 * SQLite reports a write that found no space as SQLITE_FULL (os_unix.c maps ENOSPC to it); the
 * shared-memory file of WAL mode grows by writing, and reports the same condition as IOERR_SHMSIZE.
 */
const NO_SPACE = new Set(['SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE', 'ENOSPC', 'EDQUOT']);

/** The SQLite or file-system code of an error, looking through wrappers (drizzle's DrizzleQueryError). */
export function storageCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_') || NO_SPACE.has(code) || code === 'EROFS'))
      return code;
    current = current.cause;
  }
  return undefined;
}

/** The answer for a storage failure, or null when the error is something else. */
export function storageError(error: unknown): HttpError | null {
  const code = storageCode(error);
  if (code === undefined) return null;
  const details = { code };
  if (NO_SPACE.has(code)) {
    return new HttpError(
      507,
      "The hub's disk is full: the change was not saved. Free space on the disk that holds the hub's data directory and try again",
      details,
    );
  }
  if (code === 'EROFS' || code.startsWith('SQLITE_READONLY')) {
    return new HttpError(
      503,
      "The hub's data directory is read-only: the change was not saved. Make it writable for the agent and restart it",
      details,
    );
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return new HttpError(
      503,
      'The hub cannot open its database file: the change was not saved. Check that the data directory exists and the agent may write to it',
      details,
    );
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return new HttpError(
      503,
      'The hub could not read or write its database (a disk error): the change was not saved. Check the disk that holds the data directory',
      details,
    );
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new HttpError(
      503,
      "The hub's database file is damaged: restore nexus.db from the backup of the data directory",
      details,
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new HttpError(
      503,
      "The hub's database is busy (another program is writing to it): the change was not saved; try again",
      details,
      { 'Retry-After': '5' },
    );
  }
  // Constraint violations and the like are the caller's bug, not the disk's: a 500 with a reference.
  return null;
}
