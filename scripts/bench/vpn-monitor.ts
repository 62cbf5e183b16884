/**
 * Benchmark (issue 17): the uplink health monitor and status reads, with 2 tunnels and 20 peers.
 * - CPU of the agent (utime+stime, and its reaped children such as `ping`, from /proc/<pid>/stat)
 *   over BENCH_SECONDS (60 by default) while a client reads GET /api/vpn/status every 2 s;
 *   target: under 1 % of one core.
 * - The time from cutting the primary provider's link to the switch to the backup; target: within
 *   3 probe intervals.
 *
 *   npx tsc -b agent && npx tsx scripts/bench/vpn-monitor.ts
 *
 * Needs root, wireguard-tools and wireguard-go (scripts/ensure-test-deps.sh). Uses only network
 * namespaces it creates (tests/support/netns.ts) and removes them at the end.
 */
import fs from 'node:fs';
import { startAgent } from '../../tests/support/agent.js';
import { signUp } from '../../tests/support/auth.js';
import { Client } from '../../tests/support/http.js';
import { createLab, netnsUnavailable, routeDevice, wgGenKey } from '../../tests/support/netns.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const INTERVAL_S = Number(process.env.BENCH_INTERVAL ?? 5);
const FAIL_AFTER = 2;
const PROBE_TARGET = '198.18.250.1';
const TICKS_PER_SECOND = 100;
const say = (line: string) => process.stdout.write(`${line}\n`);

const why = netnsUnavailable();
if (why) {
  process.stdout.write(`skipped: ${why}\n`);
  process.exit(0);
}

function cpuTicks(pid: number): number {
  // Fields after the command name: utime(14) stime(15) cutime(16) cstime(17), 1-based in proc(5).
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(f[i]), 0);
}

const tag = 'bm';
const lab = createLab(tag);
lab.track('nxwgbench');
lab.track('nexus-up0');
lab.track('nexus-up1');
lab.trackRule(51830);
lab.trackRule(51831);
const agent = await startAgent();
try {
  const owner = new Client(agent.url);
  await signUp(owner, { name: 'Bench Owner' });
  await owner.put('/api/vpn/server', {
    interface: 'nxwgbench',
    listenPort: 41999,
    address: '198.18.100.1/24',
    endpoint: 'hub.example.org:41999',
  });
  for (let i = 0; i < 20; i++) await owner.post('/api/vpn/peers', { name: `device ${i + 1}`, keepalive: 25 });

  const upA = lab.addNamespace('a', 12);
  const upB = lab.addNamespace('b', 13);
  const configs = [upA, upB].map((ns, i) => {
    const provider = wgGenKey();
    const mine = wgGenKey();
    const tunnel = `198.18.${211 + i}`;
    lab.wireguard(
      ns,
      `wgbench${i}`,
      `[Interface]\nPrivateKey = ${provider.privateKey}\nListenPort = 51820\n\n[Peer]\nPublicKey = ${mine.publicKey}\nAllowedIPs = ${tunnel}.2/32\n`,
      [`${tunnel}.1/24`],
    );
    ns.exec('ip', ['address', 'add', `${PROBE_TARGET}/32`, 'dev', 'lo']);
    return `[Interface]\nPrivateKey = ${mine.privateKey}\nAddress = ${tunnel}.2/32\n\n[Peer]\nPublicKey = ${provider.publicKey}\nEndpoint = ${ns.address}:51820\nAllowedIPs = 198.18.250.0/24\n`;
  });
  const put = await owner.put('/api/vpn/uplinks', {
    primary: configs[0],
    backup: configs[1],
    probeTarget: PROBE_TARGET,
    intervalSeconds: INTERVAL_S,
    failAfter: FAIL_AFTER,
    recoverAfter: 2,
  });
  if (put.status !== 200) throw new Error(`PUT /api/vpn/uplinks: ${put.status} ${put.text}`);
  const uplinks = async () =>
    (await owner.get('/api/vpn/uplinks')).json as { active: string; uplinks: { healthy: boolean | null }[] };
  const until = async (ok: (u: Awaited<ReturnType<typeof uplinks>>) => boolean, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const u = await uplinks();
      if (ok(u)) return;
      if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(u)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await until((u) => u.active === 'primary' && u.uplinks.every((x) => x.healthy), 4 * INTERVAL_S * 1000);

  // CPU over BENCH_SECONDS with a dashboard reading the status every 2 s.
  const pid = agent.process.pid!;
  const startTicks = cpuTicks(pid);
  const started = Date.now();
  let reads = 0;
  while (Date.now() - started < SECONDS * 1000) {
    const res = await owner.get('/api/vpn/status');
    if (res.status !== 200) throw new Error(`GET /api/vpn/status: ${res.status}`);
    reads++;
    await new Promise((r) => setTimeout(r, 2000));
  }
  const elapsed = (Date.now() - started) / 1000;
  const cpuPercent = ((cpuTicks(pid) - startTicks) / TICKS_PER_SECOND / elapsed) * 100;

  // Failover: cut the primary's link, time the switch (polled every 50 ms).
  const cutAt = Date.now();
  upA.link('down');
  await until((u) => u.active === 'backup', (FAIL_AFTER + 3) * INTERVAL_S * 1000);
  const switchMs = Date.now() - cutAt;
  const device = routeDevice(PROBE_TARGET);

  say(`vpn-monitor benchmark: 2 uplinks probed every ${INTERVAL_S} s, 20 peers, status read every 2 s`);
  say(
    `  agent CPU over ${elapsed.toFixed(0)} s (${reads} status reads): ${cpuPercent.toFixed(2)} % of one core (target < 1 %)`,
  );
  say(
    `  failover after cutting the primary: ${(switchMs / 1000).toFixed(2)} s = ${(switchMs / 1000 / INTERVAL_S).toFixed(2)} probe intervals (failAfter ${FAIL_AFTER}; target within 3); route now via ${device}`,
  );
} finally {
  await agent.stop();
  lab.cleanup();
  fs.rmSync(agent.dataDir, { recursive: true, force: true });
}
