/**
 * Benchmark: the agent idle with one browser connected, and /api/nexus/status under load.
 *
 *   npx tsx scripts/bench/status.ts [--idle-seconds 30] [--seconds 5] [--rounds 3] [--connections 50]
 *                                   [--compare-env 'NODE_OPTIONS='] [--compare-node-args '<flags>']
 *                                   [--compare-entry <other checkout>/agent/dist/bundle/main.js]
 *
 * Builds and starts the real agent as a hub runs it (the systemd unit's node flags, memory settings
 * and bundle: appliance-launch.ts; production settings, LOG_LEVEL info, a fresh data directory),
 * registers an account, then:
 *
 * 1. Idle: one WebSocket subscribed to `metrics` (what an open dashboard tab does) for
 *    --idle-seconds; the agent's CPU time from /proc/<pid>/stat (its own, and that of the child
 *    processes it started and reaped, e.g. `df`) and its resident memory from /proc/<pid>/status.
 * 2. Load: autocannon with --connections connections against a bare node:http server (its own
 *    process) answering the very bytes /api/nexus/status answered, and against the agent's
 *    /api/nexus/status with the session cookie both ways it can be routed: as a hot read (the
 *    plain path, answered before Hono, http/hot-reads.ts) and through Hono (the same path with a
 *    query string, which hot reads leave to Hono), alternating in --rounds rounds of --seconds each
 *    on the same machine in the same run. Every request carries a browser's Accept-Encoding, so
 *    response compression is in the measurement. Reports the medians and the ratios to bare. Two
 *    bare servers: the plain one sends the body with Content-Type and Content-Length only, the
 *    other also the route's own headers, i.e. exactly the agent's bytes — "a bare node:http server
 *    answering the same bytes" of the issue, so the targets are checked against it; every row
 *    shows both ratios (the load client parses each header in JavaScript on the same cores, so the
 *    route's headers alone cost the plain server's rate 0–15 %).
 *    With --compare-env, a second agent launched with those variables changed (e.g.
 *    'NODE_OPTIONS=' to drop the V8 flags npm start sets) is measured in the same rounds; with
 *    --compare-node-args, one launched with those node flags instead of the unit's ('' for none);
 *    with --compare-entry, one running another build's bundle (a worktree of the code before a
 *    change, built with `npm run build -w agent`), so a change is measured side by side.
 *
 * Targets (issue 26): idle under 1 % of one core and under 100 MB RSS; the signed-in status read
 * at least 0.9x the bare server's requests per second, p99 at most 1.3x the bare server's, no errors.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { applianceLaunch, nodeFlags, type ApplianceLaunch } from './appliance-launch.js';
import autocannon from 'autocannon';
import WebSocket from 'ws';

const { values } = parseArgs({
  options: {
    'idle-seconds': { type: 'string', default: '30' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    // A second agent, launched as the systemd unit launches it but with these variables changed,
    // measured in the same rounds: e.g. --compare-env 'NODE_OPTIONS=' (no V8 flags). Words of KEY=VALUE.
    'compare-env': { type: 'string' },
    'compare-node-args': { type: 'string' },
    // A second agent from another build's bundle (e.g. a worktree of main before a change, built),
    // launched the same way: code measured side by side, not against yesterday's figures.
    'compare-entry': { type: 'string' },
  },
});
const IDLE_SECONDS = Number(values['idle-seconds']);
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const COMPARE_ENV: Record<string, string> | null =
  values['compare-env'] === undefined ? null : parseEnvWords(values['compare-env']);
const COMPARE_NODE_ARGS: string[] | null =
  values['compare-node-args'] === undefined ? null : nodeFlags(values['compare-node-args']);
const COMPARE_ENTRY = values['compare-entry'] === undefined ? null : path.resolve(values['compare-entry']);
const COMPARING = COMPARE_ENV !== null || COMPARE_NODE_ARGS !== null || COMPARE_ENTRY !== null;
const CLOCK_TICKS_PER_SECOND = 100; // `getconf CLK_TCK` on Linux
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function cpuTicks(pid: number): { self: number; children: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start after the last ')'.
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return { self: f[11]! + f[12]!, children: f[13]! + f[14]! };
}

/** 1 MiB = 1.048576 MB. */
const MIB_IN_MB = 1.048576;

function memory(pid: number): { rssMiB: number; peakMiB: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await sleep(50);
    }
  }
  throw new Error(`${url} did not come up`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * The bare reference: node:http answering fixed bytes, nothing else. Given a JSON list of header
 * pairs (argv[3]), it sends those too: the status route's own headers (its security headers), so
 * the second reference answers exactly the agent's bytes and shows what those headers cost both
 * the server and the load client (which parses every header in JavaScript, on the same machine).
 */
const BARE_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const body = fs.readFileSync(process.argv[1]);
const extra = process.argv[3] ? JSON.parse(process.argv[3]) : [];
const headers = [...extra, 'content-type', 'application/json', 'content-length', String(body.length)];
http.createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1');
`;

interface Round {
  rps: number;
  p99: number;
  p50: number;
  errors: number;
  non2xx: number;
  timeouts: number;
  /** The server process's CPU time (user + system, all its threads) per request answered, in µs. */
  cpuUs: number;
}

/** What Chromium sends: compression, where the agent applies it, is part of what is measured. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/**
 * A round against `url`, served by process `pid`. Besides the rate and latencies, the server's CPU
 * time per request: on a shared machine the rate follows whatever else runs, the CPU a request
 * costs much less so.
 */
async function cannon(
  url: string,
  pid: number,
  headers: Record<string, string>,
  seconds: number,
): Promise<Round> {
  headers = { 'accept-encoding': BROWSER_ACCEPT_ENCODING, ...headers };
  const before = cpuTicks(pid).self;
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  const ticks = cpuTicks(pid).self - before;
  return {
    cpuUs: ((ticks / CLOCK_TICKS_PER_SECOND) * 1e6) / Math.max(1, result.requests.total),
    rps: result.requests.average,
    p99: result.latency.p99,
    p50: result.latency.p50,
    errors: result.errors,
    non2xx: result.non2xx,
    timeouts: result.timeouts,
  };
}

/** `KEY=VALUE` words (as in a shell command's prefix) until the first word that is not one. */
function parseEnvWords(words: string | string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const word of typeof words === 'string' ? words.split(/\s+/).filter(Boolean) : words) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
    if (!match) break;
    env[match[1]!] = match[2]!;
  }
  return env;
}

interface RunningAgent {
  child: ChildProcess;
  base: string;
  cookie: string;
  dataDir: string;
  logFd: number;
}

/** Starts the built agent on a fresh data directory as `launch` says and registers its first account. */
async function startAgent(launch: ApplianceLaunch, agents: RunningAgent[]): Promise<RunningAgent> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-bench-'));
  const port = await freePort();
  const logFd = fs.openSync(path.join(dataDir, 'agent.log'), 'a');
  // Logs go to a file, as they would go to journald: nothing in this process has to read them.
  const child = spawn(process.execPath, [...launch.nodeArgs, launch.entry], {
    cwd: repoRoot,
    env: {
      ...launch.env,
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      PORT: String(port),
      // HTTPS on a free port: the default (8443) may be taken by another agent.
      HTTPS_PORT: '0',
      HOST: '127.0.0.1',
      NEXUS_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', logFd, logFd],
  });
  const base = `http://127.0.0.1:${port}`;
  const agent: RunningAgent = { child, base, cookie: '', dataDir, logFd };
  agents.push(agent);
  await waitForHttp(`${base}/api/health`, child);
  const reg = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench',
      email: 'bench@example.org',
      password: 'correct horse battery staple',
    }),
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  agent.cookie = reg.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return agent;
}

/** One browser tab's WebSocket subscribed to the 1 s metrics stream; counts the samples received. */
async function subscribeMetrics(agent: RunningAgent): Promise<{ socket: WebSocket; events: () => number }> {
  const socket = new WebSocket(`${agent.base.replace('http', 'ws')}/api/live`, {
    headers: { cookie: agent.cookie },
  });
  let events = 0;
  socket.on('message', (raw) => {
    if (JSON.parse(raw.toString()).type === 'event') events++;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'subscribe', topic: 'metrics' }));
  return { socket, events: () => events };
}

async function main() {
  // The compiled agent and its bundle, which the unit runs (a stale bundle would be measured otherwise).
  execFileSync('npm', ['run', 'build', '-w', 'agent'], { cwd: repoRoot, stdio: 'inherit' });
  const launch = applianceLaunch(repoRoot);
  const agents: RunningAgent[] = [];
  const bareProcess: { child: ChildProcess | null; withHeaders: ChildProcess | null } = {
    child: null,
    withHeaders: null,
  };
  try {
    const main = await startAgent(launch, agents);
    const { base } = main;
    const pid = main.child.pid!;
    const headers = { cookie: main.cookie };

    // 1. Idle with one browser tab: a socket subscribed to the 1 s metrics stream.
    const tab = await subscribeMetrics(main);
    const { socket } = tab;
    // Settle: start-up work (migrations, the first disk read, JIT) is not idle time.
    await sleep(5_000);
    const idleStart = cpuTicks(pid);
    const idleWall = performance.now();
    const eventsBefore = tab.events();
    await sleep(IDLE_SECONDS * 1000);
    const idleEnd = cpuTicks(pid);
    const idleSeconds = (performance.now() - idleWall) / 1000;
    const idleSelf = ((idleEnd.self - idleStart.self) / CLOCK_TICKS_PER_SECOND / idleSeconds) * 100;
    const idleChildren =
      ((idleEnd.children - idleStart.children) / CLOCK_TICKS_PER_SECOND / idleSeconds) * 100;
    const idleMemory = memory(pid);
    const idleEvents = tab.events() - eventsBefore;

    // 2. Load: the same bytes from a bare node:http server, side by side with the agent.
    const sample = await fetch(`${base}/api/nexus/status`, { headers });
    const bytes = Buffer.from(await sample.arrayBuffer());
    if (sample.status !== 200) throw new Error(`status: ${sample.status} ${bytes.toString()}`);
    const bodyFile = path.join(main.dataDir, 'body.json');
    fs.writeFileSync(bodyFile, bytes);
    const barePort = await freePort();
    bareProcess.child = spawn(process.execPath, ['-e', BARE_SERVER, bodyFile, String(barePort)], {
      stdio: 'ignore',
    });
    const bareUrl = `http://127.0.0.1:${barePort}/api/nexus/status`;
    await waitForHttp(bareUrl, bareProcess.child);
    // The same server sending the route's own headers too (all but those node:http writes itself).
    const NODE_WRITES = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
    const routeHeaders = [...sample.headers].filter(([name]) => !NODE_WRITES.has(name)).flat();
    const bareHeadersPort = await freePort();
    bareProcess.withHeaders = spawn(
      process.execPath,
      ['-e', BARE_SERVER, bodyFile, String(bareHeadersPort), JSON.stringify(routeHeaders)],
      { stdio: 'ignore' },
    );
    const bareHeadersUrl = `http://127.0.0.1:${bareHeadersPort}/api/nexus/status`;
    await waitForHttp(bareHeadersUrl, bareProcess.withHeaders);

    const barePid = bareProcess.child.pid!;
    const bareHeadersPid = bareProcess.withHeaders.pid!;
    const agentUrl = `${base}/api/nexus/status`;
    // A query string makes the hot reads hand the request to Hono, which answers the same JSON.
    const honoUrl = `${base}/api/nexus/status?via=hono`;
    const viaHono = await fetch(honoUrl, {
      headers: { ...headers, 'accept-encoding': BROWSER_ACCEPT_ENCODING },
    });
    const honoBytes = Buffer.from(await viaHono.arrayBuffer());
    if (viaHono.status !== 200) throw new Error(`status via Hono: ${viaHono.status} ${honoBytes.toString()}`);
    // The second agent (--compare-env), with its own tab open like the first.
    const compared = COMPARING
      ? await startAgent(
          {
            entry: COMPARE_ENTRY ?? launch.entry,
            env: { ...launch.env, ...COMPARE_ENV },
            nodeArgs: COMPARE_NODE_ARGS ?? launch.nodeArgs,
          },
          agents,
        )
      : null;
    const comparedTab = compared ? await subscribeMetrics(compared) : null;
    const comparedUrl = compared ? `${compared.base}/api/nexus/status` : '';
    const comparedHeaders = { cookie: compared?.cookie ?? '' };
    const comparedHonoUrl = `${comparedUrl}?via=hono`;
    // Warm them all up (JIT, connection pools) before anything counts.
    if (compared) {
      await cannon(comparedUrl, compared.child.pid!, comparedHeaders, 2);
      await cannon(comparedHonoUrl, compared.child.pid!, comparedHeaders, 2);
    }
    await cannon(bareUrl, barePid, {}, 2);
    await cannon(bareHeadersUrl, bareHeadersPid, {}, 2);
    await cannon(agentUrl, pid, headers, 2);
    await cannon(honoUrl, pid, headers, 2);
    const bare: Round[] = [];
    const bareHeaders: Round[] = [];
    const agent: Round[] = [];
    const hono: Round[] = [];
    const comparedRounds: Round[] = [];
    // The compared agent serves the same mix, Hono rounds included: what a process has run before
    // (its heap, its JIT) is part of what a hot read costs.
    const comparedHono: Round[] = [];
    const loadAverageBefore = os.loadavg();
    const loadStart = cpuTicks(pid);
    for (let r = 0; r < ROUNDS; r++) {
      bare.push(await cannon(bareUrl, barePid, {}, SECONDS));
      bareHeaders.push(await cannon(bareHeadersUrl, bareHeadersPid, {}, SECONDS));
      agent.push(await cannon(agentUrl, pid, headers, SECONDS));
      if (compared)
        comparedRounds.push(await cannon(comparedUrl, compared.child.pid!, comparedHeaders, SECONDS));
      hono.push(await cannon(honoUrl, pid, headers, SECONDS));
      if (compared)
        comparedHono.push(await cannon(comparedHonoUrl, compared.child.pid!, comparedHeaders, SECONDS));
    }
    const loadEnd = cpuTicks(pid);
    const loadAverageAfter = os.loadavg();
    const loadMemory = memory(pid);

    const failures = (rounds: Round[]) => rounds.reduce((s, r) => s + r.errors + r.non2xx + r.timeouts, 0);
    const rps = (rounds: Round[]) => median(rounds.map((r) => r.rps));
    const p99 = (rounds: Round[]) => median(rounds.map((r) => r.p99));
    // The reference the targets are checked against is the bare server answering the agent's very
    // bytes (the issue's words): the load client parses every header in JavaScript on the same two
    // cores, so four more headers cost the plain bare server's rate 0–15 % before the agent does
    // anything. The plain server stays in the table, and each row gives both ratios.
    const reference = bareHeaders;
    const agentRps = rps(agent);
    const honoRps = rps(hono);
    const agentP99 = p99(agent);
    const honoP99 = p99(hono);
    const agentFailures = failures(agent) + failures(comparedRounds);
    const honoFailures = failures(hono) + failures(comparedHono);
    const loads = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
    const row = (label: string, rounds: Round[]) =>
      `  ${label.padEnd(22)} ${fmt(rps(rounds)).padStart(7)} req/s   p50 ${rounds.map((r) => r.p50).join('/')} ms   p99 ${fmt(p99(rounds))} ms   CPU ${fmt(median(rounds.map((r) => r.cpuUs)), 1)} µs/req   failures ${failures(rounds)}` +
      (rounds === bare
        ? ''
        : `   → ${fmt(rps(rounds) / rps(bare), 2)}× plain bare (p99 ${fmt(p99(rounds) / p99(bare), 2)}×)` +
          (rounds === reference
            ? ''
            : `, ${fmt(rps(rounds) / rps(reference), 2)}× same-bytes bare (p99 ${fmt(p99(rounds) / p99(reference), 2)}×)`));
    const comparedLabel = [
      ...Object.entries(COMPARE_ENV ?? {}).map(([k, v]) => `${k}=${v}`),
      ...(COMPARE_NODE_ARGS ? [`node flags '${COMPARE_NODE_ARGS.join(' ')}'`] : []),
      ...(COMPARE_ENTRY ? [`the bundle ${COMPARE_ENTRY}`] : []),
    ].join(' ');

    const lines = [
      `Agent launched as the systemd unit launches it: ${Object.entries(launch.env)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')} node ${launch.nodeArgs.join(' ')} ${path.relative(repoRoot, launch.entry)}`,
      ...(compared ? [`Compared agent: the same with ${comparedLabel}`] : []),
      `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, load average before the run ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
      '',
      `Idle, one WebSocket subscribed to metrics, ${fmt(idleSeconds, 1)} s (${idleEvents} samples received):`,
      `  agent CPU            ${fmt(idleSelf, 2)} % of one core (its own), ${fmt(idleChildren, 2)} % in child processes it ran`,
      `  agent RSS            ${fmt(idleMemory.rssMiB, 1)} MiB = ${fmt(idleMemory.rssMiB * MIB_IN_MB, 1)} MB (peak so far ${fmt(idleMemory.peakMiB, 1)} MiB)`,
      '',
      `GET /api/nexus/status signed in, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s, medians`,
      `(body ${bytes.length} bytes as a hot read, ${honoBytes.length} bytes with Content-Encoding ${viaHono.headers.get('content-encoding') ?? 'none'} via Hono; load average ${loads(loadAverageBefore)} before the rounds, ${loads(loadAverageAfter)} after):`,
      row('bare node:http', bare),
      row('bare, route headers', bareHeaders),
      row('agent, hot read', agent),
      ...(compared ? [row('compared agent, hot', comparedRounds)] : []),
      row('agent, through Hono', hono),
      ...(compared ? [row('compared, through Hono', comparedHono)] : []),
      `  targets              ≥ 0.90× same-bytes bare throughput, p99 ≤ 1.30×`,
      `  rounds (req/s)       bare ${bare.map((r) => fmt(r.rps)).join(', ')}; bare, route headers ${bareHeaders.map((r) => fmt(r.rps)).join(', ')}; hot ${agent.map((r) => fmt(r.rps)).join(', ')}${compared ? `; compared ${comparedRounds.map((r) => fmt(r.rps)).join(', ')}` : ''}; Hono ${hono.map((r) => fmt(r.rps)).join(', ')}`,
      `  agent under load     ${fmt(((loadEnd.self - loadStart.self) / CLOCK_TICKS_PER_SECOND / (ROUNDS * SECONDS * (compared ? 6 : 4))) * 100, 0)} % of one core averaged over all rounds; RSS ${fmt(loadMemory.rssMiB, 1)} MiB`,
      ...(compared ? [`  compared under load  RSS ${fmt(memory(compared.child.pid!).rssMiB, 1)} MiB`] : []),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);

    const refRps = rps(reference);
    const refP99 = p99(reference);
    const verdicts = [
      idleSelf + idleChildren < 1 ? 'idle CPU ok' : 'IDLE CPU OVER 1 %',
      // The target is in MB (10^6 bytes); /proc reports KiB.
      idleMemory.rssMiB * MIB_IN_MB < 100 ? 'idle RSS ok' : 'IDLE RSS OVER 100 MB',
      agentRps / refRps >= 0.9 ? 'hot read throughput ok' : 'HOT READ THROUGHPUT UNDER 0.9×',
      agentP99 <= 1.3 * refP99 ? 'hot read p99 ok' : 'HOT READ P99 OVER 1.3×',
      honoRps / refRps >= 0.9 ? 'Hono throughput ok' : 'HONO THROUGHPUT UNDER 0.9×',
      honoP99 <= 1.3 * refP99 ? 'Hono p99 ok' : 'HONO P99 OVER 1.3×',
      agentFailures + honoFailures === 0 ? 'no errors' : 'ERRORS',
    ];
    process.stdout.write(`\n${verdicts.join(' · ')}\n`);
    socket.close();
    comparedTab?.socket.close();
  } finally {
    if (bareProcess.child) await stop(bareProcess.child);
    if (bareProcess.withHeaders) await stop(bareProcess.withHeaders);
    for (const agent of agents) {
      await stop(agent.child);
      fs.closeSync(agent.logFd);
      fs.rmSync(agent.dataDir, { recursive: true, force: true });
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
