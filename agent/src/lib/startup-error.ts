import { storageCode } from './storage-errors.js';

/**
 * A reason the agent cannot start that the owner can act on (a data directory it cannot write, a
 * missing secret.key). main.ts prints its message alone and exits; a stack trace would only bury it.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/**
 * The owner's one-line reason for a failed start, or null for an error that is a bug (whose stack
 * trace is then worth printing). Storage failures name the data directory and what is wrong with it.
 */
export function describeStartupFailure(error: unknown, dataDir: string): string | null {
  if (error instanceof StartupError) return error.message;
  const code = storageCode(error);
  if (code === undefined) return null;
  const reason = `${error instanceof Error ? error.message : String(error)} (${code})`;
  if (code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_SHMSIZE' || code === 'ENOSPC' || code === 'EDQUOT')
    return `NEXUS_DATA_DIR ${dataDir} is full: ${reason}. Free space on its disk and start the agent again`;
  if (code === 'EROFS' || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN'))
    return `NEXUS_DATA_DIR ${dataDir} is not writable: ${reason}`;
  return `The database in NEXUS_DATA_DIR ${dataDir} cannot be used: ${reason}`;
}
