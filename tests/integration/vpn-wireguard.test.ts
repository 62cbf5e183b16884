import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { createLab, netnsUnavailable, routeDevice, wgDump, wgGenKey, type Netns } from '../support/netns.js';
import { waitFor } from '../support/wait-for.js';

/**
 * Real WireGuard (issue 17), as root, in network namespaces this file creates and removes:
 * - the agent (a child process in the test's namespace) runs the hub's server; a "phone" namespace
 *   dials it with the client config the API handed out, over a veth pair;
 * - two "provider" namespaces run WireGuard servers; the agent's uplinks connect to both, its monitor
 *   probes a target both serve, and cutting the primary's link makes it switch to the backup and back.
 * Every address is in 198.18.0.0/15 inside those namespaces (see tests/support/netns.ts).
 */
const skip = netnsUnavailable();
const tag = String(process.pid % 1000);
const SERVER_IF = `nxwg${tag}`;
const LISTEN_PORT = 41000 + (process.pid % 1000);
const PROBE_TARGET = '198.18.250.1';
const INTERVAL_S = 2;
const FAIL_AFTER = 2;
const RECOVER_AFTER = 2;

describe.skipIf(skip)(
  `WireGuard server, peers and uplink failover ${skip ? `(skipped: ${skip})` : ''}`,
  () => {
    const lab = createLab(tag);
    let agent: RunningAgent;
    let owner: Client;
    let member: Client;
    let phone: Netns;
    let upA: Netns;
    let upB: Netns;
    const secrets: string[] = [];
    let phoneConfig = '';
    let peerId = 0;

    beforeAll(async () => {
      lab.track(SERVER_IF);
      lab.track('nexus-up0');
      lab.track('nexus-up1');
      lab.trackRule(51830);
      lab.trackRule(51831);
      phone = lab.addNamespace('p', 1);
      upA = lab.addNamespace('a', 2);
      upB = lab.addNamespace('b', 3);
      agent = await startAgent();
      owner = new Client(agent.url);
      member = new Client(agent.url);
      await signUp(owner, { name: 'Olive Owner' });
      await signUp(member, { name: 'Mo Member' });
    });

    afterAll(async () => {
      if (process.env.WG_TEST_LOG) fs.writeFileSync(process.env.WG_TEST_LOG, agent?.logs.join('\n') ?? '');
      await agent?.stop();
      lab.cleanup();
      if (agent) fs.rmSync(agent.dataDir, { recursive: true, force: true });
    });

    it('refuses members on every admin route, and bad input with 400', async () => {
      const routes: [string, string, unknown?][] = [
        ['GET', '/api/vpn/server'],
        [
          'PUT',
          '/api/vpn/server',
          { interface: 'wg9', listenPort: 51820, address: '198.18.99.1/24', endpoint: 'x:1' },
        ],
        ['GET', '/api/vpn/peers'],
        ['POST', '/api/vpn/peers', { name: 'sneaky' }],
        ['GET', '/api/vpn/peers/1/config'],
        ['PATCH', '/api/vpn/peers/1', { enabled: false }],
        ['DELETE', '/api/vpn/peers/1'],
        ['GET', '/api/vpn/uplinks'],
        [
          'PUT',
          '/api/vpn/uplinks',
          { probeTarget: '198.18.250.1', intervalSeconds: 5, failAfter: 1, recoverAfter: 1 },
        ],
        ['GET', '/api/vpn/events'],
      ];
      for (const [method, url, body] of routes) {
        const res = await member.request(method, url, body);
        expect(res.status, `${method} ${url} as a member`).toBe(403);
      }
      const bad: [string, string, unknown][] = [
        [
          'PUT',
          '/api/vpn/server',
          { interface: 'wg0; reboot', listenPort: 51820, address: '198.18.99.1/24', endpoint: 'h:1' },
        ],
        [
          'PUT',
          '/api/vpn/server',
          { interface: 'wg0', listenPort: 70000, address: '198.18.99.1/24', endpoint: 'h:1' },
        ],
        [
          'PUT',
          '/api/vpn/server',
          { interface: 'wg0', listenPort: 51820, address: '198.18.99.0/24', endpoint: 'h:1' },
        ],
        [
          'PUT',
          '/api/vpn/server',
          { interface: 'wg0', listenPort: 51820, address: 'fd00::1/64', endpoint: 'h:1' },
        ],
        ['POST', '/api/vpn/peers', { name: '' }],
        [
          'PUT',
          '/api/vpn/uplinks',
          {
            primary: '[Interface]\nPostUp = rm -rf /\n',
            probeTarget: PROBE_TARGET,
            intervalSeconds: 5,
            failAfter: 1,
            recoverAfter: 1,
          },
        ],
        [
          'PUT',
          '/api/vpn/uplinks',
          { probeTarget: '-f 198.18.250.1', intervalSeconds: 5, failAfter: 1, recoverAfter: 1 },
        ],
        [
          'PUT',
          '/api/vpn/uplinks',
          { probeTarget: PROBE_TARGET, intervalSeconds: 0, failAfter: 1, recoverAfter: 1 },
        ],
      ];
      for (const [method, url, body] of bad) {
        const res = await owner.request(method, url, body);
        expect(res.status, `${method} ${url} ${JSON.stringify(body)}: ${res.text}`).toBe(400);
        expect(res.json).toHaveProperty('message');
      }
    });

    it('runs the server, and a phone with the config the API handed out completes a real handshake', async () => {
      const put = await owner.put('/api/vpn/server', {
        interface: SERVER_IF,
        listenPort: LISTEN_PORT,
        address: '198.18.100.1/24',
        endpoint: `${phone.hostAddress}:${LISTEN_PORT}`,
      });
      expect(put.status, put.text).toBe(200);
      expect(put.json).toMatchObject({ configured: true, running: true, problem: null });
      expect(['kernel', 'wireguard-go']).toContain(put.json.implementation);
      expect(JSON.stringify(put.json)).not.toMatch(/privateKey/i);

      const created = await owner.post('/api/vpn/peers', { name: 'Olive’s phone', keepalive: 25 });
      expect(created.status, created.text).toBe(201);
      const { peer, config, qrSvg } = created.json as {
        peer: { id: number; address: string };
        config: string;
        qrSvg: string;
      };
      expect(peer.address).toBe('198.18.100.2/32');
      expect(qrSvg).toMatch(/^<svg/);
      expect(config).toContain(`Endpoint = ${phone.hostAddress}:${LISTEN_PORT}`);
      peerId = peer.id;
      phoneConfig = config;
      secrets.push(/PrivateKey = (\S+)/.exec(config)![1]!, /PresharedKey = (\S+)/.exec(config)![1]!);

      // wg-quick's job, by hand: the [Interface] Address goes to `ip`, the rest to `wg setconf`.
      const stripped = config.replace(/^(Address|DNS) = .*\n/gm, '');
      lab.wireguard(phone, `wgphone${tag}`, stripped, ['198.18.100.2/32'], ['198.18.100.0/24']);
      phone.exec('ping', ['-n', '-c', '2', '-W', '3', '198.18.100.1']);

      const afterPing = await waitFor(
        async () =>
          ((await owner.get('/api/vpn/peers')).json as { peers: Record<string, unknown>[] }).peers[0]!,
        (p) => p.latestHandshake !== null && (p.rxBytes as number) > 0 && (p.txBytes as number) > 0,
        { what: 'the phone’s handshake in GET /api/vpn/peers' },
      );
      expect(afterPing).toMatchObject({
        online: true,
        endpoint: `${phone.address}:${afterPing.endpoint!.toString().split(':')[1]}`,
      });
      phone.exec('ping', ['-n', '-c', '3', '-i', '0.2', '-W', '3', '198.18.100.1']);
      const later = await waitFor(
        async () =>
          ((await owner.get('/api/vpn/peers')).json as { peers: Record<string, number>[] }).peers[0]!,
        (p) => p.rxBytes! > (afterPing.rxBytes as number) && p.txBytes! > (afterPing.txBytes as number),
        { what: 'the transfer counters to move' },
      );
      expect(later.rxBytes).toBeGreaterThan(afterPing.rxBytes as number);
    });

    it('hands the client config out once, then 410', async () => {
      const first = await owner.get(`/api/vpn/peers/${peerId}/config`);
      expect(first.status).toBe(200);
      expect(first.text).toBe(phoneConfig);
      const again = await owner.get(`/api/vpn/peers/${peerId}/config`);
      expect(again.status).toBe(410);
      const list = await owner.get('/api/vpn/peers');
      expect(list.json.peers[0].configAvailable).toBe(false);
    });

    it('disables and removes a peer on the interface itself', async () => {
      const extra = await owner.post('/api/vpn/peers', {
        name: 'laptop',
        clientAllowedIps: ['198.18.100.0/24'],
      });
      expect(extra.status).toBe(201);
      const pub = extra.json.peer.publicKey as string;
      secrets.push(/PrivateKey = (\S+)/.exec(extra.json.config as string)![1]!);
      expect(wgDump(SERVER_IF)).toContain(pub);
      const off = await owner.request('PATCH', `/api/vpn/peers/${extra.json.peer.id}`, { enabled: false });
      expect(off.status).toBe(200);
      expect(wgDump(SERVER_IF)).not.toContain(pub);
      expect((await owner.delete(`/api/vpn/peers/${extra.json.peer.id}`)).status).toBe(204);
      expect((await owner.delete(`/api/vpn/peers/${extra.json.peer.id}`)).status).toBe(404);
    });

    it(
      'fails over to the backup uplink when the primary is cut, and back once it recovers',
      { timeout: 90_000 },
      async () => {
        // Two providers, each a WireGuard server in its namespace that also answers the probe target.
        const agentKeys = [wgGenKey(), wgGenKey()];
        const providers = [upA, upB].map((ns, i) => {
          const keys = wgGenKey();
          const tunnel = `198.18.${201 + i}`;
          lab.wireguard(
            ns,
            `wgprov${tag}${i}`,
            `[Interface]\nPrivateKey = ${keys.privateKey}\nListenPort = 51820\n\n[Peer]\nPublicKey = ${agentKeys[i]!.publicKey}\nAllowedIPs = ${tunnel}.2/32\n`,
            [`${tunnel}.1/24`],
          );
          ns.exec('ip', ['address', 'add', `${PROBE_TARGET}/32`, 'dev', 'lo']);
          secrets.push(keys.privateKey, agentKeys[i]!.privateKey);
          return `[Interface]\nPrivateKey = ${agentKeys[i]!.privateKey}\nAddress = ${tunnel}.2/32\nDNS = 198.18.250.53\n\n[Peer]\nPublicKey = ${keys.publicKey}\nEndpoint = ${ns.address}:51820\nAllowedIPs = 198.18.250.0/24\nPersistentKeepalive = 25\n`;
        });

        const put = await owner.put('/api/vpn/uplinks', {
          primary: providers[0],
          backup: providers[1],
          probeTarget: PROBE_TARGET,
          intervalSeconds: INTERVAL_S,
          failAfter: FAIL_AFTER,
          recoverAfter: RECOVER_AFTER,
        });
        expect(put.status, put.text).toBe(200);
        expect(put.text).not.toContain(agentKeys[0]!.privateKey);
        const uplinks = async () => (await owner.get('/api/vpn/uplinks')).json;
        await waitFor(
          uplinks,
          (u) => u.active === 'primary' && u.uplinks.every((x: { healthy: boolean }) => x.healthy),
          {
            what: 'both uplinks healthy, primary active',
          },
        );
        expect(routeDevice(PROBE_TARGET)).toBe('nexus-up0');
        const status = await waitFor(
          async () => (await owner.get('/api/vpn/status')).json,
          (s) => s.status === 'connected' && s.latency !== null,
          { what: 'status connected over the uplink', timeoutMs: 15_000 },
        );
        expect(status).toMatchObject({
          provider: 'wireguard',
          failover: { activeProvider: 'wireguard', backupProvider: 'wireguard' },
        });

        // Cut the primary provider's link (inside its namespace: the host's route stays, packets die on the veth).
        const cutAt = Date.now();
        upA.link('down');
        await waitFor(uplinks, (u) => u.active === 'backup', {
          what: 'the switch to the backup',
          timeoutMs: (FAIL_AFTER + 1) * INTERVAL_S * 1000 + 1000,
        });
        const switchMs = Date.now() - cutAt;
        expect(routeDevice(PROBE_TARGET)).toBe('nexus-up1');
        expect(switchMs).toBeLessThanOrEqual((FAIL_AFTER + 1) * INTERVAL_S * 1000 + 1000);

        upA.link('up');
        const back = await waitFor(uplinks, (u) => u.active === 'primary', {
          what: 'the switch back to the primary',
          timeoutMs: (RECOVER_AFTER + 2) * INTERVAL_S * 1000 + 2000,
        });
        expect(back.uplinks[0].consecutiveSuccesses).toBeGreaterThanOrEqual(RECOVER_AFTER);
        expect(routeDevice(PROBE_TARGET)).toBe('nexus-up0');

        const events = (await owner.get('/api/vpn/events')).json.events as {
          kind: string;
          from: string;
          to: string;
        }[];
        expect(events.find((e) => e.kind === 'failover')).toMatchObject({ from: 'primary', to: 'backup' });
        expect(events.find((e) => e.kind === 'failback')).toMatchObject({ from: 'backup', to: 'primary' });
        expect(events.findIndex((e) => e.kind === 'failback')).toBeLessThan(
          events.findIndex((e) => e.kind === 'failover'),
        );
      },
    );

    it('never shows a key in an answer, a log line or the database file', async () => {
      const answers = await Promise.all(
        ['/api/vpn/server', '/api/vpn/peers', '/api/vpn/uplinks', '/api/vpn/events', '/api/vpn/status'].map(
          async (p) => (await owner.get(p)).text,
        ),
      );
      const db = fs
        .readdirSync(agent.dataDir)
        .filter((f) => f.includes('.db') || f.endsWith('.sqlite'))
        .map((f) => fs.readFileSync(path.join(agent.dataDir, f)).toString('latin1'))
        .join('');
      for (const secret of secrets) {
        for (const a of answers) expect(a).not.toContain(secret);
        expect(agent.logs.join('\n')).not.toContain(secret);
        expect(db).not.toContain(secret);
      }
      // No config file left in the data directory either.
      const wgDir = path.join(agent.dataDir, 'wireguard');
      expect(fs.existsSync(wgDir) ? fs.readdirSync(wgDir) : []).toEqual([]);
    });

    it('restores the interface and its peers after a restart', { timeout: 60_000 }, async () => {
      const peers = (await owner.get('/api/vpn/peers')).json.peers as { publicKey: string }[];
      await agent.stop();
      // As after a reboot: the interface is gone.
      fs.rmSync(`/var/run/wireguard/${SERVER_IF}.sock`, { force: true });
      try {
        execFileSync('ip', ['link', 'del', SERVER_IF]);
      } catch {
        // already gone
      }
      agent = await startAgent({ dataDir: agent.dataDir });
      await waitFor(
        () => {
          try {
            return wgDump(SERVER_IF);
          } catch {
            return '';
          }
        },
        (dump) => peers.every((p) => dump.includes(p.publicKey)),
        { what: 'the server interface restored with its peers' },
      );
    });
  },
);
