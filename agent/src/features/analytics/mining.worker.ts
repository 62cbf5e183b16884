import { parentPort } from 'node:worker_threads';
import type { EventLog } from './event-log.js';
import { mine } from './mining/index.js';

/**
 * Mines in a worker thread (issue 16): a year of a home's changes takes seconds of CPU, which on
 * the main thread would stall every request. The typed arrays arrive transferred, not copied.
 */
export interface MiningRequest {
  log: EventLog;
  now: number;
  timeZone: string;
  names: [string, string][];
}

parentPort?.once('message', (request: MiningRequest) => {
  try {
    const names = new Map(request.names);
    const result = mine(request.log, {
      now: request.now,
      timeZone: request.timeZone,
      nameOf: (id) => names.get(id) ?? id,
    });
    parentPort!.postMessage({ ok: true, result });
  } catch (error) {
    parentPort!.postMessage({ ok: false, message: (error as Error).message ?? String(error) });
  }
});
