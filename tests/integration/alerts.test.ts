import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHomeAssistantSim, type HomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { cleanUpDocker, ensureDockerEngine, podman, TEST_IMAGE } from '../support/docker-engine.js';
import { Client } from '../support/http.js';
import { waitFor } from '../support/wait-for.js';

/**
 * Events that notify (issue 19) against the real engine (Podman), the Home Assistant simulator and
 * real sign-ins: each fault notifies once, its end once more. Timings are shortened by env.
 */
const run = randomBytes(3).toString('hex');
const names = { killed: `nx-alert-${run}-killed`, looping: `nx-alert-${run}-loop` };

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

let dockerHost: string;
let sim: HomeAssistantSim;
let agent: RunningAgent;
let owner: Client;

interface Listed {
  id: number;
  title: string;
  level: string;
  category: string;
  link: string | null;
  broadcast: boolean;
}
async function list(client: Client): Promise<Listed[]> {
  const res = await client.get('/api/notifications?limit=100');
  expect(res.status, res.text).toBe(200);
  return res.json.notifications as Listed[];
}
const about = (all: Listed[], text: string) => all.filter((n) => n.title.includes(text)).reverse();

/** POST straight at the engine's socket, not through the agent. */
function engine(method: string, path: string): Promise<number> {
  const socketPath = dockerHost.replace(/^unix:\/\//, '');
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method, path }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dockerHost = ensureDockerEngine();
  sim = await startHomeAssistantSim();
  agent = await startAgent({
    env: {
      DOCKER_HOST: dockerHost,
      HA_URL: sim.url,
      HA_TOKEN: sim.token,
      NEXUS_ALERT_HA_GRACE_MS: '1500',
      NEXUS_ALERT_CONTAINER_STABLE_MS: '1000',
      NEXUS_ALERT_POLL_MS: '500',
    },
  });
  owner = new Client(agent.url, { 'user-agent': FIREFOX_WINDOWS });
  await signUp(owner, { name: 'Owner Person' });
  // Events before the agent follows the stream would be missed: wait until it does.
  await waitFor(
    () => agent.logs.some((l) => l.includes('following the Docker event stream')),
    (ok) => ok,
    { timeoutMs: 15_000, what: 'the agent to follow the Docker event stream' },
  );
});

afterAll(async () => {
  cleanUpDocker({ containers: Object.values(names) });
  await agent?.stop();
  await sim?.stop();
});

describe('containers (real engine)', () => {
  it('a container killed at the engine notifies exactly once, and its recovery once more', async () => {
    podman('run', '-d', '--name', names.killed, '--stop-timeout', '1', TEST_IMAGE, 'sleep', '3600');
    expect(await engine('POST', `/containers/${names.killed}/kill`)).toBe(204);
    await expect.poll(async () => about(await list(owner), names.killed).length, { timeout: 15_000 }).toBe(1);
    podman('start', names.killed);
    await expect
      .poll(async () => about(await list(owner), names.killed).map((n) => n.level), { timeout: 15_000 })
      .toEqual(['error', 'success']);
    const [killed, recovered] = about(await list(owner), names.killed);
    expect(killed).toMatchObject({
      title: `Container ${names.killed} was killed`,
      category: 'containers',
      link: '/nexus-docker',
      broadcast: true,
    });
    expect(recovered?.title).toBe(`Container ${names.killed} recovered`);
  });

  it('a restart loop notifies once however often it restarts', async () => {
    podman(
      'run',
      '-d',
      '--name',
      names.looping,
      '--restart',
      'always',
      TEST_IMAGE,
      'sh',
      '-c',
      'sleep 0.2; exit 3',
    );
    await expect
      .poll(async () => about(await list(owner), `${names.looping} keeps restarting`).length, {
        timeout: 20_000,
      })
      .toBe(1);
    // Let it go round several more times: still one notice per incident.
    const seen = Number(podman('inspect', names.looping, '--format', '{{.RestartCount}}'));
    await expect
      .poll(() => Number(podman('inspect', names.looping, '--format', '{{.RestartCount}}')), {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(seen + 4);
    const mine = about(await list(owner), names.looping);
    expect(mine.map((n) => n.title)).toEqual([
      `Container ${names.looping} stopped unexpectedly`,
      `Container ${names.looping} keeps restarting`,
    ]);
    // A remove can land between a die and the restart Podman makes of it, which then fails with
    // "container state improper": try again until it is gone.
    await expect
      .poll(
        () => {
          try {
            podman('rm', '-f', '-t', '0', '--ignore', names.looping);
            return true;
          } catch {
            return false;
          }
        },
        { timeout: 15_000 },
      )
      .toBe(true);
  });
});

describe('Home Assistant (simulator)', () => {
  it('gone longer than the grace period: one notification; back: one more', async () => {
    await expect
      .poll(async () => (await owner.get('/api/ha/status')).json?.state, { timeout: 15_000 })
      .toBe('connected');
    await sim.stop();
    await expect
      .poll(async () => about(await list(owner), 'Home Assistant is disconnected').length, {
        timeout: 15_000,
      })
      .toBe(1);
    await sim.start();
    await expect
      .poll(async () => about(await list(owner), 'Home Assistant is connected again').length, {
        timeout: 30_000,
      })
      .toBe(1);
    const all = await list(owner);
    expect(about(all, 'Home Assistant is disconnected')).toHaveLength(1);
    expect(about(all, 'Home Assistant is disconnected')[0]).toMatchObject({
      category: 'home-assistant',
      level: 'error',
      link: '/ha-connection-setup',
    });
  });
});

describe('sign-ins from a new device', () => {
  it('notify that account only, once per device; other members never see it', async () => {
    const memberBrowser = new Client(agent.url, { 'user-agent': FIREFOX_WINDOWS });
    const member = await signUp(memberBrowser, { name: 'Member One', invitedBy: owner });
    const other = new Client(agent.url, { 'user-agent': FIREFOX_WINDOWS });
    await signUp(other, { name: 'Member Two', invitedBy: owner });
    const security = async (c: Client) => (await list(c)).filter((n) => n.category === 'security');
    // The account's first device is remembered without a word.
    expect(await security(memberBrowser)).toEqual([]);

    const laptop = new Client(agent.url, { 'user-agent': CHROME_LINUX });
    const login = await laptop.post('/api/auth/login', { email: member.email, password: member.password });
    expect(login.status, login.text).toBe(200);
    const notices = await security(laptop);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      title: 'New sign-in to your account',
      broadcast: false,
      link: '/settings',
    });
    expect(JSON.stringify(notices)).not.toContain(member.password);

    // The same device again: nothing new.
    const again = new Client(agent.url, { 'user-agent': CHROME_LINUX });
    expect(
      (await again.post('/api/auth/login', { email: member.email, password: member.password })).status,
    ).toBe(200);
    expect(await security(again)).toHaveLength(1);

    // Another member and the owner see nothing of it, and cannot open it by id.
    expect(await security(other)).toEqual([]);
    expect(await security(owner)).toEqual([]);
    expect((await other.post(`/api/notifications/${notices[0]!.id}/read`)).status).toBe(404);
  });
});
