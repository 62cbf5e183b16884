/**
 * Benchmark: mining a year of a 50-device home, about a million state changes (issue 16).
 *
 *   npx tsx scripts/bench/analytics.ts [--weeks 52] [--entities 50] [--seed 16]
 *
 * A child process generates the history with the test's household generator (seeded) and writes the
 * EventLog's columns to a temporary file; this process loads those typed arrays, as the analytics
 * service hands them to its mining worker, and runs each miner in turn, timing each phase, then
 * `mine()` end to end. Prints events, ms per phase, total seconds and peak RSS (the process's
 * maximum resident set, which includes the loaded log).
 *
 * Targets (the issue): one million events mined in under 10 s, RSS under 300 MB.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { eventLogFrom, type EventLog } from '../../agent/src/features/analytics/event-log.js';
import { mineAnomalies } from '../../agent/src/features/analytics/mining/anomalies.js';
import { mine } from '../../agent/src/features/analytics/mining/index.js';
import { minePredictions } from '../../agent/src/features/analytics/mining/predictions.js';
import { prepare } from '../../agent/src/features/analytics/mining/prepared.js';
import { mineRoutines } from '../../agent/src/features/analytics/mining/routines.js';
import { mineSequences } from '../../agent/src/features/analytics/mining/sequences.js';
import { buildSuggestions } from '../../agent/src/features/analytics/mining/suggestions.js';
import { generateHousehold } from '../../tests/fixtures/household-generator.js';

const { values } = parseArgs({
  options: {
    weeks: { type: 'string', default: '52' },
    entities: { type: 'string', default: '50' },
    seed: { type: 'string', default: '16' },
    'generate-to': { type: 'string' },
  },
});

/** Busy enough for ~1M changes a year from 50 entities: motion sensors, lamps toggled, readings. */
const BUSY = { missingDays: 5, noiseTogglesPerDay: 44, motionPerDay: 90, sensorIntervalMinutes: 4 };
const TIME_ZONE = 'Europe/Berlin';

function writeLog(file: string, log: EventLog, meta: { now: number }): void {
  const header = Buffer.from(
    JSON.stringify({ entityIds: log.entityIds, states: log.states, length: log.length, ...meta }),
  );
  const size = Buffer.alloc(4);
  size.writeUInt32LE(header.length);
  const fd = fs.openSync(file, 'w');
  for (const part of [size, header, log.entity, log.state, log.at]) {
    fs.writeSync(
      fd,
      part instanceof Buffer ? part : new Uint8Array(part.buffer, part.byteOffset, part.byteLength),
    );
  }
  fs.closeSync(fd);
}

function readLog(file: string): { log: EventLog; now: number } {
  const bytes = fs.readFileSync(file);
  const headerLength = bytes.readUInt32LE(0);
  const header = JSON.parse(bytes.subarray(4, 4 + headerLength).toString()) as {
    entityIds: string[];
    states: string[];
    length: number;
    now: number;
  };
  const n = header.length;
  let offset = 4 + headerLength;
  const column = <T>(make: (buffer: ArrayBuffer) => T, width: number): T => {
    const copy = new ArrayBuffer(n * width);
    new Uint8Array(copy).set(bytes.subarray(offset, offset + n * width));
    offset += n * width;
    return make(copy);
  };
  const entity = column((b) => new Int32Array(b), 4);
  const state = column((b) => new Int32Array(b), 4);
  const at = column((b) => new Float64Array(b), 8);
  return {
    log: { entityIds: header.entityIds, states: header.states, length: n, entity, state, at },
    now: header.now,
  };
}

if (values['generate-to']) {
  const household = generateHousehold({
    ...BUSY,
    weeks: Number(values.weeks),
    entities: Number(values.entities),
    seed: Number(values.seed),
    timeZone: TIME_ZONE,
    start: '2024-06-03',
  });
  // "Now": mid-evening of the last day, so anomalies and predictions have work to do.
  writeLog(values['generate-to'], eventLogFrom(household.changes), { now: household.end - 4 * 3_600_000 });
  process.exit(0);
}

const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-analytics-bench-')), 'log.bin');
const started = performance.now();
const child = spawnSync(
  process.execPath,
  [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2), '--generate-to', file],
  { stdio: 'inherit' },
);
if (child.status !== 0) throw new Error(`generating the household failed (${child.status})`);
const generateSeconds = (performance.now() - started) / 1000;
const { log, now } = readLog(file);
fs.rmSync(path.dirname(file), { recursive: true, force: true });
const rssLoaded = process.memoryUsage().rss;

const options = { now, timeZone: TIME_ZONE };
const phases: [string, number][] = [];
function phase<T>(name: string, run: () => T): T {
  const t = performance.now();
  const result = run();
  phases.push([name, performance.now() - t]);
  return result;
}
const p = phase('prepare (local times, transitions)', () => prepare(log, options));
const routines = phase('routines', () => mineRoutines(p));
const sequences = phase('sequences', () => mineSequences(p));
const anomalies = phase('anomalies', () => mineAnomalies(p, routines));
const predictions = phase('predictions', () => minePredictions(p, routines, sequences));
const suggestions = phase('suggestions', () => buildSuggestions(routines, sequences));
const phaseTotal = phases.reduce((sum, [, ms]) => sum + ms, 0);

const t = performance.now();
const result = mine(log, options);
const endToEnd = performance.now() - t;
const peakRss = process.resourceUsage().maxRSS * 1024;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const lines = [
  `events            ${log.length.toLocaleString('en')} (${log.entityIds.length} entities, ${result.days} days)`,
  `generated in      ${generateSeconds.toFixed(1)} s (child process, not counted)`,
  ...phases.map(([name, ms]) => `  ${name.padEnd(36)} ${ms.toFixed(0).padStart(6)} ms`),
  `phases total      ${(phaseTotal / 1000).toFixed(2)} s`,
  `mine() end to end ${(endToEnd / 1000).toFixed(2)} s`,
  `found             ${routines.length} routines, ${sequences.length} sequences, ${anomalies.length} anomalies, ${predictions.length} predictions, ${suggestions.length} suggestions`,
  `RSS               ${mb(rssLoaded)} with the log loaded, peak ${mb(peakRss)}`,
  `targets           ${endToEnd < 10_000 ? 'PASS' : 'FAIL'} < 10 s, ${peakRss < 300 * 1024 * 1024 ? 'PASS' : 'FAIL'} < 300 MB`,
];
process.stdout.write(`${lines.join('\n')}\n`);
