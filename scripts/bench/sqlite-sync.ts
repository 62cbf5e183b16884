/**
 * Benchmark: SQLite write throughput in WAL mode with synchronous = NORMAL versus FULL, on the disk
 * that holds the data directory (the choice made in agent/src/db/client.ts).
 *
 *   npx tsx scripts/bench/sqlite-sync.ts [--dir /var/lib/nexus] [--writes 2000] [--rounds 3]
 *
 * Each round opens a fresh database per setting (better-sqlite3, the agent's driver, journal_mode =
 * WAL) and commits --writes single-row transactions, one after another, the way the agent commits one
 * request's change: a row of a JSON-ish payload in a table with an index. Prints the commits per
 * second and the mean commit time of each setting (medians over the rounds), and their ratio.
 *
 * NORMAL syncs the WAL only at checkpoints, so a power cut may drop the last commits (an application
 * crash, `kill -9`, does not: the WAL is in the OS's page cache). FULL syncs the WAL at every commit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: os.tmpdir() },
    writes: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
  },
});
const WRITES = Number(values.writes);
const ROUNDS = Number(values.rounds);

type Sync = 'NORMAL' | 'FULL';

function round(sync: Sync): number {
  const dir = fs.mkdtempSync(path.join(values.dir!, 'nexus-sync-bench-'));
  try {
    const db = new Database(path.join(dir, 'bench.db'));
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${sync}`);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value TEXT NOT NULL, at INTEGER)');
    db.exec('CREATE INDEX t_name ON t (name)');
    const insert = db.prepare('INSERT INTO t (name, value, at) VALUES (?, ?, ?)');
    const payload = JSON.stringify({
      stages: Array.from({ length: 4 }, (_, i) => ({ id: `s${i}`, kind: 'notify' })),
    });
    const started = process.hrtime.bigint();
    for (let i = 0; i < WRITES; i += 1) insert.run(`row ${i}`, payload, Date.now());
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    db.close();
    return WRITES / seconds;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const results: Record<Sync, number[]> = { NORMAL: [], FULL: [] };
for (let r = 0; r < ROUNDS; r += 1) {
  // Alternating, so that whatever else the machine does weighs on both alike.
  for (const sync of ['NORMAL', 'FULL'] as const) results[sync].push(round(sync));
}
const fsType = (() => {
  try {
    const mounts = fs
      .readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' '));
    const dir = fs.realpathSync(values.dir!);
    const best = mounts
      .filter((m) => m[1] && dir.startsWith(m[1]))
      .sort((a, b) => b[1]!.length - a[1]!.length)[0];
    return best ? `${best[2]} on ${best[0]} (${best[1]})` : 'unknown';
  } catch {
    return 'unknown';
  }
})();
say(`directory ${values.dir}: ${fsType}; ${WRITES} single-row commits per round, ${ROUNDS} rounds`);
for (const sync of ['NORMAL', 'FULL'] as const) {
  const rate = median(results[sync]);
  say(
    `synchronous = ${sync.padEnd(6)} ${rate.toFixed(0).padStart(7)} commits/s  ${(1000 / rate).toFixed(3)} ms/commit  (rounds: ${results[sync].map((x) => x.toFixed(0)).join(', ')})`,
  );
}
say(`FULL / NORMAL: ${(median(results.FULL) / median(results.NORMAL)).toFixed(2)}`);
