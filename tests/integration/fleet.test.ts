import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { SWARM_TEST_IMAGE, startSwarmEngine, swarmUnavailable, type SwarmEngine } from '../support/swarm.js';

/**
 * The fleet (issue 24) on a real swarm: Debian's dockerd with roots and socket of its own
 * (tests/support/swarm.ts), started outside a swarm so the console creates it. Services run
 * busybox on the host network; the swarm listens on an address of its own in 127/8.
 */
const run = randomBytes(3).toString('hex');
const serviceName = `nx-${run}-voice`;
const octet = () => 1 + Math.floor(Math.random() * 253);
const advertiseAddr = `127.${octet()}.${octet()}.${octet()}`;

let engine: SwarmEngine;
let agent: RunningAgent;
let owner: Client;
let member: Client;
let anonymous: Client;
/** Every answer the member got: no join token may appear in any of them. */
const memberAnswers: string[] = [];

const patch = (client: Client, path: string, body: unknown) => client.request('PATCH', path, body);

async function asMember(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await member.request(method, path, body);
  memberAnswers.push(res.text);
  return res;
}

type Service = {
  id: string;
  name: string;
  image: string;
  replicas: number | null;
  running: number;
  canRollback: boolean;
  updateStatus: { state: string } | null;
  tasks: {
    id: string;
    nodeId: string | null;
    nodeHostname: string | null;
    state: string;
    desiredState: string;
    error: string | null;
    message: string | null;
    image: string | null;
  }[];
};

async function service(): Promise<Service | undefined> {
  const res = await owner.get('/api/fleet/services');
  expect(res.status, res.text).toBe(200);
  return (res.json.services as Service[]).find((s) => s.name === serviceName);
}

async function auditTypes(): Promise<string[]> {
  const res = await owner.get(
    '/api/audit?type=fleet_created,fleet_joined,fleet_left,fleet_token_rotated,fleet_node_changed&limit=200',
  );
  expect(res.status, res.text).toBe(200);
  return (res.json.events as { type: string }[]).map((e) => e.type);
}

describe.skipIf(swarmUnavailable())('the fleet on a real swarm', () => {
  beforeAll(async () => {
    engine = await startSwarmEngine({ swarm: false });
    agent = await startAgent({ env: { DOCKER_HOST: engine.dockerHost } });
    owner = new Client(agent.url);
    member = new Client(agent.url);
    anonymous = new Client(agent.url);
    await signUp(owner, { name: 'Owner Person' });
    const m = await signUp(member, { name: 'Member Person' });
    expect(m.role).toBe('user');
  }, 120_000);

  afterAll(async () => {
    try {
      engine?.cli(['service', 'rm', serviceName]);
    } catch {
      // Never created, or the swarm is gone.
    }
    await agent?.stop();
    await engine?.stop();
  }, 60_000);

  it('outside a swarm: the state says so and the lists answer 409 in words', async () => {
    const status = await owner.get('/api/fleet');
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({ state: 'inactive', role: null, canManage: false, nodes: null });
    expect((await anonymous.get('/api/fleet')).status).toBe(401);
    for (const path of ['/api/fleet/nodes', '/api/fleet/services', '/api/fleet/join-tokens']) {
      const res = await owner.get(path);
      expect(res.status, path).toBe(409);
      expect(res.json.message).toBe('This hub is not in a fleet');
    }
    const leave = await owner.post('/api/fleet/leave', {});
    expect(leave.status).toBe(409);
    expect(leave.json.message).toBe('This hub is not in a fleet');
  });

  it('an admin creates the fleet; a member may not; a second init is a conflict', async () => {
    expect((await asMember('POST', '/api/fleet/init', { advertiseAddr })).status).toBe(403);
    expect((await owner.post('/api/fleet/init', { advertiseAddr: 'not an address!' })).status).toBe(400);
    const res = await owner.post('/api/fleet/init', { advertiseAddr, listenAddr: `${advertiseAddr}:2377` });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      state: 'active',
      role: 'manager',
      canManage: true,
      nodes: 1,
      managers: 1,
    });
    expect(res.json.nodeAddr).toBe(advertiseAddr);
    expect(engine.cli(['info', '--format', '{{.Swarm.LocalNodeState}}']).trim()).toBe('active');
    engine.nodeId = res.json.nodeId;

    const again = await owner.post('/api/fleet/init', { advertiseAddr });
    expect(again.status).toBe(409);
    expect(again.json.message).toMatch(/already in a fleet/);
    expect(await auditTypes()).toContain('fleet_created');
  });

  it('join tokens are for admins only, never cached, and rotate', async () => {
    const res = await owner.get('/api/fleet/join-tokens');
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const worker = engine.cli(['swarm', 'join-token', '-q', 'worker']).trim();
    const manager = engine.cli(['swarm', 'join-token', '-q', 'manager']).trim();
    expect(res.json.worker.token).toBe(worker);
    expect(res.json.manager.token).toBe(manager);
    expect(res.json.worker.command).toBe(`docker swarm join --token ${worker} ${advertiseAddr}:2377`);

    expect((await asMember('GET', '/api/fleet/join-tokens')).status).toBe(403);
    expect((await asMember('POST', '/api/fleet/join-tokens/rotate', { role: 'worker' })).status).toBe(403);
    expect((await asMember('GET', '/api/fleet')).status).toBe(200);
    expect((await asMember('GET', '/api/fleet/nodes')).status).toBe(200);
    expect((await asMember('GET', '/api/fleet/services')).status).toBe(200);

    const rotated = await owner.post('/api/fleet/join-tokens/rotate', { role: 'worker' });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.json.worker.token).not.toBe(worker);
    expect(rotated.json.manager.token).toBe(manager);
    expect(engine.cli(['swarm', 'join-token', '-q', 'worker']).trim()).toBe(rotated.json.worker.token);
    expect(await auditTypes()).toContain('fleet_token_rotated');

    // Neither the old nor the new tokens reached the member, nor the agent's log.
    for (const token of [worker, manager, rotated.json.worker.token as string]) {
      for (const answer of memberAnswers) expect(answer).not.toContain(token);
      expect(agent.logs.join('\n')).not.toContain(token);
      const secret = token.split('-').at(-1)!;
      for (const answer of memberAnswers) expect(answer).not.toContain(secret);
    }
  });

  it('lists this node with its facts, and changes its availability and labels', async () => {
    const res = await owner.get('/api/fleet/nodes');
    expect(res.status, res.text).toBe(200);
    expect(res.json.nodes).toHaveLength(1);
    const [node] = res.json.nodes;
    expect(node).toMatchObject({
      id: engine.nodeId,
      role: 'manager',
      leader: true,
      self: true,
      availability: 'active',
      status: 'ready',
      addr: advertiseAddr,
      labels: {},
    });
    expect(node.cpus).toBeGreaterThan(0);
    expect(node.memoryBytes).toBeGreaterThan(0);
    expect(node.engineVersion).toMatch(/^\d+\./);
    // The hub's own agent reads its own figures for its own node.
    expect(node.nexus).not.toBeNull();
    expect(typeof node.nexus.cpuPercent).toBe('number');

    expect((await patch(member, `/api/fleet/nodes/${engine.nodeId}`, { availability: 'pause' })).status).toBe(
      403,
    );
    expect((await patch(owner, `/api/fleet/nodes/${engine.nodeId}`, {})).status).toBe(400);
    expect((await patch(owner, `/api/fleet/nodes/${engine.nodeId}`, { availability: 'asleep' })).status).toBe(
      400,
    );
    expect((await patch(owner, `/api/fleet/nodes/nosuchnode1`, { availability: 'pause' })).status).toBe(404);

    const paused = await patch(owner, `/api/fleet/nodes/${engine.nodeId}`, { availability: 'pause' });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.json.availability).toBe('pause');
    expect(engine.cli(['node', 'inspect', engine.nodeId, '--format', '{{.Spec.Availability}}']).trim()).toBe(
      'pause',
    );
    const back = await patch(owner, `/api/fleet/nodes/${engine.nodeId}`, {
      availability: 'active',
      labels: { 'nexus.gpu': 'orin-agx' },
    });
    expect(back.status, back.text).toBe(200);
    expect(back.json).toMatchObject({ availability: 'active', labels: { 'nexus.gpu': 'orin-agx' } });
    expect(
      JSON.parse(engine.cli(['node', 'inspect', engine.nodeId, '--format', '{{json .Spec.Labels}}'])),
    ).toEqual({ 'nexus.gpu': 'orin-agx' });
    expect(await auditTypes()).toContain('fleet_node_changed');
  });

  it('a service whose constraint no node meets is pending with the engine’s reason, then runs once a label meets it', async () => {
    engine.cli([
      'service',
      'create',
      '--detach',
      '--no-resolve-image',
      '--name',
      serviceName,
      '--network',
      'host',
      '--constraint',
      'node.labels.nexus.role==voice',
      '--update-parallelism',
      '1',
      '--update-delay',
      '2s',
      '--stop-grace-period',
      '1s',
      '--env',
      'VOICE_API_KEY=hunter2-do-not-show',
      SWARM_TEST_IMAGE,
      'sh',
      '-c',
      'echo "hello from $(hostname)"; while true; do echo tick; sleep 1; done',
    ]);
    await expect
      .poll(async () => (await service())?.tasks[0]?.error ?? null, { timeout: 30_000 })
      .toMatch(/no suitable node/);
    const pending = (await service())!;
    expect(pending).toMatchObject({ replicas: 1, running: 0, stack: null });
    expect(pending.tasks[0]).toMatchObject({ state: 'pending', desiredState: 'running', nodeId: null });
    expect(JSON.stringify(await owner.get('/api/fleet/services'))).not.toContain('hunter2');
    expect((await asMember('GET', '/api/fleet/services')).text).not.toContain('hunter2');

    const labelled = await patch(owner, `/api/fleet/nodes/${engine.nodeId}`, {
      labels: { 'nexus.gpu': 'orin-agx', 'nexus.role': 'voice' },
    });
    expect(labelled.status, labelled.text).toBe(200);
    await expect.poll(async () => (await service())?.running, { timeout: 60_000 }).toBe(1);
    const runningService = (await service())!;
    const task = runningService.tasks.find((t) => t.state === 'running')!;
    expect(task.nodeId).toBe(engine.nodeId);
    expect(task.nodeHostname).toBeTruthy();
    expect(task.error).toBeNull();
  }, 120_000);

  it('scales to 2 (admins only)', async () => {
    const { id } = (await service())!;
    expect((await asMember('POST', `/api/fleet/services/${id}/scale`, { replicas: 2 })).status).toBe(403);
    expect((await owner.post(`/api/fleet/services/${id}/scale`, { replicas: -1 })).status).toBe(400);
    expect((await owner.post(`/api/fleet/services/nosuchservice/scale`, { replicas: 2 })).status).toBe(404);
    const res = await owner.post(`/api/fleet/services/${id}/scale`, { replicas: 2 });
    expect(res.status, res.text).toBe(200);
    expect(res.json.replicas).toBe(2);
    await expect.poll(async () => (await service())?.running, { timeout: 60_000 }).toBe(2);
    expect(
      engine
        .cli(['service', 'inspect', serviceName, '--format', '{{.Spec.Mode.Replicated.Replicas}}'])
        .trim(),
    ).toBe('2');
  }, 90_000);

  it('a rolling update to a new tag shows its progress and completes; rollback returns to the old image', async () => {
    const newImage = SWARM_TEST_IMAGE.replace(/:test$/, `:v-${run}`);
    engine.cli(['tag', SWARM_TEST_IMAGE, newImage]);
    const { id } = (await service())!;
    expect((await asMember('POST', `/api/fleet/services/${id}/update`, { image: newImage })).status).toBe(
      403,
    );
    expect((await owner.post(`/api/fleet/services/${id}/update`, { image: 'bad image;rm' })).status).toBe(
      400,
    );

    const res = await owner.post(`/api/fleet/services/${id}/update`, { image: newImage });
    expect(res.status, res.text).toBe(200);
    expect(res.json.image).toBe(newImage);
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const s = (await service())!;
          if (s.updateStatus) seen.add(s.updateStatus.state);
          const current = s.tasks.filter((t) => t.desiredState === 'running');
          return s.updateStatus?.state === 'completed' && current.every((t) => t.image === newImage)
            ? s.running
            : -1;
        },
        { timeout: 90_000, interval: 300 },
      )
      .toBe(2);
    // The update took two steps 2 s apart: the progress was seen while it ran.
    expect(seen).toContain('updating');
    expect((await service())!.canRollback).toBe(true);

    expect((await asMember('POST', `/api/fleet/services/${id}/rollback`)).status).toBe(403);
    const rollback = await owner.post(`/api/fleet/services/${id}/rollback`);
    expect(rollback.status, rollback.text).toBe(200);
    await expect
      .poll(
        async () => {
          const s = (await service())!;
          return s.updateStatus?.state === 'rollback_completed' && s.running === 2 ? s.image : null;
        },
        { timeout: 90_000, interval: 300 },
      )
      .toBe(SWARM_TEST_IMAGE);
  }, 200_000);

  it('reads the logs of every task, each line with its task and node', async () => {
    const s = (await service())!;
    await expect
      .poll(
        async () => {
          const res = await owner.get(`/api/fleet/services/${s.id}/logs?tail=500`);
          expect(res.status, res.text).toBe(200);
          const lines = res.json.lines as { text: string; taskId: string | null; nodeId: string | null }[];
          return new Set(lines.filter((l) => l.text.startsWith('hello from')).map((l) => l.taskId)).size;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThanOrEqual(2);
    const res = await asMember('GET', `/api/fleet/services/${s.id}/logs?tail=5`);
    expect(res.status).toBe(200);
    expect(res.json.lines.length).toBeLessThanOrEqual(5);
    for (const line of res.json.lines) {
      expect(line.nodeId).toBe(engine.nodeId);
      expect(line.taskId).toMatch(/^[a-z0-9]+$/);
      expect(line.text).not.toMatch(/com\.docker\.swarm/);
      // Frame headers never reach a client.
      expect([...(line.text as string)].some((ch) => ch.charCodeAt(0) < 0x09)).toBe(false);
    }
    expect((await owner.get(`/api/fleet/services/${s.id}/logs?tail=0`)).status).toBe(400);
  }, 60_000);

  it('leaving: the only manager must force; then the hub is out of the fleet', async () => {
    expect((await asMember('POST', '/api/fleet/leave', { force: true })).status).toBe(403);
    const refused = await owner.post('/api/fleet/leave', {});
    expect(refused.status).toBe(409);
    expect(refused.json.message).toMatch(/only node and manager.*force/);
    expect(refused.json.details.engine).toMatch(/manager/i);

    engine.cli(['service', 'rm', serviceName]);
    const left = await owner.post('/api/fleet/leave', { force: true });
    expect(left.status, left.text).toBe(200);
    expect(left.json).toMatchObject({ state: 'inactive', role: null });
    expect((await owner.get('/api/fleet/nodes')).status).toBe(409);
    expect(await auditTypes()).toContain('fleet_left');
  }, 60_000);
});
