import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { cleanUpDocker, ensureDockerEngine, podman, TEST_IMAGE } from '../support/docker-engine.js';
import { Client } from '../support/http.js';
import { startRegistrySim, type RegistrySim } from '../fixtures/registry-sim.js';

/**
 * Safe container updates against the real engine (Podman's Docker API) and an OCI registry
 * simulator on loopback. The simulator runs in this process, so the podman CLI is called without
 * blocking it (execFile, not execFileSync): podman's pulls are served by it.
 */

/** scripts/podman-service.sh marks this one loopback port insecure (plain HTTP) for Podman. */
const REGISTRY_PORT = 45123;
const run = randomBytes(3).toString('hex');
const repo = `nexus-test/app-${run}`;
const names = { app: `nx-upd-${run}-app`, hub: `nx-upd-${run}-hub`, plain: `nx-upd-${run}-plain` };
const volume = `nx-upd-${run}-data`;
const builds = ['v1', 'v2', 'bad', 'crash'].map((v) => `localhost/nx-upd-${run}:${v}`);

const execFileAsync = promisify(execFile);
const podmanAsync = async (...args: string[]) => (await execFileAsync('podman', args)).stdout.trim();

let sim: RegistrySim;
let agent: RunningAgent;
let owner: Client;
let member: Client;
let ref: string;
const imageIds: Record<string, string> = {};

/** The engine's `GET /images/{name}/get` (a docker-archive tarball), as the simulator is fed. */
function exportImage(socket: string, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get({ socketPath: socket, path: `/v1.41/images/${encodeURIComponent(name)}/get` }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks))
            : reject(new Error(`export ${res.statusCode}`)),
        );
      })
      .on('error', reject);
  });
}

/** Busybox images in Docker format (OCI's drops HEALTHCHECK), each a little different. */
function build(tag: string, lines: string[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nx-upd-'));
  fs.writeFileSync(path.join(dir, 'Containerfile'), [`FROM ${TEST_IMAGE}`, ...lines].join('\n'));
  try {
    podman('build', '--format', 'docker', '-q', '-t', tag, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  imageIds[tag] = `sha256:${podman('image', 'inspect', '--format', '{{.Id}}', tag)}`;
}

const LOOP = 'CMD ["sh", "-c", "while true; do sleep 1; done"]';
const socketPath = (dockerHost: string) => dockerHost.replace('unix://', '');

async function publish(socket: string, which: string) {
  await sim.push(repo, 'stable', await exportImage(socket, `localhost/nx-upd-${run}:${which}`));
}

async function checkFor(name: string, client = owner) {
  const res = await client.get('/api/docker/updates?refresh=true');
  expect(res.status).toBe(200);
  return (
    res.json.containers as { name: string; state: string; reason: string | null; isHub: boolean }[]
  ).find((c) => c.name === name);
}

const inspect = (name: string) => {
  const info = JSON.parse(podman('container', 'inspect', name))[0] as {
    Image: string;
    State: { Running: boolean };
    Config: { Env: string[]; Labels: Record<string, string> };
    HostConfig: { RestartPolicy: { Name: string } };
    Mounts: { Name?: string; Destination: string }[];
  };
  // The CLI names the image id without the "sha256:" the API answers.
  return { ...info, Image: info.Image.startsWith('sha256:') ? info.Image : `sha256:${info.Image}` };
};

beforeAll(async () => {
  const dockerHost = ensureDockerEngine();
  const socket = socketPath(dockerHost);
  build(builds[0]!, ['LABEL version=1', 'ENV APP_VERSION=1', 'HEALTHCHECK --interval=1s CMD true', LOOP]);
  build(builds[1]!, ['LABEL version=2', 'ENV APP_VERSION=2', 'HEALTHCHECK --interval=1s CMD true', LOOP]);
  build(builds[2]!, ['LABEL version=bad', 'HEALTHCHECK --interval=1s --retries=1 CMD false', LOOP]);
  build(builds[3]!, ['LABEL version=crash', 'CMD ["sh", "-c", "exit 3"]']);
  sim = await startRegistrySim({ port: REGISTRY_PORT });
  ref = `${sim.host}/${repo}:stable`;
  await publish(socket, 'v1');
  await podmanAsync('pull', '-q', ref);
  await podmanAsync(
    'run',
    '-d',
    '--name',
    names.app,
    '--stop-timeout',
    '1',
    '-e',
    'FOO=bar',
    '--label',
    `io.nexus.test=${run}`,
    '--restart',
    'unless-stopped',
    '-v',
    `${volume}:/data`,
    ref,
  );
  await podmanAsync('run', '-d', '--name', names.hub, '--stop-timeout', '1', ref);
  // A locally built image: no registry knows it.
  await podmanAsync('run', '-d', '--name', names.plain, '--stop-timeout', '1', TEST_IMAGE, 'sleep', '600');

  agent = await startAgent({ env: { DOCKER_HOST: dockerHost, NEXUS_AGENT_CONTAINER: names.hub } });
  owner = new Client(agent.url);
  member = new Client(agent.url);
  await signUp(owner, { name: 'Owner Person' });
  expect((await signUp(member, { name: 'Member Person' })).role).toBe('user');
});

afterAll(async () => {
  await agent?.stop();
  await sim?.close();
  const leftovers = podman('ps', '-a', '--format', '{{.Names}}', '--filter', `name=nx-upd-${run}`)
    .split('\n')
    .filter(Boolean);
  cleanUpDocker({ containers: [...Object.values(names), ...leftovers] });
  try {
    podman('volume', 'rm', '-f', volume);
  } catch {
    // already gone
  }
  for (const image of [ref, ...builds]) {
    try {
      podman('rmi', '-f', image);
    } catch {
      // already gone
    }
  }
});

describe('roles', () => {
  it('refuses members both the check and the update', async () => {
    expect((await member.get('/api/docker/updates')).status).toBe(403);
    expect((await member.post(`/api/docker/containers/${names.app}/update`)).status).toBe(403);
    expect(inspect(names.app).Image).toBe(imageIds[builds[0]!]);
  });
});

describe('the check', () => {
  it('refuses a loopback registry until an admin allows its address (the outbound guard)', async () => {
    const check = await checkFor(names.app);
    expect(check).toMatchObject({ state: 'unknown', image: ref });
    expect(check!.reason).toMatch(/Refused to connect to 127\.0\.0\.1:45123/);
    expect(sim.requests).toEqual(expect.not.arrayContaining([expect.stringMatching(/^HEAD/)]));
    const res = await owner.put('/api/settings/outbound', { allowList: [`127.0.0.1:${REGISTRY_PORT}`] });
    expect(res.status).toBe(200);
  });

  it('says up-to-date, then update-available once the tag moves, pulling nothing', async () => {
    expect(await checkFor(names.app)).toMatchObject({ state: 'up-to-date', reason: null, isHub: false });
    await publish(socketPath(ensureDockerEngine()), 'v2');
    const seen = sim.requests.length;
    expect(await checkFor(names.app)).toMatchObject({ state: 'update-available', reason: null });
    // Only manifest HEADs: no blob and no manifest body was fetched.
    expect(
      sim.requests.slice(seen).every((r) => r.startsWith('HEAD /v2/') && r.includes('/manifests/')),
    ).toBe(true);
    expect(inspect(names.app).Image).toBe(imageIds[builds[0]!]);
  });

  it('says unknown, with the reason, for a locally built image and marks the hub', async () => {
    const plain = await checkFor(names.plain);
    expect(plain).toMatchObject({ state: 'unknown', localDigest: null });
    expect(plain!.reason).toMatch(/built or imported here/);
    expect(await checkFor(names.hub)).toMatchObject({ isHub: true, state: 'update-available' });
  });

  it('answers the cached check without asking the registry', async () => {
    const seen = sim.requests.length;
    const res = await owner.get('/api/docker/updates');
    expect(res.status).toBe(200);
    expect(res.json.checkedAt).toEqual(expect.any(String));
    expect(sim.requests.length).toBe(seen);
  });
});

describe('the update', () => {
  it("refuses the hub's own container, changing nothing", async () => {
    const res = await owner.post(`/api/docker/containers/${names.hub}/update`);
    expect(res.status).toBe(409);
    expect(res.json.message).toMatch(/runs this hub/);
    expect(inspect(names.hub)).toMatchObject({ Image: imageIds[builds[0]!], State: { Running: true } });
  });

  it('updates to a healthy image, keeping env, labels, mounts and restart policy; one update at a time', async () => {
    // The registry holds the download, so the second asks while the first surely runs.
    const release = sim.holdBlobs();
    const seen = sim.requests.length;
    const first = owner.post(`/api/docker/containers/${names.app}/update`);
    await expect
      .poll(() => sim.requests.slice(seen).some((r) => r.startsWith('GET /v2/') && r.includes('/blobs/')))
      .toBe(true);
    const second = await owner.post(`/api/docker/containers/${names.app}/update`);
    release();
    expect(second.status).toBe(409);
    const res = await first;
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      result: 'updated',
      from: imageIds[builds[0]!],
      to: imageIds[builds[1]!],
    });
    const now = inspect(names.app);
    expect(now.Image).toBe(imageIds[builds[1]!]);
    expect(now.State.Running).toBe(true);
    expect(now.Config.Env).toEqual(expect.arrayContaining(['FOO=bar', 'APP_VERSION=2']));
    expect(now.Config.Labels).toMatchObject({ 'io.nexus.test': run, version: '2' });
    expect(now.HostConfig.RestartPolicy.Name).toBe('unless-stopped');
    expect(now.Mounts).toEqual(
      expect.arrayContaining([expect.objectContaining({ Name: volume, Destination: '/data' })]),
    );
    // The old container is gone once the new one proved healthy.
    expect(podman('ps', '-a', '--format', '{{.Names}}', '--filter', `name=${names.app}-nexus-previous`)).toBe(
      '',
    );
    expect(await checkFor(names.app)).toMatchObject({ state: 'up-to-date' });
    const audit = await owner.get('/api/audit?type=container_updated');
    expect(JSON.stringify(audit.json)).toContain(names.app);
  });

  it('rolls back from an image whose healthcheck fails: the old container runs again with its old image', async () => {
    await publish(socketPath(ensureDockerEngine()), 'bad');
    const res = await owner.post(`/api/docker/containers/${names.app}/update`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      result: 'rolled-back',
      from: imageIds[builds[1]!],
      to: imageIds[builds[1]!],
    });
    expect(res.json.reason).toMatch(/healthcheck failed/);
    expect(inspect(names.app)).toMatchObject({ Image: imageIds[builds[1]!], State: { Running: true } });
    expect(inspect(names.app).Config.Env).toContain('FOO=bar');
  });

  it('rolls back from an image that exits at once', async () => {
    await publish(socketPath(ensureDockerEngine()), 'crash');
    const res = await owner.post(`/api/docker/containers/${names.app}/update`);
    expect(res.json).toMatchObject({ result: 'rolled-back', from: imageIds[builds[1]!] });
    expect(res.json.reason).toMatch(/stopped/);
    expect(inspect(names.app)).toMatchObject({ Image: imageIds[builds[1]!], State: { Running: true } });
    expect(podman('ps', '-a', '--format', '{{.Names}}', '--filter', `name=${names.app}`)).toBe(names.app);
  });
});

describe('the notification', () => {
  const titled = async (title: string) => {
    const res = await owner.get('/api/notifications?limit=100');
    expect(res.status).toBe(200);
    return (
      res.json.notifications as {
        title: string;
        body: string | null;
        category: string;
        link: string | null;
      }[]
    ).filter((n) => n.title === title);
  };

  it('tells once when the tag moves to a new image, and not again at the next check', async () => {
    const title = `Update available for ${names.app}`;
    const before = (await titled(title)).length;
    // The app runs v2 now; the tag moves back to v1's image, which is new to it.
    await publish(socketPath(ensureDockerEngine()), 'v1');
    expect(await checkFor(names.app)).toMatchObject({ state: 'update-available' });
    const after = await titled(title);
    expect(after).toHaveLength(before + 1);
    expect(after[0]).toMatchObject({
      category: 'containers',
      body: `${ref} has a newer image in its registry`,
      link: '/nexus-docker',
    });
    expect(await checkFor(names.app)).toMatchObject({ state: 'update-available' });
    expect(await titled(title)).toHaveLength(before + 1);
  });
});

describe('offline', () => {
  it('says unknown with the reason when the registry is down, never an error', async () => {
    await sim.close();
    const check = await checkFor(names.app);
    expect(check).toMatchObject({ state: 'unknown' });
    expect(check!.reason).toMatch(/could not be reached/);
  });
});
