import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkPageSchema, networkInfoSchema, vpnStatusSchema } from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { waitFor } from '../support/wait-for.js';
import { startDnsSim, type DnsSim } from '../fixtures/dns-sim.js';
import { startTailscaleSim, type TailscaleSim } from '../fixtures/tailscale-localapi-sim.js';

/**
 * The network tools (issue 17) against the real agent. Every packet stays on loopback: ping and
 * tracepath to 127.0.0.1, a port check of a loopback listener, DNS through a loopback DNS server the
 * test runs, Wake-on-LAN to a loopback UDP listener (the "broadcast" address is 127.0.0.1), and mDNS
 * bound to 127.0.0.1 (lo carries no multicast, so discovery finds nothing here: the namespace test
 * in network-discover.test.ts finds real services).
 */

const NET_TOOLS = fileURLToPath(new URL('../fixtures/net-tools', import.meta.url));

interface SseEvent {
  event: string;
  data: any;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: ?(.*)$/m.exec(block)?.[1] ?? 'message';
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.replace(/^data: ?/, ''))
        .join('\n');
      return { event, data: data ? JSON.parse(data) : null };
    });
}

function headers(client: Client): Record<string, string> {
  return { cookie: `nexus_session=${client.cookie('nexus_session')}`, 'content-type': 'application/json' };
}

/** Runs a tool to its end and answers its events. */
async function runTool(agent: RunningAgent, client: Client, tool: string, body: unknown) {
  const res = await fetch(`${agent.url}/api/network/tools/${tool}`, {
    method: 'POST',
    headers: headers(client),
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    text,
    events: res.ok ? parseSse(text) : [],
  };
}

/** The agent's child processes named `comm` (from /proc), to see a tool's process come and go. */
function childrenNamed(parentPid: number, comm: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      if (ppid === parentPid && name === comm) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

let agent: RunningAgent;
let owner: Client;
let member: Client;
let limited: Client;
let tailscale: TailscaleSim;
let dns: DnsSim;
let wol: dgram.Socket;
const wolPackets: Buffer[] = [];
let listener: net.Server;
let listenerPort: number;
let hostRoot: string;

beforeAll(async () => {
  tailscale = await startTailscaleSim('running');
  dns = await startDnsSim({ 'kitchen.home.arpa': ['192.0.2.10', '192.0.2.11'] });
  wol = dgram.createSocket('udp4');
  wol.on('message', (m) => wolPackets.push(m));
  await new Promise<void>((r) => wol.bind(0, '127.0.0.1', r));
  listener = net.createServer((s) => s.end());
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  listenerPort = (listener.address() as net.AddressInfo).port;
  // A host root whose /proc/net/wireless shows an associated wlan0 (iw is the fixture on PATH).
  hostRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-hostroot-'));
  fs.mkdirSync(path.join(hostRoot, 'proc/net'), { recursive: true });
  fs.writeFileSync(
    path.join(hostRoot, 'proc/net/wireless'),
    'Inter-| sta-|   Quality        |   Discarded packets               | Missed | WE\n' +
      ' face | tus | link level noise |  nwid  crypt   frag  retry   misc | beacon | 22\n' +
      ' wlan0: 0000   54.  -56.  -256        0      0      0      0      0        0\n',
  );
  fs.mkdirSync(path.join(hostRoot, 'etc'));
  fs.writeFileSync(path.join(hostRoot, 'etc/resolv.conf'), 'nameserver 127.0.0.53\nsearch home.arpa\n');

  agent = await startAgent({
    env: {
      PATH: `${NET_TOOLS}:${process.env.PATH}`,
      NEXUS_HOST_ROOT: hostRoot,
      NEXUS_TAILSCALE_SOCKET: tailscale.socketPath,
      NEXUS_MDNS_INTERFACE: '127.0.0.1',
      NEXUS_MDNS_PORT: String(40000 + Math.floor(Math.random() * 20000)),
      NEXUS_WOL_PORT: String(wol.address().port),
    },
  });
  owner = new Client(agent.url);
  member = new Client(agent.url);
  limited = new Client(agent.url);
  await signUp(owner, { name: 'Olive Owner' });
  await signUp(member, { name: 'Mo Member' });
  await signUp(limited, { name: 'Ada Admin', role: 'admin' });
});

afterAll(async () => {
  await agent?.stop();
  await tailscale?.close().catch(() => undefined);
  await dns?.close();
  wol?.close();
  listener?.close();
  if (hostRoot) fs.rmSync(hostRoot, { recursive: true, force: true });
});

describe('network tools stream their output', () => {
  it('pings 127.0.0.1 line by line, then a done summary', async () => {
    const r = await runTool(agent, owner, 'ping', { target: '127.0.0.1', count: 2 });
    expect(r.status, r.text).toBe(200);
    expect(r.type).toContain('text/event-stream');
    const lines = r.events.filter((e) => e.event === 'line').map((e) => e.data.text as string);
    expect(lines.some((l) => /bytes from 127\.0\.0\.1/.test(l))).toBe(true);
    const done = r.events.at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data).toMatchObject({ ok: true, data: { transmitted: 2, received: 2, lossPercent: 0 } });
    expect(done.data.summary).toMatch(/2\/2 replies, 0% loss/);
  });

  it('traces the path to 127.0.0.1 with tracepath', async () => {
    const r = await runTool(agent, owner, 'traceroute', { target: '127.0.0.1' });
    expect(r.status, r.text).toBe(200);
    expect(r.events.filter((e) => e.event === 'line').length).toBeGreaterThan(0);
    expect(r.events.at(-1)).toMatchObject({ event: 'done', data: { ok: true, data: { hops: 1 } } });
  });

  it('resolves a name through the chosen resolver (a loopback DNS server)', async () => {
    const r = await runTool(agent, owner, 'dns', {
      name: 'kitchen.home.arpa',
      type: 'A',
      resolver: `127.0.0.1:${dns.port}`,
    });
    expect(r.status, r.text).toBe(200);
    const lines = r.events.filter((e) => e.event === 'line').map((e) => e.data.text);
    expect(lines).toEqual(expect.arrayContaining(['192.0.2.10', '192.0.2.11']));
    expect(r.events.at(-1)).toMatchObject({ event: 'done', data: { ok: true, summary: '2 A records' } });
    expect(dns.questions).toContain('kitchen.home.arpa A');

    const missing = await runTool(agent, owner, 'dns', {
      name: 'nowhere.home.arpa',
      resolver: `127.0.0.1:${dns.port}`,
    });
    expect(missing.events.at(-1)).toMatchObject({
      event: 'done',
      data: { ok: false, summary: 'No A record for nowhere.home.arpa' },
    });
  });

  it('checks a TCP port: open on a loopback listener, closed once it is gone', async () => {
    const open = await runTool(agent, owner, 'port', { target: '127.0.0.1', port: listenerPort });
    expect(open.events.at(-1)).toMatchObject({ event: 'done', data: { ok: true, data: { state: 'open' } } });

    const spare = net.createServer();
    await new Promise<void>((r) => spare.listen(0, '127.0.0.1', r));
    const closedPort = (spare.address() as net.AddressInfo).port;
    await new Promise<void>((r) => spare.close(() => r()));
    const closed = await runTool(agent, owner, 'port', { target: '127.0.0.1', port: closedPort });
    expect(closed.events.at(-1)).toMatchObject({
      event: 'done',
      data: { ok: false, data: { state: 'closed' } },
    });
  });

  it('sends a Wake-on-LAN magic packet: 6 × 0xFF then the MAC 16 times', async () => {
    const r = await runTool(agent, owner, 'wake', { mac: '00:11:22:AA:bb:cc', broadcast: '127.0.0.1' });
    expect(r.events.at(-1)).toMatchObject({ event: 'done', data: { ok: true, data: { bytes: 102 } } });
    const packet = (await waitFor(
      () => wolPackets[0],
      (p) => p !== undefined,
      { what: 'the magic packet' },
    ))!;
    const mac = Buffer.from('001122aabbcc', 'hex');
    expect(packet.length).toBe(102);
    expect(packet.subarray(0, 6)).toEqual(Buffer.alloc(6, 0xff));
    for (let i = 0; i < 16; i += 1) expect(packet.subarray(6 + i * 6, 12 + i * 6)).toEqual(mac);
  });

  it('browses mDNS for the set time and ends with a done summary', async () => {
    const r = await runTool(agent, owner, 'discover', { seconds: 1 });
    expect(r.status, r.text).toBe(200);
    expect(r.events[0]).toMatchObject({ event: 'line' });
    expect(r.events.at(-1)).toMatchObject({ event: 'done', data: { ok: true, summary: '0 services found' } });
  });

  it('streams the throughput download and bounds the upload to the requested size', async () => {
    const h = headers(owner);
    const down = await fetch(`${agent.url}/api/network/tools/throughput?direction=download&megabytes=2`, {
      method: 'POST',
      headers: { cookie: h.cookie! },
    });
    expect(down.status).toBe(200);
    expect((await down.arrayBuffer()).byteLength).toBe(2 * 1024 * 1024);

    const up = await fetch(`${agent.url}/api/network/tools/throughput?direction=upload&megabytes=2`, {
      method: 'POST',
      headers: { cookie: h.cookie!, 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(2 * 1024 * 1024, 7),
    });
    const events = parseSse(await up.text());
    expect(up.status).toBe(200);
    expect(events.at(-1)).toMatchObject({
      event: 'done',
      data: { ok: true, data: { bytes: 2 * 1024 * 1024 } },
    });

    // Above the app's 1 MB body limit is allowed only up to the size asked for.
    const tooBig = await fetch(`${agent.url}/api/network/tools/throughput?direction=upload&megabytes=1`, {
      method: 'POST',
      headers: { cookie: h.cookie!, 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(1024 * 1024 + 1),
    });
    expect(tooBig.status).toBe(413);
    const badDirection = await fetch(`${agent.url}/api/network/tools/throughput?direction=sideways`, {
      method: 'POST',
      headers: { cookie: h.cookie! },
    });
    expect(badDirection.status).toBe(400);
  });
});

describe('network tools refuse what they must', () => {
  it.each([
    ['ping', { target: '-f' }],
    ['ping', { target: '--help' }],
    ['ping', { target: '-c 1000 127.0.0.1' }],
    ['ping', { target: '127.0.0.1; reboot' }],
    ['ping', { target: '$(id)' }],
    ['ping', { target: '127.0.0.1', count: 500 }],
    ['traceroute', { target: '-n' }],
    ['traceroute', { target: 'host name' }],
    ['port', { target: '-oProxyCommand=x', port: 22 }],
    ['port', { target: '127.0.0.1', port: 0 }],
    ['dns', { name: '-x', resolver: '127.0.0.1' }],
    ['dns', { name: 'example.org', resolver: 'evil.example.org' }],
    ['dns', { name: 'example.org', resolver: '127.0.0.1:99999' }],
    ['wake', { mac: 'not-a-mac' }],
    ['wake', { mac: '00:11:22:33:44:55', broadcast: '-1' }],
    ['wake', { mac: '00:11:22:33:44:55', broadcast: 'ff02::1' }],
    ['ping', { target: '127.0.0.1', extra: '--flood' }],
  ])('%s %j → 400', async (tool, body) => {
    const r = await runTool(agent, owner, tool, body);
    expect(r.status, r.text).toBe(400);
    expect(JSON.parse(r.text).message).toEqual(expect.any(String));
  });

  it('refuses an unknown tool and a body that is not JSON with 400', async () => {
    expect((await runTool(agent, owner, 'nmap', { target: '127.0.0.1' })).status).toBe(400);
    const res = await fetch(`${agent.url}/api/network/tools/ping`, {
      method: 'POST',
      headers: headers(owner),
      body: 'target=127.0.0.1',
    });
    expect(res.status).toBe(400);
  });

  it('is for admins: a member gets 403, a stranger 401', async () => {
    expect((await runTool(agent, member, 'ping', { target: '127.0.0.1', count: 1 })).status).toBe(403);
    const stranger = await fetch(`${agent.url}/api/network/tools/ping`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target: '127.0.0.1' }),
    });
    expect(stranger.status).toBe(401);
    const throughput = await fetch(
      `${agent.url}/api/network/tools/throughput?direction=download&megabytes=1`,
      {
        method: 'POST',
        headers: { cookie: headers(member).cookie! },
      },
    );
    expect(throughput.status).toBe(403);
  });

  it('kills the child process when the browser goes away, and frees the slot', async () => {
    const gone = new AbortController();
    const res = await fetch(`${agent.url}/api/network/tools/ping`, {
      method: 'POST',
      headers: headers(owner),
      body: JSON.stringify({ target: '127.0.0.1', count: 20 }),
      signal: gone.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read(); // the first line came: ping runs
    const pid = agent.process.pid!;
    expect(childrenNamed(pid, 'ping').length).toBe(1);

    // A second run while one runs is refused (one at a time per user).
    expect((await runTool(agent, owner, 'ping', { target: '127.0.0.1', count: 1 })).status).toBe(429);

    gone.abort();
    await waitFor(
      () => childrenNamed(pid, 'ping').length,
      (n) => n === 0,
      { timeoutMs: 5000, what: 'ping to be killed' },
    );
    // The slot is back: the next run starts.
    await waitFor(
      async () => (await runTool(agent, owner, 'port', { target: '127.0.0.1', port: listenerPort })).status,
      (status) => status === 200,
      { what: 'the slot to be released' },
    );
  });

  it('answers 429 past 30 runs a minute for one user, other users unaffected', async () => {
    for (let i = 0; i < 30; i += 1) {
      const r = await runTool(agent, limited, 'wake', { mac: '00:11:22:33:44:55', broadcast: '127.0.0.1' });
      expect(r.status, r.text).toBe(200);
    }
    const refused = await fetch(`${agent.url}/api/network/tools/wake`, {
      method: 'POST',
      headers: headers(limited),
      body: JSON.stringify({ mac: '00:11:22:33:44:55', broadcast: '127.0.0.1' }),
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await runTool(agent, owner, 'port', { target: '127.0.0.1', port: listenerPort })).status).toBe(
      200,
    );
  });
});

describe('network info', () => {
  it('answers interfaces, gateway, DNS, Wi-Fi and Tailscale to any signed-in user; /api/system/network the same figures', async () => {
    const res = await member.get('/api/network/info');
    expect(res.status, res.text).toBe(200);
    const info = networkPageSchema.parse(res.json);
    expect(info.dns).toEqual({ nameservers: ['127.0.0.53'], search: ['home.arpa'] });
    expect(info.wifi).toEqual([
      {
        interface: 'wlan0',
        ssid: 'Nexus Home',
        signalDbm: -56,
        quality: 77,
        txBitrate: 390,
        frequencyMhz: 5180,
      },
    ]);
    expect(info.interfaces.some((i) => i.name === 'lo')).toBe(true);
    expect(info.tailscale).toMatchObject({
      running: true,
      message: null,
      state: {
        backendState: 'Running',
        hostName: 'nexus',
        tailnet: 'owner@example.com',
        tailscaleIps: ['100.101.102.103', 'fd7a:115c:a1e0::1'],
        exitNode: { hostName: 'router', online: true, tailscaleIps: ['100.64.0.1', 'fd7a:115c:a1e0::2'] },
      },
    });
    expect(info.tailscale.state!.peers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ hostName: 'phone', online: false, exitNode: false }),
        expect.objectContaining({ hostName: 'router', online: true, exitNode: true }),
      ]),
    );
    // The agent asked tailscaled's LocalAPI with the Host header tailscaled insists on.
    expect(tailscale.requests).toContainEqual({ path: '/localapi/v0/status', host: 'local-tailscaled.sock' });

    const system = await member.get('/api/system/network');
    expect(system.status).toBe(200);
    const sys = networkInfoSchema.parse(system.json);
    expect(sys.wifi).toEqual(info.wifi);
    expect(sys.dns).toEqual(info.dns);

    expect((await new Client(agent.url).get('/api/network/info')).status).toBe(401);
  });

  it('reads Tailscale from the LocalAPI in /api/vpn/status too', async () => {
    const status = vpnStatusSchema.parse((await owner.get('/api/vpn/status')).json);
    expect(status.tailscale).toMatchObject({ backendState: 'Running', tailnet: 'owner@example.com' });
  });

  it('says when tailscaled is stopped, and when it is not running on the hub at all', async () => {
    tailscale.state = 'stopped';
    const stopped = await waitFor(
      async () => networkPageSchema.parse((await owner.get('/api/network/info')).json),
      (info) => info.tailscale.state?.backendState === 'Stopped',
      { timeoutMs: 15_000, what: 'Tailscale stopped' },
    );
    expect(stopped.tailscale).toMatchObject({
      running: true,
      state: { tailnet: null, peers: [], exitNode: null },
    });

    await tailscale.close();
    const absent = await waitFor(
      async () => networkPageSchema.parse((await owner.get('/api/network/info')).json),
      (info) => !info.tailscale.running,
      { timeoutMs: 15_000, what: 'Tailscale absent' },
    );
    expect(absent.tailscale).toEqual({
      running: false,
      message: 'Tailscale is not running on this hub',
      state: null,
    });
  });
});
