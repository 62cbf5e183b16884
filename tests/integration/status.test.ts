import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  diagnosticsBundleSchema,
  haHealthSchema,
  liveServerMessageSchema,
  llmPipelineStatusSchema,
  metricSampleSchema,
  metricSeriesSchema,
  networkInfoSchema,
  nexusStatusSchema,
  processListSchema,
  satelliteListSchema,
  satelliteSchema,
  satelliteWithTokenSchema,
  subscriptionStatusSchema,
  systemInfoSchema,
  systemUptimeSchema,
  vpnStatusSchema,
  PLANS,
  type LiveServerMessage,
} from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { TEST_PASSWORD, signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { startOllamaSim, type OllamaSim } from '../fixtures/ollama-sim.js';
import { waitFor } from '../support/wait-for.js';
import { pathWithoutVpnTools } from '../support/without-vpn-tools.js';

const VPN_TOOLS = fileURLToPath(new URL('../fixtures/vpn-tools', import.meta.url));
const DAY_MS = 24 * 60 * 60 * 1000;

function meminfoPercent(): number {
  const text = fs.readFileSync('/proc/meminfo', 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)![1]);
  return ((kb('MemTotal') - kb('MemAvailable')) / kb('MemTotal')) * 100;
}

const procUptime = () => Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]);

/** Opens the live channel with the client's session cookie (and any extra headers). */
function openLive(agent: RunningAgent, client: Client | null, headers: Record<string, string> = {}) {
  const cookie = client?.cookie('nexus_session');
  return new WebSocket(`${agent.url.replace('http', 'ws')}/api/live`, {
    headers: { ...(cookie ? { cookie: `nexus_session=${cookie}` } : {}), ...headers },
  });
}

/** The HTTP status a refused WebSocket handshake answered with. */
function refusal(socket: WebSocket): Promise<number> {
  return new Promise((resolve, reject) => {
    socket.on('error', () => {});
    socket.once('unexpected-response', (req, res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    socket.once('open', () => reject(new Error('the handshake was accepted')));
  });
}

function collect(socket: WebSocket): LiveServerMessage[] {
  const messages: LiveServerMessage[] = [];
  socket.on('message', (raw) => messages.push(liveServerMessageSchema.parse(JSON.parse(raw.toString()))));
  return messages;
}

const SIGNED_IN_GETS = [
  '/api/nexus/status',
  '/api/system/uptime',
  '/api/system/metrics',
  '/api/system/info',
  '/api/system/processes',
  '/api/system/network',
  '/api/devices/satellite',
  '/api/llm/pipeline/status',
  '/api/vpn/status',
  '/api/ha-patterns/health',
  '/api/subscription/status',
  '/api/diagnostics/bundle',
  '/api/live',
];

let ollama: OllamaSim;
let agent: RunningAgent;
let owner: Client;
let member: Client;
let startedAt: number;
let ownerEmail: string;

beforeAll(async () => {
  ollama = await startOllamaSim([
    { name: 'qwen2.5:7b', size: 4_683_087_332, family: 'qwen2', parameterSize: '7.6B' },
    { name: 'llama3.2:3b', size: 2_019_393_189, loaded: true },
  ]);
  startedAt = Date.now();
  agent = await startAgent({ env: { OLLAMA_URL: ollama.url } });
  owner = new Client(agent.url);
  member = new Client(agent.url);
  ownerEmail = (await signUp(owner, { name: 'Olive Owner' })).email;
  await signUp(member, { name: 'Mo Member' });
});

afterAll(async () => {
  await agent?.stop();
  await ollama?.close();
});

describe('signed out', () => {
  it.each(SIGNED_IN_GETS)('GET %s answers 401 with the JSON error shape', async (p) => {
    const res = await new Client(agent.url).get(p);
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ message: expect.any(String) });
  });

  it('cannot add a satellite', async () => {
    const res = await new Client(agent.url).post('/api/devices/satellite', { name: 'Kitchen' });
    expect(res.status).toBe(401);
  });

  it('cannot open the live channel', async () => {
    expect(await refusal(openLive(agent, null))).toBe(401);
  });
});

describe('status endpoints against this machine', () => {
  it('nexus status has the spec’s fields, memory within 3 points of /proc/meminfo', async () => {
    const before = meminfoPercent();
    const res = await owner.get('/api/nexus/status');
    const after = meminfoPercent();
    expect(res.status).toBe(200);
    const status = nexusStatusSchema.parse(res.json);
    expect(['online', 'degraded']).toContain(status.status);
    expect(status.networkStatus).toMatch(/^(connected|disconnected)$/);
    expect(status.systemLoad).toBeGreaterThanOrEqual(0);
    expect(status.systemLoad).toBeLessThanOrEqual(100);
    // The sample is up to a second old and other processes allocate meanwhile.
    expect(status.memoryUsage).toBeGreaterThanOrEqual(Math.min(before, after) - 3);
    expect(status.memoryUsage).toBeLessThanOrEqual(Math.max(before, after) + 3);
  });

  it('uptime is the host’s, within 2 s of /proc/uptime', async () => {
    const before = procUptime();
    const res = await owner.get('/api/system/uptime');
    const after = procUptime();
    const { uptime, bootTime } = systemUptimeSchema.parse(res.json);
    expect(uptime).toBeGreaterThanOrEqual(Math.floor(before) - 2);
    expect(uptime).toBeLessThanOrEqual(after + 2);
    expect(Math.abs(Date.parse(bootTime) - (Date.now() - after * 1000))).toBeLessThan(3000);
  });

  it('keeps a 1 s series for charts and answers only newer samples on request', async () => {
    const series = await waitFor(
      async () => metricSeriesSchema.parse((await owner.get('/api/system/metrics?window=1h')).json),
      (s) => s.samples.length >= 3,
      { what: 'three samples' },
    );
    expect(series.intervalMs).toBe(1000);
    const times = series.samples.map((s) => s.t);
    for (let i = 1; i < times.length; i++) {
      expect(times[i]! - times[i - 1]!).toBeGreaterThan(500);
      expect(times[i]! - times[i - 1]!).toBeLessThan(5000);
    }
    const since = times.at(-2)!;
    const newer = metricSeriesSchema.parse(
      (await owner.get(`/api/system/metrics?window=1h&since=${since}`)).json,
    );
    expect(newer.samples.every((s) => s.t > since)).toBe(true);
    expect(newer.samples.length).toBeGreaterThanOrEqual(1);

    const day = metricSeriesSchema.parse((await owner.get('/api/system/metrics?window=24h')).json);
    expect(day.intervalMs).toBe(60_000);

    const bad = await owner.get('/api/system/metrics?window=7d');
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('window');
  });

  it('reports host facts, disks and the agent’s own process', async () => {
    const info = systemInfoSchema.parse((await owner.get('/api/system/info')).json);
    const memTotalKb = Number(/^MemTotal:\s+(\d+)/m.exec(fs.readFileSync('/proc/meminfo', 'utf8'))![1]);
    expect(info.memTotal).toBe(memTotalKb * 1024);
    expect(info.agent.pid).toBe(agent.process.pid);
    expect(info.agent.rss).toBeGreaterThan(10 * 1024 * 1024);
    expect(info.disks.some((d) => d.mount === '/')).toBe(true);
    expect(info.os.platform).toBe('linux');
  });

  it('lists the top processes, sorted, with the agent among all of them', async () => {
    const top = processListSchema.parse((await owner.get('/api/system/processes?limit=5&sort=mem')).json);
    expect(top.processes.length).toBeLessThanOrEqual(5);
    const mems = top.processes.map((p) => p.mem);
    expect([...mems].sort((a, b) => b - a)).toEqual(mems);
    const all = processListSchema.parse((await owner.get('/api/system/processes?limit=200')).json);
    expect(all.processes.some((p) => p.pid === agent.process.pid)).toBe(true);
    expect((await owner.get('/api/system/processes?limit=0')).status).toBe(400);
  });

  it('shows members process names only, never command lines with their secrets; admins see the line', async () => {
    const secret = `s3cr3t-${randomBytes(6).toString('hex')}`;
    // A harmless long-lived process whose arguments this test controls (killed below).
    const child = spawn(
      process.execPath,
      ['-e', 'setInterval(() => {}, 60_000)', '--', `--token=${secret}`],
      {
        stdio: 'ignore',
      },
    );
    try {
      const listFor = async (client: Client) =>
        processListSchema.parse((await client.get('/api/system/processes?limit=200&sort=mem')).json);
      // Processes are sampled on demand and shared for a moment: wait until the child is in a sample.
      await expect
        .poll(async () => (await listFor(owner)).processes.find((p) => p.pid === child.pid)?.command, {
          timeout: 15_000,
        })
        .toContain(`--token=${secret}`);
      const res = await member.get('/api/system/processes?limit=200&sort=mem');
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(secret);
      const seen = processListSchema.parse(res.json).processes.find((p) => p.pid === child.pid);
      expect(seen).toMatchObject({ name: 'node', command: 'node' });
      for (const p of processListSchema.parse(res.json).processes) expect(p.command).toBe(p.name);
    } finally {
      child.kill();
    }
  });

  it('describes the network: interfaces, gateway, DNS and the agent’s listening port', async () => {
    const net = networkInfoSchema.parse((await owner.get('/api/system/network')).json);
    expect(net.interfaces.find((i) => i.name === 'lo')?.ip4).toBe('127.0.0.1');
    const resolv = fs.readFileSync('/etc/resolv.conf', 'utf8');
    for (const ns of net.dns.nameservers) expect(resolv).toContain(ns);
    const own = net.listening.find((l) => l.port === agent.port);
    expect(own).toBeDefined();
    if (own?.pid !== null) expect(own?.service).toBe('Nexus Console agent');
  });

  it('reports Home Assistant as not configured until it is', async () => {
    const health = haHealthSchema.parse((await owner.get('/api/ha-patterns/health')).json);
    expect(health).toEqual({
      status: 'not_configured',
      connectionHealth: 'not_configured',
      devicesCount: 0,
      entitiesCount: 0,
      responseTime: null,
    });
  });

  it('reports no VPN on a host without VPN tools', async () => {
    const tools = pathWithoutVpnTools();
    const bare = await startAgent({
      env: { PATH: tools.PATH, NEXUS_TAILSCALE_SOCKET: path.join(tools.PATH, 'no-tailscaled.sock') },
    });
    try {
      const someone = new Client(bare.url);
      await signUp(someone, { name: 'Vera VPNless' });
      expect(vpnStatusSchema.parse((await someone.get('/api/vpn/status')).json)).toMatchObject({
        status: 'disconnected',
        provider: 'none',
        latency: null,
        failover: { activeProvider: 'none', backupProvider: 'none' },
      });
    } finally {
      await bare.stop();
      tools.remove();
    }
  });
});

describe('LLM pipeline status from Ollama', () => {
  it('lists Ollama’s models, loaded first, and counts the AI requests the hub served', async () => {
    const db = new Database(path.join(agent.dataDir, 'nexus.db'));
    try {
      // What the LLM feature does once per answered message.
      db.prepare('insert into ai_usage (user_id, month, ai_messages) values (?, ?, ?)').run(
        1,
        new Date().toISOString().slice(0, 7),
        12,
      );
      db.prepare('insert into ai_usage (user_id, month, ai_messages) values (?, ?, ?)').run(1, '2020-01', 5);
    } finally {
      db.close();
    }
    const status = llmPipelineStatusSchema.parse((await member.get('/api/llm/pipeline/status')).json);
    expect(status).toMatchObject({
      status: 'running',
      pipelineType: 'local',
      activeModels: 2,
      totalRequests: 17,
    });
    expect(status.models).toEqual([
      { name: 'llama3.2:3b', status: 'running', provider: 'ollama', sizeBytes: 2_019_393_189 },
      { name: 'qwen2.5:7b', status: 'available', provider: 'ollama', sizeBytes: 4_683_087_332 },
    ]);
    expect(ollama.requests).toEqual(expect.arrayContaining(['GET /api/tags', 'GET /api/ps']));

    const sub = subscriptionStatusSchema.parse((await member.get('/api/subscription/status')).json);
    // The plan counts only messages answered by cloud models (issue 22); these were the hub's own.
    expect(sub.usage.aiMessages).toBe(0);
  });

  it('goes offline when Ollama stops answering', async () => {
    await ollama.close();
    const status = await waitFor(
      async () => llmPipelineStatusSchema.parse((await owner.get('/api/llm/pipeline/status')).json),
      (s) => s.status === 'offline',
      { what: 'offline' },
    );
    expect(status.models).toEqual([]);
    expect(status.providers[0]).toMatchObject({ name: 'ollama', status: 'offline', responseTime: null });
  });
});

describe('subscription', () => {
  it('starts a 14-day Pro trial when the hub first starts, and a restart does not renew it', async () => {
    const sub = subscriptionStatusSchema.parse((await member.get('/api/subscription/status')).json);
    expect(sub).toMatchObject({ plan: 'pro', status: 'trialing', limits: PLANS.pro.limits });
    expect(sub.usage.remainingMessages).toBe('unlimited');
    const end = Date.parse(sub.trialEndDate);
    expect(end).toBeGreaterThanOrEqual(startedAt + 14 * DAY_MS - 1000);
    expect(end).toBeLessThanOrEqual(Date.now() + 14 * DAY_MS);

    const again = await startAgent({ dataDir: agent.dataDir });
    try {
      const c = new Client(again.url);
      expect((await c.post('/api/auth/login', { email: ownerEmail, password: TEST_PASSWORD })).status).toBe(
        200,
      );
      const later = subscriptionStatusSchema.parse((await c.get('/api/subscription/status')).json);
      expect(later.trialEndDate).toBe(sub.trialEndDate);
    } finally {
      await again.stop();
    }
  });
});

describe('satellites', () => {
  let id: number;
  let token: string;

  it('starts empty; only admins add one, whose token is shown once and stored hashed', async () => {
    expect(satelliteListSchema.parse((await member.get('/api/devices/satellite')).json)).toEqual([]);
    expect((await member.post('/api/devices/satellite', { name: 'Kitchen' })).status).toBe(403);
    expect((await owner.post('/api/devices/satellite', { name: '' })).status).toBe(400);

    const res = await owner.post('/api/devices/satellite', {
      name: 'Kitchen',
      room: 'Kitchen',
      activeWakeWord: 'hey nexus',
    });
    expect(res.status).toBe(201);
    const created = satelliteWithTokenSchema.parse(res.json);
    id = created.satellite.id;
    token = created.token;
    expect(created.satellite).toMatchObject({
      name: 'Kitchen',
      status: 'offline',
      lastSeen: null,
      signalStrength: null,
    });

    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    try {
      const row = db.prepare('select token_hash from satellites where id = ?').get(id) as {
        token_hash: string;
      };
      expect(row.token_hash).not.toContain(token);
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      db.close();
    }
    const list = satelliteListSchema.parse((await member.get('/api/devices/satellite')).json);
    expect(list).toHaveLength(1);
    expect(JSON.stringify(list)).not.toContain(token);
  });

  it('takes heartbeats only with the satellite’s own token and turns online', async () => {
    const beat = (t: string | null, body: unknown, sid = id) =>
      new Client(agent.url).post(
        `/api/devices/satellite/${sid}/heartbeat`,
        body,
        t ? { authorization: `Bearer ${t}` } : {},
      );
    expect((await beat(null, { signalStrength: -50 })).status).toBe(401);
    expect((await beat('nxsat_wrong', { signalStrength: -50 })).status).toBe(401);
    expect((await beat(token, { signalStrength: -50 }, id + 100)).status).toBe(401);
    expect((await beat(token, { signalStrength: 20 })).status).toBe(400);

    const ok = await beat(token, {
      signalStrength: -52,
      activeWakeWord: 'ok nexus',
      firmwareVersion: '1.2.0',
    });
    expect(ok.status).toBe(200);
    const satellite = satelliteSchema.parse(ok.json);
    expect(satellite).toMatchObject({
      status: 'online',
      signalStrength: -52,
      activeWakeWord: 'ok nexus',
      firmwareVersion: '1.2.0',
      ipAddress: '127.0.0.1',
    });
    expect(Math.abs(Date.parse(satellite.lastSeen!) - Date.now())).toBeLessThan(5000);

    const listed = satelliteListSchema.parse((await member.get('/api/devices/satellite')).json)[0]!;
    expect(listed).toMatchObject({ status: 'online', signalStrength: -52 });

    const degraded = await beat(token, { status: 'degraded' });
    expect(satelliteSchema.parse(degraded.json)).toMatchObject({ status: 'degraded', signalStrength: -52 });
  });

  it('renames, rotates the token (the old one stops working) and deletes', async () => {
    expect((await member.request('PATCH', `/api/devices/satellite/${id}`, { name: 'x' })).status).toBe(403);
    const renamed = await owner.request('PATCH', `/api/devices/satellite/${id}`, { name: 'Kitchen counter' });
    expect(satelliteSchema.parse(renamed.json).name).toBe('Kitchen counter');
    expect((await owner.request('PATCH', `/api/devices/satellite/${id}`, {})).status).toBe(400);

    const rotated = satelliteWithTokenSchema.parse(
      (await owner.post(`/api/devices/satellite/${id}/token`)).json,
    );
    expect(rotated.token).not.toBe(token);
    const old = await new Client(agent.url).post(
      `/api/devices/satellite/${id}/heartbeat`,
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(old.status).toBe(401);
    const fresh = await new Client(agent.url).post(
      `/api/devices/satellite/${id}/heartbeat`,
      {},
      { authorization: `Bearer ${rotated.token}` },
    );
    expect(fresh.status).toBe(200);

    expect((await member.delete(`/api/devices/satellite/${id}`)).status).toBe(403);
    expect((await owner.delete(`/api/devices/satellite/${id}`)).status).toBe(204);
    expect((await owner.delete(`/api/devices/satellite/${id}`)).status).toBe(404);
    expect((await owner.get(`/api/devices/satellite/${id}`)).status).toBe(404);
    expect((await owner.get('/api/devices/satellite/abc')).status).toBe(400);
  });
});

describe('diagnostics bundle', () => {
  it('is for admins only', async () => {
    expect((await member.get('/api/diagnostics/bundle')).status).toBe(403);
  });

  it('downloads as a JSON attachment with host facts and recent logs, and no secrets', async () => {
    // Put a secret where a careless log line could pick it up: a satellite token and a login.
    const sat = satelliteWithTokenSchema.parse(
      (await owner.post('/api/devices/satellite', { name: 'Hall' })).json,
    );
    const res = await owner.get('/api/diagnostics/bundle');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="nexus-diagnostics-.+\.json"$/,
    );
    const bundle = diagnosticsBundleSchema.parse(res.json);
    expect(bundle.agent.pid).toBe(agent.process.pid);
    expect(bundle.agent.config).toMatchObject({ OLLAMA_URL: ollama.url, HA_TOKEN: 'unset' });
    expect(bundle.host.memTotal).toBeGreaterThan(0);
    expect(bundle.metrics.lastMinutes.length).toBeGreaterThan(0);
    expect(bundle.logs.some((l) => l.msg === 'request')).toBe(true);
    for (const secret of [TEST_PASSWORD, sat.token, owner.cookie('nexus_session')!]) {
      expect(res.text).not.toContain(secret);
    }
  });
});

describe('live channel', () => {
  it('streams a metrics sample every second to a subscribed, signed-in socket', async () => {
    const socket = openLive(agent, owner);
    const messages = collect(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ type: 'subscribe', topic: 'metrics' }));
    const events = await waitFor(
      () => messages.filter((m) => m.type === 'event' && m.topic === 'metrics'),
      (e) => e.length >= 2,
      { what: 'two metrics events', timeoutMs: 5000 },
    );
    expect(messages[0]).toEqual({ type: 'subscribed', topic: 'metrics' });
    const [a, b] = events.map((e) => metricSampleSchema.parse((e as { data: unknown }).data));
    expect(b!.t - a!.t).toBeGreaterThan(500);

    socket.send(JSON.stringify({ type: 'subscribe', topic: 'no.such.topic' }));
    socket.send('{"type":"subscribe"}');
    await waitFor(
      () => messages.filter((m) => m.type === 'error'),
      (e) => e.length === 2,
      { what: 'two errors' },
    );
    socket.close();
  });

  it('pushes the satellite list when a satellite changes', async () => {
    const socket = openLive(agent, member);
    const messages = collect(socket);
    await new Promise<void>((resolve) => socket.once('open', () => resolve()));
    socket.send(JSON.stringify({ type: 'subscribe', topic: 'satellites' }));
    await waitFor(
      () => messages,
      (m) => m.some((x) => x.type === 'subscribed'),
      { what: 'subscribed' },
    );
    await owner.post('/api/devices/satellite', { name: 'Porch' });
    const event = await waitFor(
      () => messages.find((m) => m.type === 'event' && m.topic === 'satellites'),
      (m) => m !== undefined,
      { what: 'satellites event' },
    );
    const list = satelliteListSchema.parse((event as { data: unknown }).data);
    expect(list.map((s) => s.name)).toContain('Porch');
    socket.close();
  });

  it('refuses a socket from another origin', async () => {
    expect(await refusal(openLive(agent, owner, { origin: 'http://evil.example' }))).toBe(403);
  });

  it('refuses a socket after sign-out', async () => {
    const c = new Client(agent.url);
    await signUp(c);
    const cookie = c.cookie('nexus_session')!;
    await c.post('/api/auth/logout');
    const socket = new WebSocket(`${agent.url.replace('http', 'ws')}/api/live`, {
      headers: { cookie: `nexus_session=${cookie}` },
    });
    expect(await refusal(socket)).toBe(401);
  });
});

describe('VPN through the WireGuard and Tailscale tools', () => {
  let vpnAgent: RunningAgent;
  let admin: Client;

  beforeAll(async () => {
    vpnAgent = await startAgent({
      env: { PATH: `${VPN_TOOLS}/wireguard:${VPN_TOOLS}/tailscale:${process.env.PATH}` },
    });
    admin = new Client(vpnAgent.url);
    await signUp(admin);
  });
  afterAll(async () => {
    await vpnAgent?.stop();
  });

  it('is connected over WireGuard with a measured round trip, Tailscale as the backup', async () => {
    const status = vpnStatusSchema.parse((await admin.get('/api/vpn/status')).json);
    expect(status).toMatchObject({
      status: 'connected',
      provider: 'wireguard',
      failover: { activeProvider: 'wireguard', backupProvider: 'tailscale' },
    });
    // The simulated peer's tunnel address is loopback: a real TCP round trip, well under a second.
    expect(status.latency).not.toBeNull();
    expect(status.latency!).toBeLessThan(1000);
    expect(status.wireguard[0]!.peers.map((p) => p.connected)).toEqual([true, false]);
    expect(JSON.stringify(status)).not.toContain('cHJpdmF0ZWtleX');
    expect(status.tailscale).toMatchObject({
      backendState: 'Running',
      hostName: 'nexus',
      tailnet: 'owner@example.com',
    });
  });

  it('switches to Tailscale when an admin makes it the active provider', async () => {
    const bad = await admin.request('PUT', '/api/vpn/failover', {
      activeProvider: 'tailscale',
      backupProvider: 'tailscale',
    });
    expect(bad.status).toBe(400);
    const res = await admin.request('PUT', '/api/vpn/failover', {
      activeProvider: 'tailscale',
      backupProvider: 'wireguard',
    });
    expect(res.status).toBe(200);
    const status = vpnStatusSchema.parse((await admin.get('/api/vpn/status')).json);
    expect(status).toMatchObject({
      status: 'connected',
      provider: 'tailscale',
      latency: 23,
      failover: { activeProvider: 'tailscale', backupProvider: 'wireguard' },
    });
  });
});
