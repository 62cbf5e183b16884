import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_BACKUPS_DIR, RESTORE_DIR, WORK_DIR } from './backup-archive.js';

/**
 * A restore replaces the data directory in steps that survive a crash at any point: each step is
 * a set of renames within one file system, and a marker file (`.restore/state.json`, replaced
 * atomically) says which step is next. Running the same step twice is harmless, so main.ts calls
 * applyPendingRestore on every start, before the database opens.
 *
 *   staged      the checked backup waits in .restore/incoming          (written by the restore route)
 *   moving-out  the current data moves to .restore/previous
 *   moving-in   .restore/incoming's entries move into the data directory
 *   applied     done; the old data waits in .restore/previous until confirmed or reverted
 *   reverting   (revert route) the restored data moves to .restore/discarded,
 *   reverting-in  .restore/previous's entries move back, then .restore is cleared
 *   confirming  (confirm route) .restore/previous is deleted, then the marker
 */

export const restoreStateSchema = z.object({
  state: z.enum(['staged', 'moving-out', 'moving-in', 'applied', 'reverting', 'reverting-in', 'confirming']),
  backupCreatedAt: z.string(),
  hubName: z.string(),
  /** When the restored data took the place of the old one. */
  restoredAt: z.string().nullable(),
});
export type RestoreState = z.infer<typeof restoreStateSchema>;

const MARKER = 'state.json';
/**
 * What the last start carried out (a restore, a revert), for the security log: the database that
 * would record it at the time is the one being replaced, so the agent records it after the start.
 */
const EVENT = 'event.json';
export const restoreEventSchema = z.object({
  type: z.enum(['backup_restored', 'restore_reverted']),
  backupCreatedAt: z.string(),
  hubName: z.string(),
});
export type RestoreEvent = z.infer<typeof restoreEventSchema>;

function writeEvent(dataDir: string, event: RestoreEvent): void {
  fs.writeFileSync(path.join(restoreDir(dataDir), EVENT), JSON.stringify(event), { mode: 0o600 });
}

/** The event the last start left for the security log, removed as it is read. */
export function takeRestoreEvent(dataDir: string): RestoreEvent | null {
  const file = path.join(restoreDir(dataDir), EVENT);
  try {
    const event = restoreEventSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    fs.rmSync(file, { force: true });
    return event;
  } catch {
    fs.rmSync(file, { force: true });
    return null;
  }
}
export const INCOMING = 'incoming';
export const PREVIOUS = 'previous';
const DISCARDED = 'discarded';

/** Top-level entries that are not the hub's data: they stay where they are through a restore. */
const STAYS = new Set([RESTORE_DIR, DEFAULT_BACKUPS_DIR, WORK_DIR]);

export function restoreDir(dataDir: string): string {
  return path.join(dataDir, RESTORE_DIR);
}

export function readRestoreState(dataDir: string): RestoreState | null {
  try {
    return restoreStateSchema.parse(
      JSON.parse(fs.readFileSync(path.join(restoreDir(dataDir), MARKER), 'utf8')),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(
      `${path.join(restoreDir(dataDir), MARKER)} is not readable: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Replaces the marker atomically (write, fsync, rename, fsync the folder). */
export function writeRestoreState(dataDir: string, state: RestoreState): void {
  const dir = restoreDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `${MARKER}.tmp`);
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    fs.writeSync(fd, JSON.stringify(state));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, path.join(dir, MARKER));
  fsyncDir(dir);
}

function clearRestoreState(dataDir: string): void {
  fs.rmSync(path.join(restoreDir(dataDir), MARKER), { force: true });
  fsyncDir(restoreDir(dataDir));
}

/** Moves every top-level entry of `from` (except those that stay) into `to`; entries already moved are gone from `from`. */
function moveEntries(from: string, to: string, skip: ReadonlySet<string>): void {
  fs.mkdirSync(to, { recursive: true, mode: 0o700 });
  for (const name of fs.readdirSync(from)) {
    if (skip.has(name)) continue;
    fs.renameSync(path.join(from, name), path.join(to, name));
  }
  fsyncDir(from);
  fsyncDir(to);
}

/**
 * Carries a pending restore (or revert, or confirmation) to its end. Returns what happened, for
 * the start's log line, or null when nothing was pending.
 */
export function applyPendingRestore(dataDir: string, now: () => Date = () => new Date()): string | null {
  let state = readRestoreState(dataDir);
  if (!state) return null;
  const dir = restoreDir(dataDir);
  let result: string | null = null;
  for (;;) {
    switch (state.state) {
      case 'staged':
        state = { ...state, state: 'moving-out' };
        writeRestoreState(dataDir, state);
        break;
      case 'moving-out':
        moveEntries(dataDir, path.join(dir, PREVIOUS), STAYS);
        state = { ...state, state: 'moving-in' };
        writeRestoreState(dataDir, state);
        break;
      case 'moving-in': {
        const incoming = path.join(dir, INCOMING);
        if (fs.existsSync(incoming)) {
          moveEntries(incoming, dataDir, new Set());
          fs.rmdirSync(incoming);
        }
        state = { ...state, state: 'applied', restoredAt: now().toISOString() };
        writeEvent(dataDir, {
          type: 'backup_restored',
          backupCreatedAt: state.backupCreatedAt,
          hubName: state.hubName,
        });
        writeRestoreState(dataDir, state);
        result = `restored the backup of ${state.hubName} made ${state.backupCreatedAt}; the replaced data is kept until the restore is confirmed`;
        break;
      }
      case 'applied':
        return result;
      case 'reverting':
        moveEntries(dataDir, path.join(dir, DISCARDED), STAYS);
        state = { ...state, state: 'reverting-in' };
        writeRestoreState(dataDir, state);
        break;
      case 'reverting-in': {
        const previous = path.join(dir, PREVIOUS);
        if (fs.existsSync(previous)) {
          moveEntries(previous, dataDir, new Set());
          fs.rmdirSync(previous);
        }
        fs.rmSync(path.join(dir, DISCARDED), { recursive: true, force: true });
        writeEvent(dataDir, {
          type: 'restore_reverted',
          backupCreatedAt: state.backupCreatedAt,
          hubName: state.hubName,
        });
        clearRestoreState(dataDir);
        return 'reverted the restore: the data from before it is back';
      }
      case 'confirming':
        fs.rmSync(path.join(dir, PREVIOUS), { recursive: true, force: true });
        clearRestoreState(dataDir);
        return result ?? 'finished confirming the restore';
    }
  }
}

/** Confirms an applied restore: the replaced data is deleted for good. */
export function confirmRestore(dataDir: string): void {
  const state = readRestoreState(dataDir);
  if (!state || state.state !== 'applied') throw new Error('no restore to confirm');
  writeRestoreState(dataDir, { ...state, state: 'confirming' });
  applyPendingRestore(dataDir);
}

/** Marks an applied restore for reverting; the revert itself happens at the next start. */
export function markRevert(dataDir: string): void {
  const state = readRestoreState(dataDir);
  if (!state || state.state !== 'applied') throw new Error('no restore to revert');
  writeRestoreState(dataDir, { ...state, state: 'reverting' });
}

/** Removes half-finished uploads and stagings a crash left behind (never incoming or previous). */
export function cleanRestoreLeftovers(dataDir: string): void {
  const dir = restoreDir(dataDir);
  const state = readRestoreState(dataDir);
  if (!fs.existsSync(dir)) return;
  for (const name of fs.readdirSync(dir)) {
    if (name.startsWith('upload-') || name.startsWith('staging-')) {
      fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    }
    // A staged restore whose marker never got written.
    if (name === INCOMING && !state) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
  fs.rmSync(path.join(dataDir, WORK_DIR), { recursive: true, force: true });
}
