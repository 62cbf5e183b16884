import { afterAll, describe, expect, it } from 'vitest';
import { jetsonReportSchema } from '../../agent/src/contract/index.js';
import { orinNanoJetPack61, plainPc, type HostTree } from '../fixtures/jetson-hosts.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';

/** GET /api/diagnostics/jetson against the real agent with NEXUS_HOST_ROOT pointed at fixture trees. */

const cleanup: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function agentOn(tree: HostTree): Promise<{ agent: RunningAgent; admin: Client }> {
  const agent = await startAgent({ env: { NEXUS_HOST_ROOT: tree.root } });
  cleanup.push(
    () => tree.remove(),
    () => agent.stop(),
  );
  const admin = new Client(agent.url);
  await signUp(admin);
  return { agent, admin };
}

describe('the Jetson check endpoint', () => {
  it('reports an Orin Nano on JetPack 6.1 from the host root it is given', async () => {
    const { admin } = await agentOn(orinNanoJetPack61());
    const res = await admin.get('/api/diagnostics/jetson');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const report = jetsonReportSchema.parse(res.json);
    expect(report.isJetson).toBe(true);
    expect(report.board.model).toBe('NVIDIA Jetson Orin Nano Developer Kit');
    expect(report.jetpack?.version).toBe('6.1');
    expect(report.l4t?.release).toBe('36.4.0');
    expect(report.cuda?.version).toBe('12.6.68');
    expect(report.powerMode?.current?.name).toBe('15W');
    expect(report.thermal.length).toBe(4);
    expect(report.powerRails.map((r) => r.name)).toContain('VDD_IN');
    expect(report.checks.find((c) => c.id === 'container-runtime')?.status).toBe('pass');
  });

  it('says a PC is not a Jetson and still checks it', async () => {
    const { admin } = await agentOn(plainPc());
    const report = jetsonReportSchema.parse((await admin.get('/api/diagnostics/jetson')).json);
    expect(report.isJetson).toBe(false);
    expect(report.checks.map((c) => c.id)).toEqual(
      expect.arrayContaining(['board', 'cpu-clocks', 'thermal', 'memory', 'swap']),
    );
  });

  it('is for admins only', async () => {
    const { agent } = await agentOn(plainPc());
    expect((await new Client(agent.url).get('/api/diagnostics/jetson')).status).toBe(401);
    const user = new Client(agent.url);
    await signUp(user);
    expect((await user.get('/api/diagnostics/jetson')).status).toBe(403);
  });
});
