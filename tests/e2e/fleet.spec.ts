import { randomBytes } from 'node:crypto';
import { test as base, expect, type Page } from '@playwright/test';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { waitFor } from '../support/wait-for.js';
import { startSwarmEngine, swarmUnavailable, SWARM_TEST_IMAGE, type SwarmEngine } from '../support/swarm.js';
import { expectNoSeriousAxeViolations } from './axe.js';
import { createAccount, signIn, type Account } from './shell-helpers.js';
import { skipFirstBootWizard } from './support.js';

/**
 * The fleet screens (issue 24) against a real swarm: Debian's dockerd with roots of its own
 * (tests/support/swarm.ts), and an agent whose DOCKER_HOST is that engine. The engine starts
 * outside a swarm, so the first test sees what a lone hub shows; the swarm is then made on an
 * address of its own in 127/8 with the CLI (the "Create a fleet" form's listen address would be
 * 0.0.0.0:2377, which test files running at once would fight over).
 *
 * Needs root and docker.io (scripts/ensure-test-deps.sh); skipped without them. Skipped too on an
 * agent built without the /api/fleet routes (the screens' branch is built beside the agent's).
 */
const skipReason = swarmUnavailable();

const test = base.extend<
  { admin: Account; member: Account },
  { engine: SwarmEngine; fleetAgent: RunningAgent }
>({
  engine: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
    async ({}, use) => {
      const engine = await startSwarmEngine({ swarm: false });
      await use(engine);
      await engine.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  fleetAgent: [
    async ({ engine }, use) => {
      const agent = await startAgent({ env: { DOCKER_HOST: engine.dockerHost, NEXUS_REGISTRATION: 'open' } });
      await skipFirstBootWizard(agent.url);
      await use(agent);
      await agent.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ fleetAgent }, use) => {
    await use(fleetAgent.url);
  },
  admin: async ({ fleetAgent }, use) => {
    await use(await createAccount(fleetAgent, { name: 'Ada Admin', role: 'admin' }));
  },
  member: async ({ fleetAgent }, use) => {
    await use(await createAccount(fleetAgent, { name: 'Max Member', role: 'user' }));
  },
});

test.describe.configure({ mode: 'serial' });
test.skip(skipReason !== null, skipReason ?? '');

test.beforeAll(async ({ fleetAgent }) => {
  // 401 (signed out) where the routes exist; 404 on an agent without them.
  const res = await fetch(`${fleetAgent.url}/api/fleet`);
  test.skip(res.status === 404, 'this agent has no /api/fleet routes (h/fleet-engine not merged)');
});

const run = randomBytes(3).toString('hex');
const stack = `fleet-${run}`;

/** A two-service stack on the host network: one for voice nodes, one for a role no node has. */
const COMPOSE = `services:
  talker:
    image: ${SWARM_TEST_IMAGE}
    command: ["sh", "-c", "echo hello from the fleet; while true; do sleep 1; done"]
    networks: [hostnet]
  speaker:
    image: ${SWARM_TEST_IMAGE}
    command: ["sh", "-c", "while true; do sleep 1; done"]
    networks: [hostnet]
    deploy:
      placement:
        constraints: [node.labels.nexus.role==tts]
networks:
  hostnet:
    external: true
    name: host
`;

/**
 * Opens a screen. Making the swarm (and its services) adds network interfaces to this machine, and
 * Chromium aborts the requests in flight when it sees them (net::ERR_NETWORK_CHANGED): the page
 * itself, opened again then, or a screen's lazily loaded code, for which the console offers
 * "Reload", which is what is done here.
 */
async function open(page: Page, path: string, title: string) {
  const heading = page.getByRole('heading', { name: title, level: 1 });
  const failed = page.getByRole('heading', { name: 'This screen could not be shown' });
  // The page itself can be the request that is aborted (Chromium's error page, no heading): open
  // it again then.
  await expect(async () => {
    await page.goto(path);
    await expect(heading.or(failed)).toBeVisible({ timeout: 10_000 });
  }).toPass({ timeout: 45_000 });
  if (await failed.isVisible()) {
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect(heading).toBeVisible({ timeout: 15_000 });
  }
}

const openControl = (page: Page) => open(page, '/nexus-control', 'Nexus Control');

test('a lone hub explains the fleet; admins get the forms, members only the words', async ({
  page,
  admin,
  member,
}) => {
  test.setTimeout(90_000);
  await signIn(page, member);
  await openControl(page);
  const fleet = page.getByRole('region', { name: 'Fleet' });
  await expect(fleet.getByText('Several hubs can work as one fleet')).toBeVisible();
  await expect(fleet.getByText('An administrator can create a fleet or join one.')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Create a fleet' })).toHaveCount(0);

  await page.context().clearCookies();
  await signIn(page, admin);
  await openControl(page);
  await expect(page.getByRole('form', { name: 'Create a fleet' })).toBeVisible();
  const join = page.getByRole('form', { name: 'Join a fleet' });
  await expect(join).toBeVisible();
  await expectNoSeriousAxeViolations(page, '/nexus-control outside a swarm');

  // A token that is not one is refused with the agent's words, and nothing is joined.
  await join.getByLabel('Manager address').fill('127.0.0.1:2377');
  await join.getByLabel('Join token').fill('not-a-token');
  await join.getByRole('button', { name: 'Join the fleet' }).click();
  await expect(join.getByRole('alert')).toContainText(/token/i);

  // The deploy screen offers the fleet only in one, and says why.
  await open(page, '/nexus-deploy', 'Nexus Deploy');
  await page.getByRole('tab', { name: 'Compose file' }).click();
  await expect(page.getByRole('radio', { name: 'The fleet' })).toBeDisabled();
  await expect(page.getByText('This hub is in no fleet yet')).toBeVisible();
});

test('in a swarm: node cards, labels, join commands (admins only)', async ({
  page,
  admin,
  member,
  engine,
}) => {
  test.setTimeout(90_000);
  const addr = `127.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}.9`;
  engine.cli(['swarm', 'init', '--advertise-addr', addr, '--listen-addr', `${addr}:2377`]);
  // The engine makes its ingress network as the swarm starts; the agent then reads the swarm.
  await waitFor(
    () => engine.cli(['network', 'ls', '--filter', 'name=ingress', '--format', '{{.Name}}']).trim(),
    (name) => name === 'ingress',
    { timeoutMs: 30_000, what: "the swarm's ingress network" },
  );
  const hostname = engine.cli(['info', '--format', '{{.Name}}']).trim();

  await signIn(page, admin);
  await openControl(page);
  const card = page.getByRole('region', { name: `Node ${hostname}` });
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card.getByText('Manager', { exact: true })).toBeVisible();
  await expect(card.getByText('Leader')).toBeVisible();
  await expect(card.getByText('This hub')).toBeVisible();

  const worker = page.getByTestId('join-command-worker');
  await expect(worker.locator('code')).toContainText('docker swarm join --token SWMTKN-1-');
  const before = await worker.locator('code').textContent();
  await worker.getByRole('button', { name: 'Rotate the worker token' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate' }).click();
  await expect(worker.locator('code')).not.toHaveText(before ?? '');

  await card.getByRole('button', { name: `Edit labels of ${hostname}` }).click();
  const dialog = page.getByRole('dialog', { name: `Labels of ${hostname}` });
  await dialog.getByRole('button', { name: 'nexus.role' }).click();
  await dialog.getByLabel('Value').first().fill('voice');
  await dialog.getByRole('button', { name: 'Save labels' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(card.getByText('nexus.role=voice')).toBeVisible();
  expect(engine.cli(['node', 'inspect', 'self', '--format', '{{json .Spec.Labels}}'])).toContain(
    '"nexus.role":"voice"',
  );
  await expectNoSeriousAxeViolations(page, '/nexus-control in a swarm (admin)');

  // A member sees the nodes, never a token or a control.
  await page.context().clearCookies();
  await signIn(page, member);
  await openControl(page);
  await expect(page.getByRole('region', { name: `Node ${hostname}` })).toBeVisible();
  await expect(page.getByText('SWMTKN-1')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Join commands' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Edit labels/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Leave the fleet' })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, '/nexus-control in a swarm (member)');
});

test('a stack to the fleet with a constraint from the picker: tasks, a pending reason, scale, logs', async ({
  page,
  admin,
  member,
  engine,
}) => {
  test.setTimeout(120_000);
  await signIn(page, admin);
  await open(page, '/remote-deploy', 'Nexus Deploy');
  await page.getByRole('tab', { name: 'Compose file' }).click();
  await page.getByLabel('Stack name', { exact: true }).fill(stack);
  await page.getByRole('textbox', { name: 'Compose file' }).fill(COMPOSE);
  await page.getByRole('radio', { name: 'The fleet' }).check();
  await page.getByRole('checkbox', { name: 'node.labels.nexus.role==voice' }).check();
  await expect(page.getByText(/1 of 1 nodes match/)).toBeVisible();
  await page.getByRole('button', { name: 'Deploy stack' }).click();
  // As a person would: the deployment's own progress says it is done before they look elsewhere
  // (leaving the page at once would cut the streamed request on a loaded machine).
  await expect(page.getByRole('region', { name: 'Deployment progress' })).toContainText('Deployed', {
    timeout: 60_000,
  });

  await open(page, '/nexus-deployment', 'Nexus Deploy');
  await expect(page.getByRole('tab', { name: 'Fleet services', selected: true })).toBeVisible();
  const talker = page.getByRole('region', { name: `${stack}_talker` });
  await expect(talker.getByTestId(`replicas-${stack}_talker`)).toHaveText('1/1 running', { timeout: 60_000 });
  const speaker = page.getByRole('region', { name: `${stack}_speaker` });
  await expect(speaker.getByTestId('task-reason').first()).toHaveText(
    'No node matches: node.labels.nexus.role==tts, node.labels.nexus.role==voice',
    { timeout: 30_000 },
  );
  expect(engine.cli(['stack', 'ls', '--format', '{{.Name}}'])).toContain(stack);

  await talker.getByLabel('Replicas').fill('2');
  await talker.getByRole('button', { name: 'Scale' }).click();
  await expect(talker.getByTestId(`replicas-${stack}_talker`)).toHaveText('2/2 running', { timeout: 60_000 });

  await talker.getByRole('button', { name: `Logs of ${stack}_talker` }).click();
  const logs = page.getByRole('dialog', { name: `Logs of ${stack}_talker` });
  await expect(logs.getByText('hello from the fleet').first()).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press('Escape');
  await expectNoSeriousAxeViolations(page, '/nexus-deployment (admin)');

  // A member reads the same services, with no action on them.
  await page.context().clearCookies();
  await signIn(page, member);
  await open(page, '/nexus-deployment', 'Nexus Deploy');
  await expect(page.getByRole('region', { name: `${stack}_talker` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Scale' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Roll back' })).toHaveCount(0);
});
