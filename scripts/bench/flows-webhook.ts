/**
 * Benchmark: FlowForge webhook runs at a sustained 100 per second, every run recorded (issue #9's
 * target: 100 webhook runs per second sustained with runs recorded).
 *
 *   npx tsc -b agent && npx tsx scripts/bench/flows-webhook.ts [--rate 100] [--seconds 30] [--connections 10]
 *
 * Starts the real compiled agent (fresh data directory, LOG_LEVEL info as shipped), registers an
 * account and creates an active webhook flow of two stages: a condition over the posted text and a
 * notification (a database row and a live event for the owner). autocannon then posts
 * {"text": …} to the production webhook URL at a fixed --rate for --seconds, twice:
 *   1. answered at once (202, the run continues in the background), as webhooks are normally called;
 *   2. with ?wait=true, so each answer comes when its run has been recorded as finished.
 * After each phase the script waits for every run to finish and reads the runs table: how many runs
 * were started (autoincrement ids; older runs are pruned past the per-flow retention) and the
 * statuses of those kept. Overhead per run: the agent's CPU time per run (/proc/<pid>/stat) and the
 * runs' own recorded durations.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { startAgent } from '../../tests/support/agent.js';
import { signUp } from '../../tests/support/auth.js';
import { Client } from '../../tests/support/http.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '30' },
    connections: { type: 'string', default: '10' },
  },
});
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const CLOCK_TICKS = 100;

function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after "pid (comm) ".
  return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1000;
}

function rssMiB(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round(kb / 102.4) / 10;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const agent = await startAgent({ env: { NODE_ENV: 'production' } });
const pid = agent.process.pid!;
const owner = new Client(agent.url);
await signUp(owner, { name: 'Bench Owner' });
const created = await owner.post('/api/flows', {
  name: 'Webhook bench',
  trigger: { type: 'webhook' },
  stages: [
    {
      id: 'check',
      name: 'Has text?',
      kind: 'condition',
      config: { value: '{{trigger.text}}', operator: 'not_empty' },
    },
    {
      id: 'tell',
      name: 'Notify',
      kind: 'notify',
      config: { title: 'Webhook {{trigger.n}}', body: '{{trigger.text}}' },
    },
  ],
});
if (created.status !== 201) throw new Error(`creating the flow failed: ${created.status} ${created.text}`);
const flowId: number = created.json.id;
await owner.put(`/api/flows/${flowId}/status`, { status: 'active' });
const hookUrl = `${agent.url}${created.json.webhook.productionPath as string}`;
const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });

async function settle(): Promise<void> {
  const running = db.prepare("select count(*) as n from flow_runs where status = 'running'");
  for (;;) {
    if ((running.get() as { n: number }).n === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function phase(name: string, wait: boolean) {
  const firstId = (db.prepare('select coalesce(max(id), 0) as id from flow_runs').get() as { id: number }).id;
  const cpuBefore = cpuMs(pid);
  const startedAt = Date.now();
  let n = 0;
  const result = await autocannon({
    url: wait ? `${hookUrl}?wait=true` : hookUrl,
    method: 'POST',
    connections: CONNECTIONS,
    overallRate: RATE,
    duration: SECONDS,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ n: ++n, text: `Sensor report ${n}: the garage door opened.` }),
        }),
      },
    ],
  });
  await settle();
  const elapsed = (Date.now() - startedAt) / 1000;
  const cpu = cpuMs(pid) - cpuBefore;
  const rows = db
    .prepare('select id, status, duration_ms as ms from flow_runs where id > ? order by id')
    .all(firstId) as { id: number; status: string; ms: number | null }[];
  const lastId = rows.at(-1)?.id ?? firstId;
  const started = lastId - firstId;
  const durations = rows.map((r) => r.ms ?? 0).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const r of rows) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const ok = result['2xx'];
  return {
    phase: name,
    requests: result.requests.total,
    answered2xx: ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    achievedRunsPerSecond: Math.round((ok / SECONDS) * 10) / 10,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    runsStarted: started,
    runsKept: rows.length,
    keptStatuses: statuses,
    runDurationMs: { p50: percentile(durations, 50), p99: percentile(durations, 99) },
    agentCpuMsPerRun: Math.round((cpu / Math.max(1, started)) * 100) / 100,
    agentCpuPercentOfOneCore: Math.round((cpu / (elapsed * 1000)) * 1000) / 10,
    rssMiB: rssMiB(pid),
  };
}

const results = [];
results.push(await phase(`${RATE}/s, answered at once (202)`, false));
results.push(await phase(`${RATE}/s, answered when recorded (?wait=true)`, true));
db.close();
await agent.stop();
process.stdout.write(
  `${JSON.stringify({ rate: RATE, seconds: SECONDS, connections: CONNECTIONS, results }, null, 2)}\n`,
);
