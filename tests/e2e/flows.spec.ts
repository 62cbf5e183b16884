import { randomBytes } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { setRole } from './shell-helpers.js';
import { expect, test } from './support.js';

const email = `flows-${randomBytes(3).toString('hex')}@example.com`;
const password = 'correct horse battery staple';
let signedUp = false;

test.beforeEach(async ({ page }) => {
  const res = signedUp
    ? await page.request.post('/api/auth/login', { data: { email, password } })
    : await page.request.post('/api/auth/register', { data: { name: 'Flo Builder', email, password } });
  expect(res.ok()).toBe(true);
  signedUp = true;
});

/** A flow made through the API, for the screens that need one to exist. */
async function makeFlow(page: Page, name: string) {
  const res = await page.request.post('/api/flows', {
    data: {
      name,
      trigger: { type: 'api' },
      stages: [
        { id: 'hello', name: 'Say hello', kind: 'notify', config: { title: 'Hello {{trigger.text}}' } },
      ],
    },
  });
  expect(res.status()).toBe(201);
}

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

test('gallery → builder → run: stages added, ordered by keyboard, saved and run with live stage status', async ({
  page,
}) => {
  await page.goto('/flowforge');
  await expect(page.getByRole('heading', { name: 'FlowForge Gallery' })).toBeVisible();
  await expect(page.getByText('No flows yet')).toBeVisible();
  await expect(page.getByText('voice command → Home Assistant')).toBeVisible();
  await expect(page.getByText('morning briefing on a schedule')).toBeVisible();
  await expect(page.getByText('webhook → summarise → notify')).toBeVisible();
  await axeClean(page);

  await page.getByRole('button', { name: 'New flow' }).click();
  await expect(page).toHaveURL(/\/advanced-pipeline\?flow=\d+$/);
  await expect(page.getByRole('heading', { name: 'Untitled flow' })).toBeVisible();
  await expect(page.getByText('No stages yet')).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill('Greeting');
  await page.getByLabel('Trigger', { exact: true }).selectOption('api');

  await page.getByLabel('Stage kind').selectOption('notify');
  await page.getByRole('button', { name: 'Add stage' }).click();
  await page.getByLabel('Title').fill('Hello {{trigger.text}}');

  await page.getByLabel('Stage kind').selectOption('condition');
  await page.getByRole('button', { name: 'Add stage' }).click();
  await page.getByLabel('Value', { exact: true }).fill('{{trigger.text}}');
  await page.getByLabel('Compare with').fill('builder');
  // The condition goes first, by keyboard.
  const up = page.getByRole('button', { name: 'Move Condition up' });
  await up.focus();
  await page.keyboard.press('Enter');
  const stages = page.getByRole('listitem', { name: /^Stage \d/ });
  await expect(stages.nth(0)).toHaveAccessibleName('Stage 1: Condition');
  await expect(stages.nth(1)).toHaveAccessibleName('Stage 2: Notification');
  // Focus stays with the moved stage: at the top its up button is disabled, so the stage itself has it.
  await expect(stages.nth(0)).toBeFocused();
  await page.getByRole('button', { name: 'Move Condition down' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Move Condition up' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Move Condition down' })).toBeDisabled();
  await expect(stages.nth(1)).toBeFocused();
  await page.getByRole('button', { name: 'Move Condition up' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Move Condition up' })).toBeDisabled();

  // The contract's schema checks the form: an empty title is refused before saving.
  await page.getByLabel('Title').fill('');
  await expect(page.getByText('Give a title')).toBeVisible();
  await page.getByLabel('Title').fill('Hello {{trigger.text}}');

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Version 2 ·')).toBeVisible();
  await axeClean(page);

  await page.getByLabel('Trigger input').fill('the builder');
  await page.getByRole('button', { name: 'Run now' }).click();
  const run = page.locator('[aria-live="polite"]').first();
  await expect(run.getByText('Succeeded', { exact: true })).toBeVisible();
  await expect(run.locator('[data-stage-status="succeeded"]')).toHaveCount(2);
  await expect(page.getByRole('button', { name: /#\d+ Manual/ })).toBeVisible();

  // Back in the gallery the flow is listed.
  await page.goto('/gallery');
  await expect(page.getByRole('link', { name: 'Greeting' })).toBeVisible();
});

test('API keys: created, shown once, revoked', async ({ page }) => {
  await makeFlow(page, 'For the key');
  await page.goto('/flowforge/api-keys');
  await expect(page.getByRole('heading', { name: 'FlowForge API Keys' })).toBeVisible();
  await expect(page.getByText('No keys yet')).toBeVisible();
  await page.getByLabel('Name').fill('Script');
  await page.getByRole('checkbox', { name: /For the key/ }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByTestId('new-api-key')).toHaveText(/^nxf_/);
  await axeClean(page);
  await page.getByRole('button', { name: 'I have stored it' }).click();
  await expect(page.getByTestId('new-api-key')).toHaveCount(0);
  await page.getByRole('button', { name: 'Revoke Script' }).click();
  await expect(page.getByText('Revoked')).toBeVisible();
});

test('session simulations and /pipeline-builder open FlowForge screens', async ({ page }) => {
  await makeFlow(page, 'Simulated');
  await page.goto('/session-simulations');
  await page.getByLabel('Flow', { exact: true }).selectOption({ label: 'Simulated (API)' });
  await expect(page.getByRole('heading', { name: 'Session Simulations' })).toBeVisible();
  await page.getByLabel('Typed input').fill('the builder');
  await page.getByRole('button', { name: 'Run with typed input' }).click();
  await expect(page.locator('[data-stage-status="succeeded"]').first()).toBeVisible();
  await axeClean(page);

  await page.goto('/pipeline-builder');
  await expect(page.getByRole('heading', { name: 'Pipeline Builder' })).toBeVisible();
});

test('builder: a secret typed once is kept without being shown; a voice flow lets a chosen satellite start it', async ({
  page,
  agent,
}) => {
  // Adding a satellite is an admin's; this worker's first account may belong to another spec.
  setRole(agent, email, 'superadmin');
  const added = await page.request.post('/api/devices/satellite', { data: { name: 'Kitchen satellite' } });
  expect(added.status()).toBe(201);
  const satelliteId = ((await added.json()) as { satellite: { id: number } }).satellite.id;
  const created = await page.request.post('/api/flows', {
    data: {
      name: 'Kitchen voice',
      trigger: { type: 'voice' },
      stages: [{ id: 'vad', name: 'Trim silence', kind: 'vad', config: {} }],
    },
  });
  expect(created.status()).toBe(201);
  const flowId = ((await created.json()) as { id: number }).id;

  await page.goto(`/advanced-pipeline?flow=${flowId}`);
  await expect(page.getByRole('heading', { name: 'Kitchen voice' })).toBeVisible();
  await expect(page.getByText('No secrets. Add one when a stage needs a token.')).toBeVisible();
  await page.getByRole('button', { name: 'Add a secret' }).click();
  const secrets = page.getByRole('list', { name: 'Secrets' });
  await secrets.getByLabel('Name').fill('SERVICE_TOKEN');
  await secrets.getByLabel('Value').fill('tok');
  await expect(secrets.getByText('A secret has at least 4 characters')).toBeVisible();
  await secrets.getByLabel('Value').fill('tok-12345678');
  await page.getByRole('checkbox', { name: /Kitchen satellite/ }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Version 2 ·')).toBeVisible();
  await axeClean(page);

  await page.reload();
  await expect(page.getByRole('list', { name: 'Secrets' }).getByLabel('Value')).toHaveAttribute(
    'placeholder',
    'Stored — type to replace',
  );
  await expect(page.getByRole('list', { name: 'Secrets' }).getByLabel('Value')).toHaveValue('');
  await expect(page.getByRole('checkbox', { name: /Kitchen satellite/ })).toBeChecked();
  const flow = (await (await page.request.get(`/api/flows/${flowId}`)).json()) as {
    trigger: unknown;
    secrets: unknown;
  };
  expect(flow.trigger).toEqual({ type: 'voice', satellites: [satelliteId] });
  expect(flow.secrets).toEqual([{ name: 'SERVICE_TOKEN', value: '', hasValue: true }]);
  expect(JSON.stringify(flow)).not.toContain('tok-12345678');
});
