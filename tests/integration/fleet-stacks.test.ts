import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { freePort } from '../support/docker-engine.js';
import { Client } from '../support/http.js';
import { startSwarmEngine, swarmUnavailable, SWARM_TEST_IMAGE, type SwarmEngine } from '../support/swarm.js';

/**
 * Compose stacks on the fleet (issue 24): a real swarm (Debian's dockerd, tests/support/swarm.ts)
 * and the agent pointed at it. The Docker CLI must see what the console deployed as a stack.
 */

const run = randomBytes(3).toString('hex');
const stack = `fs-${run}`;
const netStack = `fsn-${run}`;
const POLL = { timeout: 60_000, interval: 500 };

let swarm: SwarmEngine;
let agent: RunningAgent;
let owner: Client;
let member: Client;
let port: number;

function composeOf(webPort: number): string {
  return `
services:
  web:
    image: ${SWARM_TEST_IMAGE}
    command: httpd -f -p 127.0.0.1:${webPort}
    network_mode: host
    environment:
      GREETING: hello
    labels:
      io.nexus.test.container: web
    deploy:
      replicas: 1
      labels:
        io.nexus.test.service: web
      placement:
        constraints: [node.labels.nexus.role == voice]
        preferences:
          - spread: node.labels.nexus.role
      resources:
        limits: { cpus: '0.5', memory: 64M }
        reservations: { cpus: '0.1', memory: 16M }
      restart_policy: { condition: on-failure, delay: 2s, max_attempts: 3, window: 30s }
      update_config: { parallelism: 1, delay: 1s, order: stop-first, failure_action: rollback }
      rollback_config: { parallelism: 2 }
  gpu:
    image: ${SWARM_TEST_IMAGE}
    command: sleep 3600
    network_mode: host
    deploy:
      placement:
        constraints: [node.labels.nexus.gpu == orin-agx]
`;
}

const inspect = (name: string) =>
  JSON.parse(swarm.cli(['service', 'inspect', name, '--format', '{{json .}}'])) as {
    ID: string;
    Version: { Index: number };
    Spec: Record<string, any>;
  };

const tasks = (service: string) =>
  swarm
    .cli([
      'service',
      'ps',
      service,
      '--no-trunc',
      '--format',
      '{{.DesiredState}}|{{.CurrentState}}|{{.Error}}',
    ])
    .trim()
    .split('\n')
    .filter(Boolean);

const stackServices = (name: string) =>
  swarm
    .cli(['service', 'ls', '--filter', `label=com.docker.stack.namespace=${name}`, '--format', '{{.Name}}'])
    .trim()
    .split('\n')
    .filter(Boolean)
    .sort();

describe.skipIf(swarmUnavailable())('stacks on the fleet', () => {
  beforeAll(async () => {
    swarm = await startSwarmEngine();
    // The label the web service's constraint asks for; nothing has nexus.gpu.
    swarm.cli(['node', 'update', '--label-add', 'nexus.role=voice', swarm.nodeId]);
    agent = await startAgent({ env: { DOCKER_HOST: swarm.dockerHost } });
    owner = new Client(agent.url);
    member = new Client(agent.url);
    await signUp(owner, { name: 'Fleet Owner' });
    expect((await signUp(member, { name: 'Fleet Member' })).role).toBe('user');
    port = await freePort();
  }, 180_000);

  afterAll(async () => {
    await agent?.stop();
    await swarm?.stop();
  }, 120_000);

  it('deploys a two-service stack as swarm services, with progress, that the Docker CLI lists as a stack', async () => {
    const res = await owner.request(
      'POST',
      '/api/docker/stacks',
      { name: stack, target: 'fleet', compose: composeOf(port) },
      { accept: 'application/x-ndjson' },
    );
    expect(res.status, res.text).toBeLessThan(300);
    const events = res.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; kind?: string; name?: string; deployment?: any });
    expect(events).toContainEqual({ type: 'created', kind: 'service', name: `${stack}_web` });
    expect(events).toContainEqual({ type: 'created', kind: 'service', name: `${stack}_gpu` });
    const done = events.at(-1)!;
    expect(done.type, JSON.stringify(done)).toBe('done');
    expect(done.deployment).toMatchObject({ stack, action: 'deploy', result: 'success' });

    // The satisfied constraint runs: its httpd answers on loopback.
    await expect
      .poll(async () => {
        try {
          return (await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) })).status;
        } catch {
          return 0;
        }
      }, POLL)
      .toBeGreaterThan(0);
    await expect.poll(() => tasks(`${stack}_web`)[0] ?? '', POLL).toMatch(/^Running\|Running/);
    // The other waits, with the engine's reason.
    await expect
      .poll(() => tasks(`${stack}_gpu`)[0] ?? '', POLL)
      .toMatch(/Pending.*no suitable node \(scheduling constraints not satisfied/);

    expect(swarm.cli(['stack', 'ls', '--format', '{{.Name}} {{.Services}}'])).toContain(`${stack} 2`);
    const listed = swarm.cli(['stack', 'services', stack, '--format', '{{.Name}}']);
    expect(listed).toContain(`${stack}_web`);
    expect(listed).toContain(`${stack}_gpu`);
  });

  it('lands deploy.* in the service spec as docker stack deploy would', () => {
    const { Spec: spec } = inspect(`${stack}_web`);
    expect(spec.Labels).toMatchObject({
      'com.docker.stack.namespace': stack,
      'com.docker.stack.image': SWARM_TEST_IMAGE,
      'io.nexus.test.service': 'web',
    });
    const task = spec.TaskTemplate;
    expect(task.ContainerSpec).toMatchObject({
      Image: SWARM_TEST_IMAGE,
      Args: ['httpd', '-f', '-p', `127.0.0.1:${port}`],
      Env: ['GREETING=hello'],
      Labels: { 'com.docker.stack.namespace': stack, 'io.nexus.test.container': 'web' },
    });
    expect(task.Resources).toEqual({
      Limits: { NanoCPUs: 500_000_000, MemoryBytes: 64 * 1024 * 1024 },
      Reservations: { NanoCPUs: 100_000_000, MemoryBytes: 16 * 1024 * 1024 },
    });
    expect(task.RestartPolicy).toEqual({
      Condition: 'on-failure',
      Delay: 2_000_000_000,
      MaxAttempts: 3,
      Window: 30_000_000_000,
    });
    expect(task.Placement.Constraints).toEqual(['node.labels.nexus.role == voice']);
    expect(task.Placement.Preferences).toEqual([{ Spread: { SpreadDescriptor: 'node.labels.nexus.role' } }]);
    expect(spec.Mode).toEqual({ Replicated: { Replicas: 1 } });
    expect(spec.UpdateConfig).toMatchObject({
      Parallelism: 1,
      Delay: 1_000_000_000,
      FailureAction: 'rollback',
      Order: 'stop-first',
    });
    expect(spec.RollbackConfig).toMatchObject({ Parallelism: 2 });
  });

  it('lists the stack, with its target, for members too', async () => {
    const fleet = await member.get('/api/fleet/stacks');
    expect(fleet.status).toBe(200);
    expect(fleet.json.stacks).toContainEqual({ name: stack, services: 2, managed: true });

    const hubList = await member.get('/api/docker/stacks');
    const entry = hubList.json.stacks.find((s: { name: string }) => s.name === stack);
    expect(entry).toMatchObject({ target: 'fleet', source: 'console', status: 'partial' });
    expect(entry.services.map((s: { service: string }) => s.service)).toEqual(['gpu', 'web']);
    const detail = await owner.get(`/api/docker/stacks/${stack}`);
    expect(detail.json).toMatchObject({ target: 'fleet' });
    expect(detail.json.compose).toContain('orin-agx');
  });

  it('refuses members: no deploy, no removal', async () => {
    const deploy = await member.post('/api/docker/stacks', {
      name: `m-${run}`,
      target: 'fleet',
      compose: composeOf(port),
    });
    expect(deploy.status).toBe(403);
    expect((await member.delete(`/api/fleet/stacks/${stack}`)).status).toBe(403);
    expect(stackServices(`m-${run}`)).toEqual([]);
    expect(stackServices(stack)).toHaveLength(2);
  });

  it('refuses, in words and before anything is made, what a swarm cannot deploy', async () => {
    const bad = `bad-${run}`;
    const cases: [string, RegExp][] = [
      [`services:\n  a:\n    image: x\n    build: .\n`, /build.*give an image/],
      [`services:\n  a:\n    image: x\n    deploy:\n      replicaz: 2\n`, /replicaz/],
      [
        `services:\n  a:\n    image: x\n    container_name: fixed\n`,
        /container_name cannot be deployed to the fleet/,
      ],
      [
        `services:\n  a:\n    image: x\n    depends_on:\n      b: { condition: service_healthy }\n  b:\n    image: x\n`,
        /service_healthy cannot be honoured on the fleet/,
      ],
      [
        `services:\n  a:\n    image: x\n    network_mode: bridge\n`,
        /network_mode: bridge cannot be deployed/,
      ],
      [
        `services:\n  a:\n    image: x\n    deploy:\n      mode: global\n      replicas: 2\n`,
        /replicas cannot be used with deploy.mode: global/,
      ],
    ];
    for (const [compose, words] of cases) {
      const res = await owner.post('/api/docker/stacks', { name: bad, target: 'fleet', compose });
      expect(res.status, res.text).toBe(400);
      expect(res.json.message).toMatch(words);
    }
    // A hub deploy refuses the swarm-only keys instead of dropping them.
    const hub = await owner.post('/api/docker/stacks', {
      name: bad,
      compose: `services:\n  a:\n    image: x\n    deploy:\n      replicas: 2\n`,
    });
    expect(hub.status).toBe(400);
    expect(hub.json.message).toMatch(/deploy.replicas is honoured only on the fleet/);
    expect(stackServices(bad)).toEqual([]);
    expect((await owner.get(`/api/docker/stacks/${bad}`)).status).toBe(404);
    // A name in use is a conflict, whichever target.
    const taken = await owner.post('/api/docker/stacks', {
      name: stack,
      target: 'fleet',
      compose: composeOf(port),
    });
    expect(taken.status).toBe(409);
  });

  it('redeploys in place: a changed replica count updates the service, a dropped service goes', async () => {
    const before = inspect(`${stack}_web`);
    const compose = `
services:
  web:
    image: ${SWARM_TEST_IMAGE}
    command: sleep 3600
    network_mode: host
    deploy:
      replicas: 2
      placement:
        constraints: [node.labels.nexus.role == voice]
`;
    const res = await owner.post(`/api/docker/stacks/${stack}/redeploy`, { compose });
    expect(res.status, res.text).toBe(200);
    expect(res.json.deployment).toMatchObject({ action: 'redeploy', result: 'success' });
    expect(res.json.deployment.outcome.removed).toEqual([`${stack}_gpu`]);

    const after = inspect(`${stack}_web`);
    expect(after.ID).toBe(before.ID);
    expect(after.Version.Index).toBeGreaterThan(before.Version.Index);
    expect(after.Spec.Mode).toEqual({ Replicated: { Replicas: 2 } });
    expect(stackServices(stack)).toEqual([`${stack}_web`]);
    await expect
      .poll(() => tasks(`${stack}_web`).filter((t) => /^Running\|Running/.test(t)).length, POLL)
      .toBe(2);
    expect(swarm.cli(['stack', 'ls', '--format', '{{.Name}} {{.Services}}'])).toContain(`${stack} 1`);
  });

  it('makes the stack overlay network, labelled, and removes stack, services and networks', async () => {
    const compose = `services:\n  idle:\n    image: ${SWARM_TEST_IMAGE}\n    command: sleep 3600\n`;
    const res = await owner.post('/api/docker/stacks', { name: netStack, target: 'fleet', compose });
    expect(res.status, res.text).toBe(201);
    const network = JSON.parse(
      swarm.cli(['network', 'inspect', `${netStack}_default`, '--format', '{{json .}}']),
    ) as { Driver: string; Scope: string; Labels: Record<string, string> };
    expect(network).toMatchObject({
      Driver: 'overlay',
      Scope: 'swarm',
      Labels: { 'com.docker.stack.namespace': netStack },
    });
    // Overlay tasks run on this engine even without iptables (their published ports would not).
    await expect.poll(() => tasks(`${netStack}_idle`)[0] ?? '', POLL).toMatch(/^Running\|Running/);

    for (const name of [netStack, stack]) {
      const removed = await owner.delete(`/api/fleet/stacks/${name}`);
      expect(removed.status, removed.text).toBe(200);
      expect(removed.json.deployment).toMatchObject({ action: 'remove', result: 'success' });
      if (name === netStack) expect(removed.json.deployment.outcome.removed).toContain(`${netStack}_default`);
      expect(stackServices(name)).toEqual([]);
      expect((await owner.get(`/api/docker/stacks/${name}`)).status).toBe(404);
    }
    // The manager drops the network at once; this node's copy goes when its last task has stopped.
    await expect
      .poll(
        () => swarm.cli(['network', 'ls', '--filter', `label=com.docker.stack.namespace=${netStack}`, '-q']),
        POLL,
      )
      .toBe('');
    expect(swarm.cli(['stack', 'ls', '--format', '{{.Name}}'])).not.toContain(stack);
    expect((await owner.delete(`/api/fleet/stacks/${stack}`)).status).toBe(404);
  });

  it('deploys a catalog app to the fleet, warning that a GPU runtime comes from the node engine', async () => {
    const appPort = await freePort();
    const res = await owner.post('/api/docker/catalog/ollama/deploy', {
      target: 'fleet',
      // The test image, so that no node reaches a registry; it has no command, so its task restarts.
      settings: { OLLAMA_IMAGE: SWARM_TEST_IMAGE, OLLAMA_PORT: String(appPort) },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.deployment).toMatchObject({
      stack: 'nexus-ollama',
      catalogApp: 'ollama',
      result: 'success',
    });
    expect(res.json.deployment.message).toMatch(/runtime is ignored on the fleet.*default-runtime/);
    expect(res.json.probe.message).toMatch(/not probed: the app runs on the fleet/);
    expect(stackServices('nexus-ollama')).toEqual(['nexus-ollama_ollama']);
    const { Spec: spec } = inspect('nexus-ollama_ollama');
    expect(spec.EndpointSpec.Ports).toEqual([
      { Protocol: 'tcp', TargetPort: 11434, PublishedPort: appPort, PublishMode: 'host' },
    ]);
    expect(spec.TaskTemplate.ContainerSpec.Mounts[0]).toMatchObject({
      Type: 'volume',
      Source: 'nexus-ollama_models',
      Target: '/root/.ollama',
    });
    const listed = (await owner.get('/api/docker/stacks')).json.stacks.find(
      (s: { name: string }) => s.name === 'nexus-ollama',
    );
    expect(listed).toMatchObject({ target: 'fleet', catalogApp: 'ollama' });
    expect((await owner.delete('/api/docker/stacks/nexus-ollama')).status).toBe(200);
    expect(stackServices('nexus-ollama')).toEqual([]);
  });

  it('answers 409 in words when the hub is in no fleet', async () => {
    swarm.cli(['swarm', 'leave', '--force']);
    const res = await owner.post('/api/docker/stacks', {
      name: `nf-${run}`,
      target: 'fleet',
      compose: `services:\n  a:\n    image: ${SWARM_TEST_IMAGE}\n`,
    });
    expect(res.status).toBe(409);
    expect(res.json.message).toMatch(/not in a fleet: create one/);
    expect((await owner.get('/api/fleet/stacks')).json).toEqual({ stacks: [] });
  });
});
