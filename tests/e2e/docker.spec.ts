import { randomBytes } from 'node:crypto';
import { test as base, expect } from '@playwright/test';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { cleanUpDocker, ensureDockerEngine, podman, TEST_IMAGE } from '../support/docker-engine.js';

/**
 * The container screens against the real engine (Podman). These specs run their own agent, with
 * DOCKER_HOST set, and sign up first on it so the account is the superadmin that may act.
 *
 * Their containers share the host's network: a container on a bridge adds a network interface to
 * this machine, and Chromium, seeing the host's interfaces change, aborts the requests in flight in
 * the other worker's pages (net::ERR_NETWORK_CHANGED), which failed an unrelated screen's lazy load.
 */
const test = base.extend<object, { dockerAgent: RunningAgent }>({
  dockerAgent: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
    async ({}, use) => {
      // The specs of this worker share the hub, each as a new visitor who registers: registration is
      // open here on purpose (invite mode, the default, is tested in registration.spec.ts).
      const agent = await startAgent({
        env: { DOCKER_HOST: ensureDockerEngine(), NEXUS_REGISTRATION: 'open' },
      });
      await use(agent);
      await agent.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ dockerAgent }, use) => {
    await use(dockerAgent.url);
  },
});

const run = randomBytes(3).toString('hex');
const worker = `e2e-${run}-worker`;
const talker = `e2e-${run}-talker`;
let signedUp = false;

test.beforeAll(() => {
  podman(
    'run',
    '-d',
    '--name',
    worker,
    '--network',
    'host',
    '--stop-timeout',
    '1',
    TEST_IMAGE,
    'sh',
    '-c',
    'while true; do sleep 1; done',
  );
  podman(
    'run',
    '-d',
    '--name',
    talker,
    '--network',
    'host',
    '--stop-timeout',
    '1',
    TEST_IMAGE,
    'sh',
    '-c',
    'i=0; while true; do echo "tick $i"; echo "warn $i" >&2; i=$((i+1)); sleep 0.3; done',
  );
});

test.afterAll(() => {
  cleanUpDocker({ containers: [worker, talker] });
});

test.beforeEach(async ({ page }) => {
  if (!signedUp) {
    const res = await page.request.post('/api/auth/register', {
      data: {
        name: 'Docker Owner',
        email: `docker-${run}@example.com`,
        password: 'correct horse battery staple',
      },
    });
    expect(res.status()).toBe(201);
    signedUp = true;
  } else {
    const res = await page.request.post('/api/auth/login', {
      data: { email: `docker-${run}@example.com`, password: 'correct horse battery staple' },
    });
    expect(res.status()).toBe(200);
  }
});

test('the container table shows state, and stop/start ask for confirmation', async ({ page }) => {
  await page.goto('/nexus-docker');
  await expect(page.getByRole('heading', { name: 'Nexus Docker' })).toBeVisible();
  const row = page.getByTestId(`container-row-${worker}`);
  await expect(row).toBeVisible();
  await expect(row.getByText('Running', { exact: true })).toBeVisible();
  await expect(row.getByText(/% CPU/)).toBeVisible({ timeout: 10_000 });

  await row.getByRole('button', { name: `Stop ${worker}`, exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByRole('heading', { name: `Stop ${worker}?` })).toBeVisible();
  // Cancel leaves it running.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(podman('inspect', '-f', '{{.State.Status}}', worker)).toBe('running');

  await row.getByRole('button', { name: `Stop ${worker}`, exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Stop' }).click();
  await expect(row.getByText('Exited', { exact: true })).toBeVisible({ timeout: 10_000 });
  expect(podman('inspect', '-f', '{{.State.Status}}', worker)).toBe('exited');

  await row.getByRole('button', { name: `Start ${worker}`, exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Start' }).click();
  await expect(row.getByText('Running', { exact: true })).toBeVisible({ timeout: 10_000 });
  expect(podman('inspect', '-f', '{{.State.Status}}', worker)).toBe('running');
});

test('the log view follows a container live, highlights stderr and pauses', async ({ page }) => {
  await page.goto(`/nexus-logs?container=${talker}`);
  const log = page.getByRole('log', { name: `Log of ${talker}` });
  await expect(log.getByText(/tick \d+/).first()).toBeVisible();
  await expect(page.getByText('Live', { exact: true })).toBeVisible({ timeout: 10_000 });

  // New lines arrive over the live channel: a higher counter than anything in the backlog.
  const highest = async () =>
    Math.max(
      -1,
      ...(await log.locator('[data-stream="stdout"]').allTextContents()).map((t) =>
        Number(/tick (\d+)/.exec(t)?.[1] ?? -1),
      ),
    );
  const before = await highest();
  await expect.poll(highest, { timeout: 10_000 }).toBeGreaterThan(before + 2);

  const stderrLine = log.locator('[data-stream="stderr"]').first();
  await expect(stderrLine).toContainText(/warn \d+/);
  await expect(stderrLine).toHaveClass(/text-destructive/);

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByText('Paused', { exact: true })).toBeVisible();
  const frozen = await highest();
  await expect(page.getByRole('button', { name: /Resume \(\d+ new\)/ })).toBeVisible({ timeout: 10_000 });
  expect(await highest()).toBe(frozen);
  await page.getByRole('button', { name: /Resume/ }).click();
  await expect.poll(highest, { timeout: 10_000 }).toBeGreaterThan(frozen);

  await page.getByRole('textbox', { name: 'Search the log' }).fill('warn');
  await expect(log.locator('[data-stream="stdout"]')).toHaveCount(0);
  await expect(log.getByText(/warn \d+/).first()).toBeVisible();
});

test('redeploying a stack from /nexus-docker shows its progress and ends deployed', async ({ page }) => {
  const stack = `e2e-${run}-stack`;
  // pull_policy: never — no registry is reachable here; the redeploy recreates from the local image.
  // network_mode: host — no stack network or interface is made (see the top of this file).
  const deployed = await page.request.post('/api/docker/stacks', {
    data: {
      name: stack,
      compose: `services:\n  app:\n    image: ${TEST_IMAGE}\n    pull_policy: never\n    network_mode: host\n    command: ["sh", "-c", "while true; do sleep 1; done"]\n    stop_grace_period: 1s\n`,
    },
  });
  expect(deployed.status(), await deployed.text()).toBe(201);
  try {
    await page.goto('/nexus-docker');
    await page.getByRole('tab', { name: /Stacks/ }).click();
    const card = page.getByTestId(`stack-${stack}`);
    await card.getByRole('button', { name: 'Redeploy' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Redeploy' }).click();
    const progress = card.getByRole('region', { name: 'Deployment progress' });
    await expect(progress.getByText('Deployed', { exact: true })).toBeVisible({ timeout: 20_000 });
    const history = await page.request.get(`/api/docker/deployments?stack=${stack}`);
    const actions = ((await history.json()) as { deployments: { action: string; result: string }[] })
      .deployments;
    expect(actions[0]).toMatchObject({ action: 'redeploy', result: 'success' });
  } finally {
    await page.request.delete(`/api/docker/stacks/${stack}?volumes=true`);
  }
});
