/**
 * Benchmark: live log following of a container that writes ~5,000 lines/s, watched over the live
 * channel by a fast client and a deliberately slow one (its socket is read one second in three).
 * Reports what the container wrote, what each client received, what was dropped or coalesced for
 * the slow one, and the agent's resident memory over time.
 *
 *   npx tsc -b agent && npx tsx scripts/bench/docker-logs.ts        (BENCH_SECONDS=30 by default)
 *
 * Needs the test engine (scripts/ensure-test-deps.sh; this script starts Podman's service itself).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { startAgent } from '../../tests/support/agent.js';
import { cleanUpDocker, ensureDockerEngine, podman, TEST_IMAGE } from '../../tests/support/docker-engine.js';
import { Client } from '../../tests/support/http.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const LINES_PER_TICK = 500;
/** 500 lines take the shell a few milliseconds to print; 95 ms of sleep makes ~5,000 lines/s. */
const TICK_US = 95_000;
/** The slow client reads 64 KB/s, far less than the ~550 KB/s of log events it is sent. */
const SLOW_BYTES_PER_SECOND = 64 * 1024;
const container = `bench-logs-${randomBytes(3).toString('hex')}`;

interface ClientStats {
  lines: number;
  batches: number;
  seqGaps: number;
  batchesMissedBySeq: number;
  droppedReported: number;
  coalesced: number;
  bytes: number;
  /** When the agent closed the socket, seconds after the client connected, and the close code. */
  closed: { afterSeconds: number; code: number } | null;
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

function follow(url: string, cookie: string, topic: string, slow: boolean) {
  const stats: ClientStats = {
    lines: 0,
    batches: 0,
    seqGaps: 0,
    batchesMissedBySeq: 0,
    droppedReported: 0,
    coalesced: 0,
    bytes: 0,
    closed: null,
  };
  const openedAt = Date.now();
  let lastSeq: number | null = null;
  const socket = new WebSocket(`${url.replace('http', 'ws')}/api/live`, { headers: { cookie } });
  let pacer: NodeJS.Timeout | null = null;
  let lastMessageAt = Date.now();
  let draining = false;
  socket.on('open', () => {
    socket.send(JSON.stringify({ type: 'subscribe', topic }));
    if (slow) {
      // A slow browser on a poor link: its TCP socket is read at most SLOW_BYTES_PER_SECOND.
      const raw = (socket as unknown as { _socket: Socket })._socket;
      // Reads come in chunks of up to 64 KB, so the budget is refilled once a second, not finer.
      const budget = SLOW_BYTES_PER_SECOND;
      let used = 0;
      raw.on('data', (chunk: Buffer) => {
        used += chunk.length;
        if (used >= budget && !draining) raw.pause();
      });
      pacer = setInterval(() => {
        used = 0;
        raw.resume();
      }, 1000);
    }
  });
  socket.on('close', (code: number) => {
    stats.closed ??= { afterSeconds: Math.round((Date.now() - openedAt) / 1000), code };
  });
  socket.on('message', (data: Buffer) => {
    lastMessageAt = Date.now();
    stats.bytes += data.length;
    const message = JSON.parse(String(data)) as {
      type: string;
      count?: number;
      data?: { kind: string; seq: number; lines: unknown[]; coalesced: number };
    };
    if (message.type === 'dropped') stats.droppedReported += message.count ?? 0;
    if (message.type !== 'event' || message.data?.kind !== 'lines') return;
    const batch = message.data;
    stats.batches += 1;
    stats.lines += batch.lines.length;
    stats.coalesced += batch.coalesced;
    if (lastSeq !== null && batch.seq > lastSeq + 1) {
      stats.seqGaps += 1;
      stats.batchesMissedBySeq += batch.seq - lastSeq - 1;
    }
    lastSeq = batch.seq;
  });
  return {
    stats,
    /** Reads at full speed until nothing arrives for a second: what was queued for it, and the drop notices. */
    async drain() {
      if (pacer) clearInterval(pacer);
      draining = true;
      lastMessageAt = Date.now();
      (socket as unknown as { _socket: Socket })._socket.resume();
      const until = Date.now() + 30_000;
      while (Date.now() - lastMessageAt < 1000 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    close() {
      if (pacer) clearInterval(pacer);
      socket.close();
    },
  };
}

async function main() {
  const say = (m: string) => process.stderr.write(`[bench] ${m}\n`);
  const dockerHost = ensureDockerEngine();
  say('engine ready');
  const agent = await startAgent({ env: { DOCKER_HOST: dockerHost } });
  const pid = agent.process.pid!;
  const client = new Client(agent.url);
  const reg = await client.post('/api/auth/register', {
    name: 'Bench',
    email: `bench-${container}@example.com`,
    password: 'correct horse battery staple',
  });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${reg.text}`);
  const cookie = `nexus_session=${client.cookie('nexus_session')}`;

  // 500 lines every ~100 ms: ~5,000 lines/s.
  const script = `n=0; while true; do seq $n $((n+${LINES_PER_TICK - 1})) | sed 's/.*/bench line & payload-abcdefghijklmnopqrstuvwxyz/'; n=$((n+${LINES_PER_TICK})); usleep ${TICK_US}; done`;
  const rss: { t: number; mib: number }[] = [{ t: 0, mib: rssMiB(pid) }];
  say('agent up');
  const runAt = Date.now();
  podman('run', '-d', '--name', container, '--stop-timeout', '1', TEST_IMAGE, 'sh', '-c', script);
  const topic = `docker.logs.${container}`;
  const fast = follow(agent.url, cookie, topic, false);
  const slow = follow(agent.url, cookie, topic, true);

  const started = Date.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const t = Math.round((Date.now() - started) / 1000);
      rss.push({ t, mib: rssMiB(pid) });
      if (t >= SECONDS) {
        clearInterval(timer);
        resolve();
      }
    }, 1000);
  });
  say('measured');
  const elapsed = (Date.now() - started) / 1000;
  const slowDuringRun = { ...slow.stats };
  // Stop the writer, then let the slow client catch up to see what the agent dropped for it.
  podman('stop', '-t', '1', container);
  await slow.drain();
  fast.close();
  slow.close();
  // What the container wrote over its whole life, from the engine's own log.
  const last = podman('logs', '--tail', '1', container);
  const total = Number(/bench line (\d+)/.exec(last)?.[1] ?? -1) + 1;
  const lifetime = (Date.now() - runAt) / 1000;
  cleanUpDocker({ containers: [container] });
  await agent.stop();

  const mibs = rss.map((r) => r.mib);
  const result = {
    seconds: Math.round(elapsed),
    containerLinesPerSecond: Math.round(total / lifetime),
    fast: { ...fast.stats, linesPerSecond: Math.round(fast.stats.lines / elapsed) },
    slow: {
      duringRun: { lines: slowDuringRun.lines, linesPerSecond: Math.round(slowDuringRun.lines / elapsed) },
      afterCatchingUp: slow.stats,
    },
    agentRssMiB: {
      start: mibs[0],
      max: Math.max(...mibs),
      end: mibs[mibs.length - 1],
      samples: rss.filter((_, i) => i % 5 === 0).map((r) => `${r.t}s:${r.mib}`),
    },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

main().catch((err: Error) => {
  process.stderr.write(`${err.message}\n`);
  cleanUpDocker({ containers: [container] });
  process.exit(1);
});
