/**
 * Benchmark (issue 19): a storm of Docker events. A stand-in for the Docker Engine (an HTTP server
 * on a unix socket that speaks the Engine API's `GET /events` stream: one JSON event object per
 * line, `Type`/`Action`/`Actor.Attributes` as Docker documents them) emits 1,000 container events
 * per second for 10 s across 50 containers that crash, restart and flap between healthy and
 * unhealthy. The real agent follows it (DOCKER_HOST=unix://…). Reports the notifications made per
 * container and incident (at most one each is the goal: a fault notifies once, however long it
 * lasts) and the agent's CPU over the storm from /proc/<pid>/stat (goal: under 50 % of one core).
 *
 *   npx tsc -b agent && npx tsx scripts/bench/notification-storm.ts
 *   (BENCH_SECONDS=10, BENCH_RATE=1000, BENCH_CONTAINERS=50 by default)
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startAgent } from '../../tests/support/agent.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const CONTAINERS = Number(process.env.BENCH_CONTAINERS ?? 50);
const TICK_MS = 10;
const CLK_TCK = 100;

/** What each container goes through, over and over: a crash loop that also flaps its health. */
const CYCLE: { Action: string; attrs?: Record<string, string> }[] = [
  { Action: 'kill', attrs: { signal: '9' } },
  { Action: 'die', attrs: { exitCode: '137' } },
  { Action: 'start' },
  { Action: 'health_status: unhealthy' },
  { Action: 'die', attrs: { exitCode: '1' } },
  { Action: 'restart' },
  { Action: 'health_status: healthy' },
  { Action: 'exec_start: sh -c true' },
];

const ids = Array.from(
  { length: CONTAINERS },
  (_, i) => `${(i + 1).toString(16).padStart(4, '0')}${'ab'.repeat(30)}`,
);
const nameOf = (i: number) => `storm-${i}`;

function cpuTicks(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

const print = (line: string) => process.stdout.write(`${line}\n`);

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-storm-'));
  const socketPath = path.join(dir, 'docker.sock');
  const streams = new Set<http.ServerResponse>();
  let sent = 0;

  const engine = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://engine');
    const route = url.pathname.replace(/^\/v[\d.]+/, '');
    if (route === '/_ping') return void res.end('OK');
    if (route === '/containers/json') {
      res.setHeader('content-type', 'application/json');
      return void res.end('[]');
    }
    if (route === '/events') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: `no such route in the stand-in: ${route}` }));
  });
  await new Promise<void>((resolve) => engine.listen(socketPath, resolve));

  const dataDir = path.join(dir, 'data');
  fs.mkdirSync(dataDir);
  const agent = await startAgent({
    dataDir,
    env: { DOCKER_HOST: `unix://${socketPath}`, LOG_LEVEL: 'info' },
  });
  const pid = agent.process.pid!;
  const deadline = Date.now() + 15_000;
  while (streams.size === 0) {
    if (Date.now() > deadline) throw new Error('the agent never opened the event stream');
    await new Promise((r) => setTimeout(r, 50));
  }

  const perTick = Math.round((RATE * TICK_MS) / 1000);
  const ticks = Math.round((SECONDS * 1000) / TICK_MS);
  const step = new Array<number>(CONTAINERS).fill(0);
  let cursor = 0;
  const cpuBefore = cpuTicks(pid);
  const started = performance.now();
  for (let t = 0; t < ticks; t++) {
    let chunk = '';
    for (let k = 0; k < perTick; k++) {
      const i = cursor++ % CONTAINERS;
      const { Action, attrs } = CYCLE[step[i]! % CYCLE.length]!;
      step[i]!++;
      const nowNs = BigInt(Date.now()) * 1_000_000n;
      chunk += `${JSON.stringify({
        status: Action,
        id: ids[i],
        from: 'localhost/storm:latest',
        Type: 'container',
        Action,
        Actor: { ID: ids[i], Attributes: { image: 'localhost/storm:latest', name: nameOf(i), ...attrs } },
        scope: 'local',
        time: Number(nowNs / 1_000_000_000n),
        timeNano: Number(nowNs),
      })}\n`;
    }
    for (const s of streams) s.write(chunk);
    sent += perTick;
    // Paced on the wall clock, so a slow tick is made up rather than stretching the storm.
    const due = started + (t + 1) * TICK_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = cpuTicks(pid);
  const cpuPercent = ((cpuAfter - cpuBefore) / CLK_TCK / elapsed) * 100;

  await agent.stop();
  for (const s of streams) s.end();
  await new Promise<void>((resolve) => engine.close(() => resolve()));

  const db = new Database(path.join(dataDir, 'nexus.db'), { readonly: true });
  const rows = db
    .prepare(
      "select incident_key as key, level, count(*) as n from notifications where category = 'containers' group by incident_key, level",
    )
    .all() as { key: string; level: string; n: number }[];
  db.close();
  const opened = rows.filter((r) => r.level !== 'success');
  const worst = Math.max(0, ...opened.map((r) => r.n));
  const kinds = new Map<string, number>();
  for (const r of opened)
    kinds.set(r.key.split(':').at(-1)!, (kinds.get(r.key.split(':').at(-1)!) ?? 0) + r.n);

  print(
    `events sent: ${sent} in ${elapsed.toFixed(1)} s (${Math.round(sent / elapsed)}/s) across ${CONTAINERS} containers`,
  );
  print(
    `notifications (fault): ${opened.reduce((s, r) => s + r.n, 0)}, by kind: ${JSON.stringify(Object.fromEntries(kinds))}`,
  );
  print(`notifications (cleared): ${rows.filter((r) => r.level === 'success').reduce((s, r) => s + r.n, 0)}`);
  print(`most notifications for one container and incident: ${worst} (goal: at most 1)`);
  print(`agent CPU over the storm: ${cpuPercent.toFixed(1)} % of one core (goal: under 50 %)`);
  fs.rmSync(dir, { recursive: true, force: true });
  if (worst > 1 || cpuPercent >= 50) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err instanceof Error ? err.stack : err)}\n`);
  process.exit(1);
});
