/**
 * Benchmark: behavioural analytics' live ingest (issue 16).
 *
 *   npx tsc -b agent && npx tsx scripts/bench/analytics-ingest.ts [--rate 2000] [--seconds 30] [--entities 500]
 *
 * Starts the HA simulator with that many on/off entities and the real, compiled agent connected to
 * it, waits for the first backfill, then pushes state changes at the given rate (every one a real
 * change of the state string, so every one is stored). Reads the agent's CPU time from
 * /proc/<pid>/stat, first idle (10 s, HA quiet) for the baseline, then under load, and counts the
 * events the store took from GET /api/analytics/status.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { startAgent } from '../../tests/support/agent.js';
import { signUp } from '../../tests/support/auth.js';
import { Client } from '../../tests/support/http.js';
import { startHomeAssistantSim } from '../../tests/fixtures/home-assistant-sim.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '30' },
    entities: { type: 'string', default: '500' },
  },
});
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const ENTITIES = Number(values.entities);
const IDLE_SECONDS = 10;
const CLOCK_TICKS_PER_SECOND = 100; // `getconf CLK_TCK` on Linux

function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const sim = await startHomeAssistantSim();
  const ids = Array.from({ length: ENTITIES }, (_, i) => `input_boolean.bench_${i}`);
  for (const id of ids) sim.setState(id, 'off', { friendly_name: id });
  const agent = await startAgent({ env: { HA_URL: sim.url, HA_TOKEN: sim.token, LOG_LEVEL: 'warn' } });
  const pid = agent.process.pid!;
  process.stderr.write(
    `agent ${agent.url} (pid ${pid}), simulator ${sim.url} with ${sim.entityCount} entities\n`,
  );
  const owner = new Client(agent.url);
  await signUp(owner, { name: 'Bench' });
  const status = async () => (await owner.get('/api/analytics/status')).json;
  for (let i = 0; ; i++) {
    const s = await status();
    if (s.live && s.lastBackfill && s.backfill === null) break;
    if (i > 600) throw new Error(`no backfill: ${JSON.stringify(s)}`);
    await sleep(100);
  }

  await sleep(2_000);
  const idleStart = cpuSeconds(pid);
  const idleWall = performance.now();
  await sleep(IDLE_SECONDS * 1000);
  const idleCpu = (cpuSeconds(pid) - idleStart) / ((performance.now() - idleWall) / 1000);

  const eventsBefore = (await status()).events as number;
  const current = new Map(ids.map((id) => [id, 'off']));
  let sent = 0;
  const loadStart = cpuSeconds(pid);
  const loadWall = performance.now();
  const deadline = loadWall + SECONDS * 1000;
  while (performance.now() < deadline) {
    const due = Math.floor(((performance.now() - loadWall) / 1000) * RATE);
    while (sent < due) {
      const id = ids[sent % ids.length]!;
      const next = current.get(id) === 'on' ? 'off' : 'on';
      current.set(id, next);
      sim.setState(id, next);
      sent++;
    }
    await sleep(5);
  }
  const loadSeconds = (performance.now() - loadWall) / 1000;
  const loadCpu = (cpuSeconds(pid) - loadStart) / loadSeconds;
  // The last batch is written within the flush interval (1 s).
  let stored = 0;
  for (let i = 0; i < 100; i++) {
    stored = ((await status()).events as number) - eventsBefore;
    if (stored >= sent) break;
    await sleep(100);
  }
  const s = await status();

  const result = {
    entities: ENTITIES,
    seconds: SECONDS,
    changesSentPerSecond: Math.round(sent / loadSeconds),
    changesSent: sent,
    eventsStored: stored,
    eventsStoredPerSecond: Math.round(stored / loadSeconds),
    agentCpuIdlePercent: +(idleCpu * 100).toFixed(2),
    agentCpuUnderLoadPercent: +(loadCpu * 100).toFixed(2),
    agentCpuForIngestPercent: +((loadCpu - idleCpu) * 100).toFixed(2),
    agentRssMiB: +rssMiB(pid).toFixed(1),
    storeBytes: s.bytes,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);

  await agent.stop();
  await sim.stop();
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
