import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect } from '@playwright/test';
import { startAgent, type RunningAgent } from '../support/agent.js';
import type { HomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { startHomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { createAccount, signIn, type Account } from './shell-helpers.js';
import { skipFirstBootWizard } from './support.js';

/**
 * The Home Assistant screens against the HA simulator. These specs run their own agent, because
 * connecting Home Assistant changes what every other screen of that hub shows.
 */
const test = base.extend<object, { haAgent: RunningAgent; sim: HomeAssistantSim }>({
  sim: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
    async ({}, use) => {
      const sim = await startHomeAssistantSim();
      await use(sim);
      await sim.stop();
    },
    { scope: 'worker' },
  ],
  haAgent: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
    async ({}, use) => {
      // The specs of this worker share the hub, each as a new visitor who registers: registration is
      // open here on purpose (invite mode, the default, is tested in registration.spec.ts).
      const agent = await startAgent({ env: { NEXUS_REGISTRATION: 'open' } });
      await skipFirstBootWizard(agent.url);
      await use(agent);
      await agent.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ haAgent }, use) => {
    await use(haAgent.url);
  },
});

test.describe.configure({ mode: 'serial' });

let admin: Account;

test.beforeAll(async ({ haAgent }) => {
  admin = await createAccount(haAgent, { name: 'Ada Admin', role: 'admin' });
});

test.beforeEach(async ({ page }) => {
  await signIn(page, admin);
});

test('connects through the settings screen, keeps the token hidden and passes every test step', async ({
  page,
  sim,
}) => {
  await page.goto('/ha-connection-setup');
  await expect(page.getByRole('tab', { name: 'Connection setup' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Home Assistant: Not configured')).toBeVisible();

  await page.getByLabel('Home Assistant address').fill(sim.url);
  await page.getByLabel('Long-lived access token').fill(sim.token);
  await page.getByRole('button', { name: 'Save and connect' }).click();
  await expect(page.getByText('Saved and connected')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('stored-token')).toContainText('Stored');
  await expect(page.getByLabel('Long-lived access token')).toHaveValue('');
  expect(await page.content()).not.toContain(sim.token);

  await page.getByRole('button', { name: 'Run the test' }).click();
  await expect(page.getByText('All 6 checks passed')).toBeVisible({ timeout: 15_000 });
  for (const step of ['dns', 'tcp', 'http', 'auth', 'websocket', 'registry']) {
    const row = page.locator(`[data-step="${step}"]`);
    await expect(row).toHaveAttribute('data-status', 'ok');
    await expect(row.getByTestId('step-time')).toHaveText(/\d ms$/);
  }
  await expect(page.locator('[data-step="registry"]')).toContainText(`${sim.entityCount} entities`);

  // The tabs are routes: the manager tab shows the live connection.
  await page.getByRole('tab', { name: 'Manager' }).click();
  await expect(page).toHaveURL(/\/ha-manager$/);
  await expect(page.getByText('Home Assistant: Connected').first()).toBeVisible();
});

test('admins choose what members may control; members do not see the choice', async ({ page, haAgent }) => {
  await page.goto('/ha-connection-setup');
  const card = page.getByRole('form', { name: 'Member access' });
  await expect(page.getByRole('heading', { name: 'Member access' })).toBeVisible();
  // The everyday domains Home Assistant has, lights ticked by default.
  await expect(card.getByRole('checkbox', { name: 'Lights' })).toBeChecked();
  await expect(card.getByRole('checkbox', { name: 'Switches' })).not.toBeChecked();
  await expect(card.getByRole('checkbox', { name: 'Locks' })).toHaveCount(0);
  await card.getByRole('checkbox', { name: 'Covers' }).click();
  await card.getByLabel('Also these entities').fill('switch.coffee_maker');
  await card.getByRole('button', { name: 'Add' }).click();
  await expect(card.getByRole('list', { name: 'Allowed entities' })).toContainText('Coffee Maker');
  await card.getByRole('button', { name: 'Save member access' }).click();
  await expect(card.getByText('Saved', { exact: true })).toBeVisible();
  const saved = await page.request.get('/api/settings/home-assistant/member-access');
  expect(await saved.json()).toEqual({ domains: ['cover', 'light'], entities: ['switch.coffee_maker'] });

  // Removing it again through the list.
  await card.getByRole('button', { name: 'Remove switch.coffee_maker' }).click();
  await card.getByRole('checkbox', { name: 'Covers' }).click();
  await card.getByRole('button', { name: 'Save member access' }).click();
  await expect(card.getByText('Saved', { exact: true })).toBeVisible();
  await expect
    .poll(async () => (await page.request.get('/api/settings/home-assistant/member-access')).json())
    .toEqual({ domains: ['light'], entities: [] });

  const member = await createAccount(haAgent, { name: 'Mo Member', role: 'user' });
  const memberPage = await page.context().browser()!.newPage({ baseURL: haAgent.url });
  try {
    await signIn(memberPage, member);
    await memberPage.goto('/ha-connection-setup');
    await expect(memberPage.getByText('Only administrators change the connection')).toBeVisible();
    await expect(memberPage.getByRole('heading', { name: 'Member access' })).toHaveCount(0);
    expect((await memberPage.request.get('/api/settings/home-assistant/member-access')).status()).toBe(403);
    // The member's control screen offers what they may use (lights), not a switch they may not.
    await memberPage.goto('/ha-device-control');
    await expect(
      memberPage
        .getByRole('group', { name: 'Kitchen Ceiling' })
        .getByRole('switch', { name: /Kitchen Ceiling/ }),
    ).toBeVisible();
    await expect(memberPage.getByRole('group', { name: 'Coffee Maker' })).toHaveCount(0);
  } finally {
    await memberPage.close();
  }
});

test('the entity list follows Home Assistant live', async ({ page, sim }) => {
  await page.goto('/ha-entities');
  await page.getByLabel('Search entities').fill('outdoor temperature');
  const row = page.locator('[data-entity-id="sensor.outdoor_temperature"]');
  await expect(row.getByTestId('entity-state')).toHaveText('7.4 °C');
  await expect(page.getByText('Live', { exact: true })).toBeVisible();

  sim.setState('sensor.outdoor_temperature', '12.5');
  await expect(row.getByTestId('entity-state')).toHaveText('12.5 °C');

  await page.getByLabel('Search entities').fill('');
  await page.getByRole('button', { name: 'By area' }).click();
  await expect(page.getByRole('region', { name: 'Garage', exact: true })).toBeVisible();
});

test('toggles a light and reconciles with the state Home Assistant reports', async ({ page, sim }) => {
  await page.goto('/ha-device-control');
  const card = page.getByRole('group', { name: 'Kitchen Ceiling' });
  await expect(card.getByTestId('entity-state')).toHaveText('Off');
  await card.getByRole('switch', { name: 'Kitchen Ceiling off' }).click();
  await expect(card.getByTestId('entity-state')).toHaveText('On');
  await expect.poll(() => sim.getState('light.kitchen_ceiling')?.state).toBe('on');
  await expect(card.getByText('On · 100%')).toBeVisible();
  expect(sim.serviceCalls.at(-1)).toMatchObject({ domain: 'light', service: 'turn_on' });

  // Someone else changes it in Home Assistant: the card follows.
  sim.setState('light.kitchen_ceiling', 'off', {
    ...sim.getState('light.kitchen_ceiling')!.attributes,
    brightness: null,
  });
  await expect(card.getByTestId('entity-state')).toHaveText('Off');

  // The thermostat's set point, within the limits Home Assistant reports.
  const thermostat = page.getByRole('group', { name: 'Hallway Thermostat' });
  const setPoint = thermostat.getByRole('status', { name: 'Hallway Thermostat set point' });
  await expect(setPoint).toHaveText('21°');
  sim.setState('climate.hallway_thermostat', 'heat', {
    ...sim.getState('climate.hallway_thermostat')!.attributes,
    temperature: 35,
  });
  await expect(setPoint).toHaveText('35°');
  await expect(thermostat.getByRole('button', { name: 'Raise Hallway Thermostat set point' })).toBeDisabled();
  await thermostat.getByRole('button', { name: 'Lower Hallway Thermostat set point' }).click();
  await expect(setPoint).toHaveText('34.5°');
  await expect.poll(() => sim.getState('climate.hallway_thermostat')?.attributes.temperature).toBe(34.5);

  // A call that cannot be carried out puts the old state back and says why.
  const fan = page.getByRole('group', { name: 'Office Fan' });
  await expect(fan.getByTestId('entity-state')).toHaveText('On');
  await sim.stop();
  try {
    await expect(page.getByText(/Home Assistant: (Reconnecting|Disconnected)/).first()).toBeVisible({
      timeout: 10_000,
    });
    await fan.getByRole('switch', { name: 'Office Fan on' }).click();
    await expect(page.getByText('Office Fan: turn off failed', { exact: true })).toBeVisible();
    await expect(page.getByText(/^Home Assistant is not reachable: /).first()).toBeVisible();
    await expect(fan.getByTestId('entity-state')).toHaveText('On');
  } finally {
    await sim.start();
  }
  await expect(page.getByText('Home Assistant: Connected').first()).toBeVisible({ timeout: 15_000 });
  expect(sim.getState('switch.office_fan')?.state).toBe('on');
});

test('the connection test explains a rejected token', async ({ page, sim }) => {
  const realToken = sim.token;
  sim.setToken('a-different-token');
  try {
    await page.goto('/ha-connection-test');
    await page.getByRole('button', { name: 'Run the test' }).click();
    await expect(page.getByText('Stopped at “Authenticate with the token”')).toBeVisible({ timeout: 15_000 });
    const auth = page.locator('[data-step="auth"]');
    await expect(auth).toHaveAttribute('data-status', 'failed');
    await expect(auth).toContainText('Home Assistant rejected the token.');
    await expect(auth).toContainText('How to fix it:');
    await expect(page.locator('[data-step="websocket"]')).toHaveAttribute('data-status', 'skipped');
    await expect(page.locator('[data-step="dns"]')).toHaveAttribute('data-status', 'ok');
  } finally {
    sim.setToken(realToken);
  }
});

// One test per screen, each with its own time budget: axe over a full screen takes seconds on a busy machine.
for (const [path, ready] of [
  ['/ha-connection-setup', 'Save and connect'],
  ['/ha-manager', 'Round trips'],
  ['/ha-summary', 'Entities by domain'],
  ['/ha-debug', 'Connection log'],
  ['/ha-entities', 'Lights'],
  ['/ha-device-control', 'Kitchen Ceiling'],
  ['/home-assistant-devices', 'Garage Door'],
  ['/ha-logbook', 'Period'],
] as const) {
  test(`${path} has no accessibility violations`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByText(ready).first()).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations, results.violations.map((v) => v.id).join(', ')).toEqual([]);
  });
}
