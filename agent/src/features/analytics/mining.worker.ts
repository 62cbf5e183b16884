import Database from 'better-sqlite3';
import { parentPort } from 'node:worker_threads';
import type { EventLog } from './event-log.js';
import { loadEventLog } from './event-store.js';
import { mine } from './mining/index.js';

/**
 * Mines in a worker thread (issue 16): reading a year of a home's changes takes about a second and
 * mining them a few more, which on the main thread would stall every request. The worker reads the
 * store with its own read-only connection (WAL lets it read beside the agent's writes), or takes a
 * log handed over (its typed arrays transferred, not copied).
 */
export interface MiningRequest {
  /** The database file to read, or the log itself. */
  source: { dbFile: string; since: number } | { log: EventLog };
  now: number;
  timeZone: string;
  /** Friendly names by entity id (from HA's entity cache). */
  names: [string, string][];
}

function readLog(source: MiningRequest['source']): EventLog {
  if ('log' in source) return source.log;
  const db = new Database(source.dbFile, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return loadEventLog(db, { since: source.since });
  } finally {
    db.close();
  }
}

parentPort?.once('message', (request: MiningRequest) => {
  try {
    const log = readLog(request.source);
    const names = new Map(request.names);
    const result = mine(log, {
      now: request.now,
      timeZone: request.timeZone,
      nameOf: (id) => names.get(id) ?? id,
    });
    parentPort!.postMessage({ ok: true, result, events: log.length });
  } catch (error) {
    parentPort!.postMessage({ ok: false, message: (error as Error).message ?? String(error) });
  }
});
