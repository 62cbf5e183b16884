import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { startHomeAssistantSim, type HomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { orinNanoJetPack61, xavierNxJetPack512, type HostTree } from '../fixtures/jetson-hosts.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { expect, test } from './support.js';

/**
 * The appliance in the browser: a fresh hub (its own agent, a fresh data directory) sends every
 * visitor to /install, the wizard sets it up end to end and resumes after reloads; the Jetson
 * check on host-root fixture trees; Nexus management and a second hub watched by URL and token.
 */

const PASSWORD = 'correct-horse-battery';
const cleanup: (() => Promise<unknown> | unknown)[] = [];
test.afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A hub nobody has set up. The engine socket points nowhere, so the services step is predictable. */
async function freshHub(env: Record<string, string> = {}): Promise<RunningAgent> {
  const noEngine = fs.mkdtempSync(path.join(os.tmpdir(), 'no-engine-'));
  const agent = await startAgent({ env: { DOCKER_HOST: `unix://${noEngine}/docker.sock`, ...env } });
  cleanup.push(
    () => agent.stop(),
    () => fs.rmSync(noEngine, { recursive: true, force: true }),
  );
  return agent;
}

function tree(make: () => HostTree): HostTree {
  const t = make();
  cleanup.push(() => t.remove());
  return t;
}

async function expectStep(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true })).toBeVisible();
}

async function expectNoSeriousViolations(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${where}: ${v.id} ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

/** Sets a hub up through the API, signing the page's browser in as its owner. */
async function setUpThroughApi(page: Page, agent: RunningAgent, hubName: string) {
  const res = await page.request.post(`${agent.url}/api/setup`, {
    data: {
      hubName,
      timeZone: 'UTC',
      owner: { name: 'Owner', email: `owner-${hubName.toLowerCase()}@example.com`, password: PASSWORD },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

test('a fresh hub sends every visitor to /install, and the wizard sets it up end to end, resuming after reloads', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const hub = await freshHub();
  const ha: HomeAssistantSim = await startHomeAssistantSim();
  cleanup.push(() => ha.stop());

  // Any address leads to the wizard while no account exists.
  await page.goto(`${hub.url}/dashboard`);
  await expect(page).toHaveURL(`${hub.url}/install`);
  await expect(page.getByRole('heading', { level: 1, name: 'Set up your Nexus hub' })).toBeVisible();
  await expectStep(page, 'Step 1 of 7: Welcome');
  await expectNoSeriousViolations(page, 'install welcome');
  await page.getByRole('button', { name: 'Get started' }).click();

  await expectStep(page, 'Step 2 of 7: Owner account');
  await page.getByLabel('Name').fill('Ada Owner');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill('something else');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Passwords do not match' })).toBeVisible();
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();

  await expectStep(page, 'Step 3 of 7: Hub name and time zone');
  await page.getByLabel('Hub name').fill('Living Room Hub');
  await page.getByLabel('Time zone').fill('Europe/Berlin');

  // A reload keeps the answers but not the password, which is asked again.
  await page.reload();
  await expectStep(page, 'Step 2 of 7: Owner account');
  await expect(page.getByText('The page was reloaded: enter the password again')).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('Ada Owner');
  await expect(page.getByLabel('Email')).toHaveValue('ada@example.com');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('Hub name')).toHaveValue('Living Room Hub');
  await expect(page.getByLabel('Time zone')).toHaveValue('Europe/Berlin');
  await page.getByRole('button', { name: 'Create the hub' }).click();

  // The owner exists and is signed in; the agent keeps the progress from here on.
  await expectStep(page, 'Step 4 of 7: Network check');
  const user = await (await page.request.get(`${hub.url}/api/auth/user`)).json();
  expect(user).toMatchObject({ name: 'Ada Owner', email: 'ada@example.com', role: 'superadmin' });
  const checks = page.getByRole('list', { name: 'Network checks' });
  await expect(checks.getByRole('listitem')).toHaveCount(5);
  await expect(checks.locator('[data-check="lan"]')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expectStep(page, 'Step 5 of 7: Home Assistant');
  await page.reload();
  await expectStep(page, 'Step 5 of 7: Home Assistant');
  await page.getByLabel('Home Assistant address').fill(ha.url);
  await page.getByLabel('Long-lived access token').fill(ha.token);
  await page.getByRole('button', { name: 'Save and connect' }).click();
  await expect(page.getByText('Connected', { exact: true })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Continue' }).click();

  await expectStep(page, 'Step 6 of 7: Models and services');
  await expect(page.getByText('The container engine cannot be reached')).toBeVisible();
  await page.getByRole('button', { name: 'Skip for now' }).click();

  await expectStep(page, 'Step 7 of 7: Done');
  await expect(page.getByText('Living Room Hub is set up.', { exact: false })).toBeVisible();
  const summary = page.getByRole('list', { name: 'What was set up' });
  await expect(summary.getByRole('listitem').filter({ hasText: 'Home Assistant' })).toContainText('Done');
  await expect(summary.getByRole('listitem').filter({ hasText: 'Models and services' })).toContainText(
    'Skipped',
  );
  const progress = await (await page.request.get(`${hub.url}/api/setup/progress`)).json();
  expect(progress).toMatchObject({
    hubName: 'Living Room Hub',
    timeZone: 'Europe/Berlin',
    currentStep: 'done',
  });
  await expect
    .poll(async () => (await (await page.request.get(`${hub.url}/api/setup/progress`)).json()).finishedAt)
    .not.toBeNull();

  await page.getByRole('link', { name: 'Open the dashboard' }).click();
  await expect(page).toHaveURL(`${hub.url}/dashboard`);

  // Set up: a visitor in another browser sees the landing page, not the wizard.
  const visitor = await page.context().browser()!.newContext();
  cleanup.push(() => visitor.close());
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(`${hub.url}/`);
  await expect(visitorPage).toHaveURL(`${hub.url}/`);
  await expect(visitorPage.getByRole('heading', { level: 1 })).not.toHaveText('Set up your Nexus hub');
  expect(await (await visitorPage.request.get(`${hub.url}/api/setup/status`)).json()).toEqual({
    needsSetup: false,
    suggested: null,
  });
});

test('the wizard can be skipped for the sign-in screen, where the first account is the owner', async ({
  page,
}) => {
  const hub = await freshHub();
  await page.goto(`${hub.url}/`);
  await expect(page).toHaveURL(`${hub.url}/install`);
  await page.getByRole('button', { name: 'Skip the wizard' }).click();
  await page.getByRole('button', { name: 'Go to the sign-in screen' }).click();
  await expect(page).toHaveURL(`${hub.url}/auth`);
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Name').fill('Grace Owner');
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(`${hub.url}/dashboard`);
  expect((await (await page.request.get(`${hub.url}/api/auth/user`)).json()).role).toBe('superadmin');
  // The rest of the wizard is still there for the owner, from the hub's name on.
  await page.goto(`${hub.url}/install`);
  await expectStep(page, 'Step 3 of 7: Hub name and time zone');
});

test('the Jetson check reads a Xavier NX on JetPack 5 from its host root and says what to fix', async ({
  page,
}) => {
  const host = tree(xavierNxJetPack512);
  const hub = await freshHub({ NEXUS_HOST_ROOT: host.root });
  await setUpThroughApi(page, hub, 'Workshop');
  await page.goto(`${hub.url}/jetson-check`);
  await expect(page.getByRole('heading', { level: 1, name: 'Jetson Check' })).toBeVisible();
  await expect(
    page.getByRole('heading', { level: 2, name: /NVIDIA Jetson Xavier NX Developer Kit/ }),
  ).toBeVisible();
  await expect(page.getByText('R35.4.1', { exact: true })).toBeVisible();
  const checks = page.getByRole('list', { name: 'Jetson checks' });
  await expect(checks.locator('[data-check="jetpack"]')).toHaveAttribute('data-status', 'warn');
  await expect(checks.locator('[data-check="cpu-clocks"]')).toContainText('2 of 6 cores online');
  await expect(checks.locator('[data-check="container-runtime"]')).toContainText(
    'sudo nvidia-ctk runtime configure --runtime=docker',
  );
  await expect(page.getByText('(fixed value, not measured)')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'VDD_IN' })).toBeVisible();
  await expectNoSeriousViolations(page, 'jetson check');
});

test('Nexus management shows the hub and its services, runs the self-test, and watches another hub', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const host = tree(orinNanoJetPack61);
  const home = await freshHub({ NEXUS_HOST_ROOT: host.root });
  const cabin = await freshHub();
  await setUpThroughApi(page, home, 'Home');

  await page.goto(`${home.url}/nexus-management`);
  await expect(page.getByRole('heading', { level: 1, name: 'Nexus Management' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Home' })).toBeVisible();
  await expect(page.getByText('NVIDIA Jetson Orin Nano Developer Kit')).toBeVisible();
  const agentRow = page.locator('[data-service="agent"]');
  await expect(agentRow).toContainText('Healthy');
  await expect(page.locator('[data-service="docker"]')).toContainText('Down');

  await page.getByRole('link', { name: 'Self-test' }).click();
  await expect(page).toHaveURL(`${home.url}/nexus-test`);
  await page.getByRole('button', { name: 'Run the self-test' }).click();
  for (const group of ['Services', 'Network', 'Hardware']) {
    await expect(page.getByRole('heading', { level: 2, name: group })).toBeVisible();
  }

  // Cabin issues a token; home adds cabin with it.
  const cabinOwner = await page.context().browser()!.newContext();
  cleanup.push(() => cabinOwner.close());
  const cabinPage = await cabinOwner.newPage();
  await setUpThroughApi(cabinPage, cabin, 'Cabin');
  await cabinPage.goto(`${cabin.url}/multi-nexus`);
  await cabinPage.getByLabel('For which hub').fill('Home hub');
  await cabinPage.getByRole('button', { name: 'Create a token' }).click();
  const token = (await cabinPage.getByTestId('created-token').textContent())!.trim();
  expect(token).toMatch(/^nxh_/);
  await cabinPage.getByRole('button', { name: 'Done' }).click();
  await expect(cabinPage.getByRole('cell', { name: 'Home hub' })).toBeVisible();

  await page.goto(`${home.url}/multi-nexus`);
  await expect(page.getByText('No other hubs yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Add a hub' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Cabin');
  await dialog.getByLabel('Address').fill(cabin.url);
  await dialog.getByLabel('Access token').fill('nxh_this-is-not-the-token');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByRole('alert')).toContainText('rejected the access token');
  await dialog.getByLabel('Access token').fill(token);
  await dialog.getByRole('button', { name: 'Add' }).click();
  const card = page.locator('[data-hub="Cabin"]');
  await expect(card).toBeVisible();
  await expect(card.getByText(/^(Online|Degraded)$/)).toBeVisible();
  await expect(card).toContainText('Cabin');
  await expect(card).toContainText('Last seen');

  // Cabin goes away: home shows it offline after a check.
  await cabin.stop();
  await card.getByRole('button', { name: 'Check Cabin now' }).click();
  await expect(card.getByText('Offline', { exact: true })).toBeVisible();
});
