import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { test as base, expect } from '@playwright/test';
import { startRegistrySim, type RegistrySim } from '../fixtures/registry-sim.js';
import { expectNoSeriousAxeViolations } from './axe.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { cleanUpDocker, ensureDockerEngine, podman, TEST_IMAGE } from '../support/docker-engine.js';

/**
 * Safe container updates on /nexus-docker (issue 20) against the real engine (Podman) and the
 * registry simulator on loopback (the one port scripts/podman-service.sh marks insecure). The
 * simulator runs in this process, so podman commands that reach it run without blocking it.
 * Containers share the host's network (see docker.spec.ts: a bridge interface upsets Chromium).
 */

const REGISTRY_PORT = 45123;
const run = randomBytes(3).toString('hex');
const repo = `nexus-e2e/app-${run}`;
const app = `e2e-upd-${run}-app`;
/** Built here (no registry knows it) and named as the hub's own container. */
const hub = `e2e-upd-${run}-hub`;
const builds = {
  v1: `localhost/e2e-upd-${run}:v1`,
  v2: `localhost/e2e-upd-${run}:v2`,
  bad: `localhost/e2e-upd-${run}:bad`,
};
const password = 'correct horse battery staple';

const execFileAsync = promisify(execFile);
const podmanAsync = async (...args: string[]) => (await execFileAsync('podman', args)).stdout.trim();

const test = base.extend<object, { updatesAgent: RunningAgent }>({
  updatesAgent: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
    async ({}, use) => {
      const agent = await startAgent({
        env: { DOCKER_HOST: ensureDockerEngine(), NEXUS_REGISTRATION: 'open', NEXUS_AGENT_CONTAINER: hub },
      });
      await use(agent);
      await agent.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ updatesAgent }, use) => {
    await use(updatesAgent.url);
  },
});

let sim: RegistrySim | undefined;
let ref = '';
const imageIds: Record<string, string> = {};

/** The engine's `GET /images/{name}/get` (a docker-archive tarball), as the simulator is fed. */
function exportImage(name: string): Promise<Buffer> {
  const socketPath = ensureDockerEngine().replace('unix://', '');
  return new Promise((resolve, reject) => {
    http
      .get({ socketPath, path: `/v1.41/images/${encodeURIComponent(name)}/get` }, (res) => {
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

/** A busybox image in Docker format (OCI's drops HEALTHCHECK), with a healthcheck that passes or fails. */
function build(tag: string, version: string, healthcheck = 'HEALTHCHECK --interval=1s CMD true') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-upd-'));
  fs.writeFileSync(
    path.join(dir, 'Containerfile'),
    [
      `FROM ${TEST_IMAGE}`,
      `LABEL version=${version}`,
      healthcheck,
      'CMD ["sh", "-c", "while true; do sleep 1; done"]',
    ].join('\n'),
  );
  try {
    podman('build', '--format', 'docker', '-q', '-t', tag, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  imageIds[tag] = podman('image', 'inspect', '--format', '{{.Id}}', tag).replace(/^sha256:/, '');
}

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  ensureDockerEngine();
  build(builds.v1, '1');
  build(builds.v2, '2');
  build(builds.bad, 'bad', 'HEALTHCHECK --interval=1s --retries=1 CMD false');
  sim = await startRegistrySim({ port: REGISTRY_PORT });
  ref = `${sim.host}/${repo}:stable`;
  await sim.push(repo, 'stable', await exportImage(builds.v1));
  await podmanAsync('pull', '-q', ref);
  await podmanAsync('run', '-d', '--name', app, '--network', 'host', '--stop-timeout', '1', ref);
  await podmanAsync(
    'run',
    '-d',
    '--name',
    hub,
    '--network',
    'host',
    '--stop-timeout',
    '1',
    TEST_IMAGE,
    'sleep',
    '600',
  );
});

test.afterAll(async () => {
  await sim?.close();
  // An interrupted update leaves the old container as "<name>-nexus-previous-…".
  const leftovers = podman('ps', '-a', '--format', '{{.Names}}', '--filter', `name=e2e-upd-${run}`)
    .split('\n')
    .filter(Boolean);
  cleanUpDocker({ containers: [app, hub, ...leftovers] });
  for (const image of [ref, ...Object.values(builds)].filter(Boolean)) {
    try {
      podman('rmi', '-f', image);
    } catch {
      // already gone (or never made)
    }
  }
});

test('an admin sees an update, confirms it, follows its progress and reads the result', async ({ page }) => {
  const registered = await page.request.post('/api/auth/register', {
    data: { name: 'Update Owner', email: `owner-${run}@example.com`, password },
  });
  expect(registered.status()).toBe(201);
  // Registries are outbound requests: the simulator's loopback address needs the admin's allow-list entry.
  const allowed = await page.request.put('/api/settings/outbound', {
    data: { allowList: [`127.0.0.1:${REGISTRY_PORT}`] },
  });
  expect(allowed.status()).toBe(200);
  // The tag moves on to v2 in the registry; the container still runs v1.
  await sim!.push(repo, 'stable', await exportImage(builds.v2));

  await page.goto('/nexus-docker');
  const row = page.getByTestId(`container-row-${app}`);
  await expect(row).toBeVisible();
  const check = page.getByRole('button', { name: 'Check for updates' });
  await check.click();
  await expect(row.getByText('Update available', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(check).toBeEnabled();

  // The hub's own container says why it is not updated here, and a built image why nothing is known.
  const hubRow = page.getByTestId(`container-row-${hub}`);
  await expect(hubRow.getByRole('button', { name: 'Unknown' })).toHaveAccessibleDescription(
    /built or imported here/,
  );
  await expect(hubRow.getByRole('button', { name: 'Update on the host' })).toHaveAccessibleDescription(
    /runs the hub/,
  );
  await expect(hubRow.getByRole('button', { name: `Update ${hub}` })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, 'nexus-docker with an update available (light)');

  // The confirmation says what will happen; the keyboard opens it.
  await row.getByRole('button', { name: `Update ${app}` }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: `Update ${app}?` });
  await expect(dialog).toContainText('recreates');
  await expect(dialog).toContainText('same settings');
  await expect(dialog).toContainText('healthy');
  await expect(dialog).toContainText('30 s');
  await expect(dialog).toContainText('old container is put back');
  await dialog.getByRole('button', { name: 'Update', exact: true }).click();

  // While it runs: an indeterminate bar and the step in words.
  const progress = page.getByRole('status', { name: `Updating ${app}` });
  await expect(progress.getByRole('progressbar', { name: `Update of ${app}` })).toBeVisible();
  await expect(progress).toContainText(/Pulling the new image|waiting until the new container is healthy/);

  const result = page.getByRole('alert').filter({ hasText: `${app} updated` });
  await expect(result).toContainText(
    `From image ${imageIds[builds.v1]!.slice(0, 12)} to ${imageIds[builds.v2]!.slice(0, 12)}`,
    { timeout: 60_000 },
  );
  await expect(progress).toHaveCount(0);
  expect(podman('container', 'inspect', '--format', '{{.Image}}', app).replace(/^sha256:/, '')).toBe(
    imageIds[builds.v2],
  );
  // Its row is checked again and says so.
  await expect(page.getByTestId(`container-row-${app}`).getByText('Up to date', { exact: true })).toBeVisible(
    {
      timeout: 20_000,
    },
  );
  await result.getByRole('button', { name: `Dismiss the update result for ${app}` }).click();
  await expect(result).toHaveCount(0);
});

test('an image whose healthcheck fails is rolled back, and the alert says why', async ({ page }) => {
  const signedIn = await page.request.post('/api/auth/login', {
    data: { email: `owner-${run}@example.com`, password },
  });
  expect(signedIn.status()).toBe(200);
  await sim!.push(repo, 'stable', await exportImage(builds.bad));
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/nexus-docker');
  const row = page.getByTestId(`container-row-${app}`);
  await page.getByRole('button', { name: 'Check for updates' }).click();
  await row.getByRole('button', { name: `Update ${app}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Update', exact: true }).click();
  const result = page.getByRole('alert').filter({ hasText: `Update of ${app} rolled back` });
  await expect(result).toContainText(/healthcheck failed/, { timeout: 60_000 });
  await expectNoSeriousAxeViolations(page, 'nexus-docker after a rollback (dark)');
  await expect(result).toContainText(`runs its previous image (${imageIds[builds.v2]!.slice(0, 12)}) again`);
  expect(podman('container', 'inspect', '--format', '{{.Image}}', app).replace(/^sha256:/, '')).toBe(
    imageIds[builds.v2],
  );
});

test('a member sees no update controls', async ({ page }) => {
  const registered = await page.request.post('/api/auth/register', {
    data: { name: 'Update Member', email: `member-${run}@example.com`, password },
  });
  expect(registered.status()).toBe(201);
  // The owner registered first (the specs run in order), so this account is a member.
  expect(((await registered.json()) as { user: { role: string } }).user.role).toBe('user');
  await page.goto('/nexus-docker');
  await expect(page.getByTestId(`container-row-${app}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Check for updates' })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Image updates' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Update ${app}` })).toHaveCount(0);
});
