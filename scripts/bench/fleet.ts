/**
 * Benchmark: the fleet overview (issue 24) for 20 nodes and 100 services of 2–3 tasks each,
 * GET /api/fleet/nodes and GET /api/fleet/services, target under 100 ms p95.
 *
 *   npx tsc -b agent && npx tsx scripts/bench/fleet.ts        (BENCH_REQUESTS=300 per endpoint)
 *
 * Twenty Jetsons cannot run here, so the agent's DOCKER_HOST points at a small fake Engine API on a
 * unix socket serving a recorded swarm: /info, /nodes, /services, /tasks and /swarm generated from
 * the shapes Debian's dockerd 20.10 answered in the fleet tests (TLS info, plugin lists, network
 * attachments and the task history the engine keeps included, so the answers weigh what real ones
 * do). The fake engine answers from memory; what is measured is the agent: three engine calls,
 * parsing, grouping tasks, the peer readings, JSON out.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startAgent } from '../../tests/support/agent.js';
import { Client } from '../../tests/support/http.js';

const NODES = 20;
const SERVICES = 100;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const WARMUP = 20;

const id = () =>
  randomBytes(13)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')
    .slice(0, 25);
const at = (secondsAgo: number) =>
  new Date(Date.now() - secondsAgo * 1000).toISOString().replace('Z', '123456Z');
const TRUST_ROOT = `-----BEGIN CERTIFICATE-----\n${'MIIBajCCARCgAwIBAgIUd0FBP1wdD2yg5wQwmo4mQ+BdMl4wCgYIKoZIzj0EAwIw\n'.repeat(9)}-----END CERTIFICATE-----\n`;
const TLS_INFO = {
  TrustRoot: TRUST_ROOT,
  CertIssuerSubject: 'MBMxETAPBgNVBAMTCHN3YXJtLWNh',
  CertIssuerPublicKey:
    'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEwl772ySKjVAs99jKjvMbVuTYZ5pXpOM+zyMNat9vZp4u0au9qQ==',
};
const PLUGINS = [
  ...[
    'awslogs',
    'fluentd',
    'gcplogs',
    'gelf',
    'journald',
    'json-file',
    'local',
    'logentries',
    'splunk',
    'syslog',
  ].map((Name) => ({ Type: 'Log', Name })),
  ...['bridge', 'host', 'ipvlan', 'macvlan', 'null', 'overlay'].map((Name) => ({ Type: 'Network', Name })),
  { Type: 'Volume', Name: 'local' },
];
const HOST_NETWORK = {
  Network: {
    ID: id(),
    Version: { Index: 7 },
    CreatedAt: at(86400),
    UpdatedAt: at(86400),
    Spec: {
      Name: 'host',
      Labels: { 'com.docker.swarm.predefined': 'true' },
      DriverConfiguration: { Name: 'host' },
      Scope: 'swarm',
    },
    DriverState: { Name: 'host' },
    IPAMOptions: { Driver: {} },
  },
};

function recordedSwarm() {
  const models = ['orin-agx', 'orin-nx', 'orin-nano'];
  const nodes = Array.from({ length: NODES }, (_, i) => ({
    ID: id(),
    Version: { Index: 9 + i },
    CreatedAt: at(86400 * 30),
    UpdatedAt: at(3600),
    Spec: {
      Labels: { 'nexus.gpu': models[i % 3]!, ...(i % 4 === 0 ? { 'nexus.role': 'voice' } : {}) },
      Role: i < 3 ? 'manager' : 'worker',
      Availability: i === 7 ? 'drain' : 'active',
    },
    Description: {
      Hostname: `jetson-${String(i + 1).padStart(2, '0')}`,
      Platform: { Architecture: 'aarch64', OS: 'linux' },
      Resources: { NanoCPUs: (i % 3 === 0 ? 12 : 6) * 1e9, MemoryBytes: (i % 3 === 0 ? 64 : 16) * 1024 ** 3 },
      Engine: { EngineVersion: '20.10.24+dfsg1', Plugins: PLUGINS },
      TLSInfo: TLS_INFO,
    },
    Status: { State: i === 19 ? 'down' : 'ready', Addr: `127.0.1.${i + 1}` },
    ...(i < 3
      ? { ManagerStatus: { Leader: i === 0, Reachability: 'reachable', Addr: `127.0.1.${i + 1}:2377` } }
      : {}),
  }));
  const services = Array.from({ length: SERVICES }, (_, i) => {
    const replicas = 2 + (i % 2);
    const image = `registry.local/nexus/app-${i}:1.${i % 7}.0@sha256:${randomBytes(32).toString('hex')}`;
    return {
      ID: id(),
      Version: { Index: 100 + i },
      CreatedAt: at(86400 * 7),
      UpdatedAt: at(600),
      Spec: {
        Name: `stack-${i % 20}_svc-${i}`,
        Labels: { 'com.docker.stack.namespace': `stack-${i % 20}`, 'com.docker.stack.image': image },
        TaskTemplate: {
          ContainerSpec: {
            Image: image,
            Labels: { 'com.docker.stack.namespace': `stack-${i % 20}` },
            Args: ['serve', '--port', String(8000 + i)],
            Env: [`APP_PORT=${8000 + i}`, 'LOG_LEVEL=info', `DATABASE_URL=postgres://app:secret${i}@db/app`],
            Init: false,
            DNSConfig: {},
            Isolation: 'default',
          },
          Resources: { Limits: { MemoryBytes: 512 * 1024 ** 2 }, Reservations: {} },
          RestartPolicy: { Condition: 'on-failure', Delay: 5e9, MaxAttempts: 3 },
          Placement: { Constraints: i % 5 === 0 ? ['node.labels.nexus.role==voice'] : [] },
          Networks: [{ Target: HOST_NETWORK.Network.ID }],
          ForceUpdate: 0,
          Runtime: 'container',
        },
        Mode: { Replicated: { Replicas: replicas } },
        UpdateConfig: { Parallelism: 1, Delay: 2e9, FailureAction: 'pause', Order: 'stop-first' },
        EndpointSpec: { Mode: 'vip' },
      },
      ...(i % 10 === 0
        ? {
            PreviousSpec: { Name: `stack-${i % 20}_svc-${i}` },
            UpdateStatus: {
              State: 'completed',
              StartedAt: at(700),
              CompletedAt: at(650),
              Message: 'update completed',
            },
          }
        : {}),
      Endpoint: { Spec: { Mode: 'vip' }, VirtualIPs: [{ NetworkID: HOST_NETWORK.Network.ID }] },
      ServiceStatus: { RunningTasks: replicas, DesiredTasks: replicas, CompletedTasks: 0 },
      replicas,
    };
  });
  const tasks = services.flatMap((s, i) => {
    const out: unknown[] = [];
    for (let slot = 1; slot <= s.replicas; slot++) {
      const node = nodes[(i * 3 + slot) % NODES]!;
      const task = (state: string, desired: string, secondsAgo: number) => ({
        ID: id(),
        Version: { Index: 200 + out.length },
        CreatedAt: at(secondsAgo + 5),
        UpdatedAt: at(secondsAgo),
        Labels: {},
        Spec: s.Spec.TaskTemplate,
        ServiceID: s.ID,
        Slot: slot,
        NodeID: node.ID,
        Status: {
          Timestamp: at(secondsAgo),
          State: state,
          Message: state === 'running' ? 'started' : 'shutdown',
          ...(state === 'failed' ? { Err: 'task: non-zero exit (1)' } : {}),
          ContainerStatus: { ContainerID: randomBytes(32).toString('hex'), PID: 1000 + i, ExitCode: 0 },
          PortStatus: {},
        },
        DesiredState: desired,
        NetworksAttachments: [HOST_NETWORK],
      });
      out.push(task('running', 'running', 600));
      // The history the engine keeps (TaskHistoryRetentionLimit 5): an earlier task of the slot.
      out.push(task(slot === 1 && i % 9 === 0 ? 'failed' : 'shutdown', 'shutdown', 3600));
    }
    return out;
  });
  const managers = nodes.filter((n) => n.Spec.Role === 'manager');
  const info = {
    ID: 'E7JC:OKLY:QC3C:IBWO:CAAU:XBQE:C4KQ:6DSS:MMVI:VQBY:LS25:VTMK',
    ServerVersion: '20.10.24+dfsg1',
    Swarm: {
      NodeID: nodes[0]!.ID,
      NodeAddr: nodes[0]!.Status.Addr,
      LocalNodeState: 'active',
      ControlAvailable: true,
      Error: '',
      RemoteManagers: managers.map((n) => ({ NodeID: n.ID, Addr: `${n.Status.Addr}:2377` })),
      Nodes: NODES,
      Managers: managers.length,
      Cluster: { ID: id(), Version: { Index: 10 }, Spec: { Name: 'default' }, TLSInfo: TLS_INFO },
    },
  };
  const cleanServices = services.map(({ replicas: _replicas, ...s }) => s);
  return { nodes, services: cleanServices, tasks, info };
}

function startFakeEngine(socketPath: string) {
  const swarm = recordedSwarm();
  const bodies = new Map<string, string>([
    ['/_ping', 'OK'],
    [
      '/version',
      JSON.stringify({ Version: '20.10.24+dfsg1', ApiVersion: '1.41', Os: 'linux', Arch: 'arm64' }),
    ],
    ['/info', JSON.stringify(swarm.info)],
    ['/nodes', JSON.stringify(swarm.nodes)],
    ['/services', JSON.stringify(swarm.services)],
    ['/tasks', JSON.stringify(swarm.tasks)],
  ]);
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://engine').pathname.replace(/^\/v\d+\.\d+/, '');
    const body = bodies.get(pathname);
    if (!body) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `fake engine: no ${pathname}` }));
      return;
    }
    res.writeHead(200, { 'content-type': pathname === '/_ping' ? 'text/plain' : 'application/json' });
    res.end(body);
  });
  return new Promise<{ server: http.Server; sizes: Record<string, number> }>((resolve) =>
    server.listen(socketPath, () =>
      resolve({
        server,
        sizes: Object.fromEntries([...bodies].map(([k, v]) => [k, Buffer.byteLength(v)])),
      }),
    ),
  );
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(client: Client, path: string) {
  for (let i = 0; i < WARMUP; i++) await client.get(path);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const res = await client.get(path);
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text.slice(0, 300)}`);
    bytes = res.text.length;
  }
  times.sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1);
  return `${path.padEnd(22)} p50 ${f(percentile(times, 50))} ms  p95 ${f(percentile(times, 95))} ms  p99 ${f(percentile(times, 99))} ms  (${REQUESTS} requests, answer ${Math.round(bytes / 1024)} KiB)`;
}

async function main() {
  const say = (m: string) => process.stderr.write(`[bench] ${m}\n`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nx-fleet-bench-'));
  const socketPath = path.join(dir, 'engine.sock');
  const { server, sizes } = await startFakeEngine(socketPath);
  say(
    `fake engine: ${Object.entries(sizes)
      .map(([k, v]) => `${k} ${Math.round(v / 1024)} KiB`)
      .join(', ')}`,
  );
  const agent = await startAgent({ env: { DOCKER_HOST: `unix://${socketPath}` } });
  try {
    const client = new Client(agent.url);
    const reg = await client.post('/api/auth/register', {
      name: 'Bench',
      email: `bench-fleet-${process.pid}@example.com`,
      password: 'correct horse battery staple',
    });
    if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${reg.text}`);
    const nodes = await client.get('/api/fleet/nodes');
    const services = await client.get('/api/fleet/services');
    const taskCount = (services.json.services as { tasks: unknown[] }[]).reduce(
      (n, s) => n + s.tasks.length,
      0,
    );
    say(
      `${nodes.json.nodes.length} nodes, ${services.json.services.length} services, ${taskCount} tasks shown`,
    );
    // The floor under the same load: the agent's cheapest signed-in read, measured in the same run.
    const lines = [
      await measure(client, '/api/fleet/nodes'),
      await measure(client, '/api/fleet/services'),
      await measure(client, '/api/auth/user'),
    ];
    process.stdout.write(
      `fleet overview (${NODES} nodes, ${SERVICES} services, 2–3 tasks each, recorded engine answers), ${new Date().toISOString()}\n` +
        `load average ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')} on ${os.cpus().length} CPUs\n` +
        lines.join('\n') +
        '\n',
    );
  } finally {
    await agent.stop();
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
