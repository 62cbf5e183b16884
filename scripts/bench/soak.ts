/**
 * Soak: the agent under everything at once for a long time; memory and open handles must stay flat
 * and nothing may fail.
 *
 *   npx tsx scripts/bench/soak.ts [--minutes 30] [--clients 3] [--sample-seconds 5]
 *
 * Builds and starts the real agent (production settings, a fresh data directory) with the Home
 * Assistant and Ollama simulators, and Podman's Docker API when scripts/podman-service.sh can start
 * it (a busybox container writing a line every 0.2 s). For --minutes, at once:
 * - dashboards: --clients browsers, each polling the dashboard's endpoints at the spec's intervals
 *   (POLL_INTERVALS_MS) and the Docker and Home Assistant screens' at theirs;
 * - live streams: each browser's WebSocket subscribed to `metrics` and to the container's log follow;
 * - flow runs: an API-triggered flow run every 2 s;
 * - an LLM chat every 10 s (read to its end).
 * Every --sample-seconds the agent's RSS (/proc/<pid>/status VmRSS) and open handles
 * (/proc/<pid>/fd) are sampled. At the end: the least-squares slope of each per hour (over the run
 * after a one-minute warm-up, or all of it when shorter), the requests and errors (the run fails
 * with any error) and the latency percentiles.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { POLL_INTERVALS_MS } from '../../agent/src/contract/status.js';
import { startHomeAssistantSim } from '../../tests/fixtures/home-assistant-sim.js';
import { startOllamaApiSim } from '../../tests/fixtures/ollama-api-sim.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    clients: { type: 'string', default: '3' },
    'sample-seconds': { type: 'string', default: '5' },
  },
});
const MINUTES = Number(values.minutes);
const CLIENTS = Number(values.clients);
const SAMPLE_MS = Number(values['sample-seconds']) * 1000;
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const say = (line: string) => process.stdout.write(`${line}\n`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The dashboard's endpoints and the other screens' status reads, at their refresh intervals. */
const POLLS: [string, number][] = [
  ['/api/nexus/status', POLL_INTERVALS_MS.nexusStatus],
  ['/api/devices/satellite', POLL_INTERVALS_MS.satellites],
  ['/api/llm/pipeline/status', POLL_INTERVALS_MS.llmPipelineStatus],
  ['/api/vpn/status', POLL_INTERVALS_MS.vpnStatus],
  ['/api/system/uptime', POLL_INTERVALS_MS.systemUptime],
  ['/api/ha-patterns/health', POLL_INTERVALS_MS.haHealth],
  ['/api/subscription/status', 60_000],
  ['/api/health', 10_000],
  ['/api/ha/status', 10_000],
  ['/api/notifications', 30_000],
];
const DOCKER_POLLS: [string, number][] = [
  ['/api/docker/containers', 5_000],
  ['/api/docker/engine', 15_000],
];

const latencies: number[] = [];
let requests = 0;
const errors: string[] = [];
const fail = (what: string) => {
  errors.push(what);
  if (errors.length <= 10) say(`error: ${what}`);
};

function dockerHost(): string | null {
  try {
    return execFileSync('bash', [path.join(repoRoot, 'scripts/podman-service.sh')], {
      encoding: 'utf8',
    }).trim();
  } catch {
    return null;
  }
}

function slopePerHour(points: { t: number; v: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const mv = points.reduce((s, p) => s + p.v, 0) / n;
  const num = points.reduce((s, p) => s + (p.t - mt) * (p.v - mv), 0);
  const den = points.reduce((s, p) => s + (p.t - mt) ** 2, 0);
  return den === 0 ? 0 : (num / den) * 3_600_000;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

async function main() {
  execFileSync('npx', ['tsc', '-b', 'agent'], { cwd: repoRoot, stdio: 'inherit' });
  const ha = await startHomeAssistantSim();
  const ollama = await startOllamaApiSim({
    models: [{ name: 'llama3.2:3b', size: 2_019_393_189, loaded: true, contextLength: 131_072 }],
  });
  const docker = dockerHost();
  const container = `nx-soak-${process.pid}`;
  if (docker) {
    execFileSync('podman', [
      'run',
      '-d',
      '--name',
      container,
      '--stop-timeout',
      '1',
      'localhost/busybox:test',
      'sh',
      '-c',
      'i=0; while true; do echo "soak $i"; i=$((i+1)); sleep 0.2; done',
    ]);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-soak-'));
  const port = await freePort();
  const logFd = fs.openSync(path.join(dataDir, 'agent.log'), 'a');
  const agent = spawn(process.execPath, [path.join(repoRoot, 'agent/dist/main.js')], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      PORT: String(port),
      // HTTPS on a free port: the default (8443) may be taken by another agent.
      HTTPS_PORT: '0',
      HOST: '127.0.0.1',
      NEXUS_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      HA_URL: ha.url,
      HA_TOKEN: ha.token,
      OLLAMA_URL: ollama.url,
      ...(docker ? { DOCKER_HOST: docker } : {}),
      // e.g. SOAK_AGENT_NODE_OPTIONS=--max-old-space-size=64: a leak then ends the agent (errors),
      // while a heap that only grows towards its steady size stays up.
      ...(process.env.SOAK_AGENT_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SOAK_AGENT_NODE_OPTIONS } : {}),
    },
    stdio: ['ignore', logFd, logFd],
  });
  const base = `http://127.0.0.1:${port}`;
  let stopping = false;
  const timers: NodeJS.Timeout[] = [];
  const sockets: WebSocket[] = [];
  try {
    for (let i = 0; ; i += 1) {
      if (agent.exitCode !== null) throw new Error(`the agent exited with ${agent.exitCode}`);
      if (
        await fetch(`${base}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 300) throw new Error('the agent did not answer in 30 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const reg = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Soak',
        email: 'soak@example.org',
        password: 'correct horse battery staple',
      }),
    });
    if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
    const cookie = reg.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const headers = { cookie, 'content-type': 'application/json' };

    const call = async (
      method: string,
      url: string,
      body?: unknown,
      read?: (res: Response) => Promise<void>,
    ) => {
      if (stopping) return;
      const started = performance.now();
      requests += 1;
      try {
        const res = await fetch(base + url, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        if (read) await read(res);
        else await res.arrayBuffer();
        latencies.push(performance.now() - started);
        if (!res.ok) fail(`${method} ${url}: ${res.status}`);
      } catch (error) {
        if (!stopping) fail(`${method} ${url}: ${(error as Error).message}`);
      }
    };
    const every = (ms: number, job: () => Promise<void>) => {
      // Browsers do not start in step: each poller begins at a random point of its interval.
      const kick = setTimeout(
        () => {
          void job();
          timers.push(setInterval(() => void job(), ms));
        },
        Math.random() * Math.min(ms, 5_000),
      );
      timers.push(kick);
    };

    const flow = await fetch(`${base}/api/flows`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Soak',
        trigger: { type: 'api' },
        stages: [{ id: 'tell', name: 'Tell', kind: 'notify', config: { title: 'Soak run' } }],
      }),
    });
    if (flow.status !== 201) throw new Error(`flow: ${flow.status} ${await flow.text()}`);
    const flowId = ((await flow.json()) as { id: number }).id;

    for (let c = 0; c < CLIENTS; c += 1) {
      for (const [url, ms] of [...POLLS, ...(docker ? DOCKER_POLLS : [])]) every(ms, () => call('GET', url));
      const socket = new WebSocket(`${base.replace('http', 'ws')}/api/live`, { headers: { cookie } });
      sockets.push(socket);
      socket.on('open', () => {
        socket.send(JSON.stringify({ type: 'subscribe', topic: 'metrics' }));
        if (docker) socket.send(JSON.stringify({ type: 'subscribe', topic: `docker.logs.${container}` }));
      });
      socket.on('message', (raw) => {
        const message = JSON.parse(String(raw)) as { type: string; message?: string };
        if (message.type === 'error') fail(`live: ${message.message}`);
      });
      socket.on('error', (error) => fail(`live socket: ${error.message}`));
      socket.on('close', (code) => {
        if (!stopping) fail(`live socket closed (${code})`);
      });
    }
    every(2_000, () => call('POST', `/api/flows/${flowId}/run`, {}));
    every(10_000, () =>
      call(
        'POST',
        '/api/llm/chat',
        { model: 'llama3.2:3b', messages: [{ role: 'user', content: 'soak' }] },
        async (res) => {
          const text = await res.text();
          if (res.ok && !text.includes('event: done'))
            fail(`chat did not end with done: ${text.slice(-200)}`);
        },
      ),
    );

    const pid = agent.pid!;
    const rss: { t: number; v: number }[] = [];
    const fds: { t: number; v: number }[] = [];
    const started = Date.now();
    const end = started + MINUTES * 60_000;
    say(`soak: ${MINUTES} min, ${CLIENTS} clients, engine ${docker ? 'on' : 'off'}, data ${dataDir}`);
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, Math.min(SAMPLE_MS, Math.max(0, end - Date.now()))));
      if (agent.exitCode !== null) throw new Error(`the agent exited with ${agent.exitCode}`);
      const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
      const t = Date.now() - started;
      rss.push({ t, v: kb / 1024 });
      fds.push({ t, v: fs.readdirSync(`/proc/${pid}/fd`).length });
    }
    stopping = true;

    const warm = MINUTES > 2 ? 60_000 : 0;
    const steady = (xs: { t: number; v: number }[]) => xs.filter((p) => p.t >= warm);
    const range = (xs: { v: number }[]) =>
      `${Math.min(...xs.map((p) => p.v)).toFixed(1)}–${Math.max(...xs.map((p) => p.v)).toFixed(1)}`;
    say(`samples: ${rss.length} (every ${SAMPLE_MS / 1000} s; slopes after ${warm / 1000} s of warm-up)`);
    say(`RSS: ${range(rss)} MiB, slope ${slopePerHour(steady(rss)).toFixed(2)} MiB/h`);
    say(`open handles: ${range(fds)}, slope ${slopePerHour(steady(fds)).toFixed(2)} per hour`);
    say(`requests: ${requests}, errors: ${errors.length}`);
    say(
      `latency ms: p50 ${pct(latencies, 50).toFixed(1)}, p95 ${pct(latencies, 95).toFixed(1)}, p99 ${pct(latencies, 99).toFixed(1)}, max ${pct(latencies, 100).toFixed(1)}`,
    );
    if (errors.length > 0) process.exitCode = 1;
  } finally {
    stopping = true;
    for (const t of timers) clearTimeout(t);
    for (const s of sockets) s.close();
    agent.kill('SIGTERM');
    await new Promise((r) => (agent.exitCode !== null ? r(null) : agent.once('exit', r)));
    await ha.stop();
    await ollama.close();
    if (docker) {
      try {
        execFileSync('podman', ['rm', '-f', '-t', '1', container], { stdio: 'ignore' });
      } catch {
        // already gone
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`soak: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
