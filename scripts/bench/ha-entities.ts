/**
 * Benchmark: the Home Assistant entity cache under a large home.
 *
 *   npx tsc -b agent && npx tsx scripts/bench/ha-entities.ts [--entities 5000] [--rate 50] [--clients 10] [--seconds 30]
 *
 * Starts the HA simulator with that many entities and the real, compiled agent connected to it,
 * opens that many browser WebSockets subscribed to `ha.entities`, pushes state changes at the
 * given rate, and reads the agent's CPU time from /proc/<pid>/stat: first idle (same length, no
 * changes) for the baseline, then under load. Also measures how late the changes reach the
 * browsers and how long the full entity list takes.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { startAgent } from '../../tests/support/agent.js';
import { signUp } from '../../tests/support/auth.js';
import { Client } from '../../tests/support/http.js';
import { HomeAssistantSim, startHomeAssistantSim } from '../../tests/fixtures/home-assistant-sim.js';

const { values } = parseArgs({
  options: {
    entities: { type: 'string', default: '5000' },
    rate: { type: 'string', default: '50' },
    clients: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '30' },
  },
});
const ENTITIES = Number(values.entities);
const RATE = Number(values.rate);
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
const CLOCK_TICKS_PER_SECOND = 100; // `getconf CLK_TCK` on Linux

function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / CLOCK_TICKS_PER_SECOND;
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

async function main() {
  const seeded = new HomeAssistantSim().entityCount;
  const sim = await startHomeAssistantSim({ extraEntities: Math.max(0, ENTITIES - seeded) });
  const agent = await startAgent({ env: { HA_URL: sim.url, HA_TOKEN: sim.token } });
  const pid = agent.process.pid!;
  process.stderr.write(
    `agent ${agent.url} (pid ${pid}), simulator ${sim.url} with ${sim.entityCount} entities\n`,
  );
  const owner = new Client(agent.url);
  await signUp(owner, { name: 'Bench' });

  for (let i = 0; ; i++) {
    const status = (await owner.get('/api/ha/status')).json;
    if (status.state === 'connected' && status.counts.states === sim.entityCount) break;
    if (i > 600) throw new Error(`agent did not connect: ${JSON.stringify(status)}`);
    await sleep(100);
  }

  const listStarted = performance.now();
  const list = await owner.get('/api/ha/entities');
  const listMs = performance.now() - listStarted;

  const cookie = `nexus_session=${owner.cookie('nexus_session')}`;
  const latencies: number[] = [];
  let messages = 0;
  let entityUpdates = 0;
  const sockets: WebSocket[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const socket = new WebSocket(`${agent.url.replace('http', 'ws')}/api/live`, { headers: { cookie } });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString());
      if (message.type !== 'event' || message.data.type !== 'changed') return;
      messages++;
      const received = Date.now();
      for (const entity of message.data.entities) {
        entityUpdates++;
        const sentAt = entity.attributes.bench_sent_at;
        if (typeof sentAt === 'number') latencies.push(received - sentAt);
      }
    });
    socket.send(JSON.stringify({ type: 'subscribe', topic: 'ha.entities' }));
    sockets.push(socket);
  }

  const generated = sim.entityIds().filter((id) => id.startsWith('sensor.sim_'));
  const targets = generated.length ? generated : sim.entityIds();

  // Idle baseline: the agent's own background work (metrics sampling, pings) with HA quiet.
  await sleep(2_000);
  const idleStart = cpuSeconds(pid);
  const idleWall = performance.now();
  await sleep(SECONDS * 1000);
  const idleCpu = (cpuSeconds(pid) - idleStart) / ((performance.now() - idleWall) / 1000);

  // Load: RATE changes per second, spread evenly, each stamped with its send time.
  let sent = 0;
  const loadStart = cpuSeconds(pid);
  const loadWall = performance.now();
  const deadline = loadWall + SECONDS * 1000;
  while (performance.now() < deadline) {
    const due = Math.floor(((performance.now() - loadWall) / 1000) * RATE);
    while (sent < due) {
      const id = targets[sent % targets.length]!;
      const current = sim.getState(id)!;
      sim.setState(id, (15 + Math.random() * 10).toFixed(1), {
        ...current.attributes,
        bench_sent_at: Date.now(),
      });
      sent++;
    }
    await sleep(5);
  }
  const loadSeconds = (performance.now() - loadWall) / 1000;
  const loadCpu = (cpuSeconds(pid) - loadStart) / loadSeconds;
  await sleep(1_000);

  latencies.sort((a, b) => a - b);
  const result = {
    entities: sim.entityCount,
    changesPerSecond: Math.round((sent / loadSeconds) * 10) / 10,
    browsers: CLIENTS,
    seconds: SECONDS,
    agentCpuIdlePercent: +(idleCpu * 100).toFixed(2),
    agentCpuUnderLoadPercent: +(loadCpu * 100).toFixed(2),
    agentCpuForHaPercent: +((loadCpu - idleCpu) * 100).toFixed(2),
    agentRssMiB: +rssMiB(pid).toFixed(1),
    liveMessagesPerBrowserPerSecond: +(messages / CLIENTS / loadSeconds).toFixed(1),
    entityUpdatesDelivered: entityUpdates,
    entityUpdatesExpected: sent * CLIENTS,
    latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), max: latencies.at(-1) },
    entityListMs: +listMs.toFixed(1),
    entityListBytes: list.text.length,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);

  for (const s of sockets) s.close();
  await agent.stop();
  await sim.stop();
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
