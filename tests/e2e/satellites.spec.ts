import { randomBytes } from 'node:crypto';
import {
  request,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { satelliteListSchema } from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { expectNoSeriousAxeViolations } from './axe.js';
import { createInviteCode } from './shell-helpers.js';
import { expect, skipFirstBootWizard, test } from './support.js';

/**
 * Satellite Management against the real agent: an admin adds a satellite and gets its token once,
 * the satellite checks in with it (as a device would, without a session), the list shows it on its
 * next 15 s refresh (Playwright's clock), a new token shuts the old one out, and members only look.
 */

// A hub of its own: the worker's hub may already hold accounts and satellites from other specs,
// and this one needs its first account to be the superadmin and its list to start empty.
let hub: RunningAgent;
let owner: { context: BrowserContext; page: Page };
/** Speaks to the hub as a satellite does: a bearer token and no session cookie. */
let device: APIRequestContext;
let kitchen: { id: number; token: string };

const password = 'correct horse battery staple';

test.describe.configure({ mode: 'serial' });

async function signedUp(browser: Browser, name: string) {
  const context = await browser.newContext({ baseURL: hub.url });
  const page = await context.newPage();
  const email = `sat-${randomBytes(3).toString('hex')}@example.com`;
  // After the owner, people join with an invite the owner makes, as in a household.
  const inviteCode = owner ? await createInviteCode(owner.page.request) : undefined;
  const res = await page.request.post('/api/auth/register', { data: { name, email, password, inviteCode } });
  expect(res.status(), await res.text()).toBe(201);
  const { user } = (await res.json()) as { user: { role: string } };
  return { context, page, role: user.role };
}

async function satelliteNamed(page: Page, name: string) {
  const res = await page.request.get('/api/devices/satellite');
  expect(res.ok()).toBe(true);
  const found = satelliteListSchema.parse(await res.json()).find((s) => s.name === name);
  expect(found, `satellite "${name}"`).toBeDefined();
  return found!;
}

function heartbeat(id: number, token: string) {
  return device.post(`/api/devices/satellite/${id}/heartbeat`, {
    headers: { authorization: `Bearer ${token}` },
    data: { signalStrength: -55, activeWakeWord: 'hey nexus', firmwareVersion: '1.2.3' },
  });
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

test.beforeAll(async ({ browser }) => {
  hub = await startAgent();
  await skipFirstBootWizard(hub.url);
  const first = await signedUp(browser, 'Sam Owner');
  expect(first.role).toBe('superadmin');
  owner = first;
  // Time runs as usual until a test moves it on, so the list's 15 s refresh comes when asked for.
  await owner.page.clock.install();
  device = await request.newContext({ baseURL: hub.url });
});

test.afterAll(async () => {
  await device?.dispose();
  await owner?.context.close();
  await hub?.stop();
});

test('an empty hub says how to add the first satellite', async () => {
  const { page } = owner;
  await page.goto('/satellite-management');
  // The screen's code loads when it is first opened, which takes a while on a busy machine.
  await expect(
    page.getByRole('heading', { level: 1, name: 'Satellite Management', exact: true }),
  ).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveTitle('Satellite Management · Nexus Console');
  await expect(page.getByRole('heading', { name: 'No satellites yet' })).toBeVisible();
  await expect(page.getByText(/Add a satellite with the button above/)).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);
});

test('adding a satellite shows its token once; its heartbeat shows it online after the next refresh', async () => {
  const { page } = owner;
  await page.getByRole('button', { name: 'Add a satellite' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Kitchen');
  await dialog.getByLabel('Room (optional)').fill('By the fridge');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();

  await expect(dialog.getByRole('heading', { name: 'Kitchen is added' })).toBeVisible();
  await expect(dialog.getByText('it is shown only this once')).toBeVisible();
  const token = (await dialog.getByTestId('satellite-token').textContent()) ?? '';
  expect(token).toMatch(/^nxsat_[\w-]{40,}$/);
  const { id } = await satelliteNamed(page, 'Kitchen');
  // How to set it up, with this hub's address as the browser reaches it.
  await expect(dialog).toContainText(`${hub.url}/api/devices/satellite/${id}/heartbeat`);
  await expect(dialog).toContainText(`${hub.url}/api/flows/<flow id>/run?satellite=${id}`);
  await expect(dialog).toContainText(`${hub.url}/api/wake-words/<wake word id>/samples?satellite=${id}`);
  await expect(dialog).toContainText(`Authorization: Bearer ${token}`);
  await expect(dialog.getByRole('button', { name: 'Copy the token' })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await dialog.getByRole('button', { name: 'I have stored it' }).click();
  await expect(dialog).toHaveCount(0);
  // Never again: not on the screen, not from the API.
  await expect(page.getByText(token)).toHaveCount(0);
  expect(await (await page.request.get(`/api/devices/satellite/${id}`)).text()).not.toContain(token);

  const kitchenRow = row(page, 'Kitchen');
  await expect(kitchenRow.getByText('By the fridge')).toBeVisible();
  await expect(kitchenRow.getByText('Offline', { exact: true })).toBeVisible();
  await expect(kitchenRow.getByText('Never', { exact: true })).toBeVisible();

  const beat = await heartbeat(id, token);
  expect(beat.status(), await beat.text()).toBe(200);
  await page.clock.runFor(15_000);
  await expect(kitchenRow.getByText('Online', { exact: true })).toBeVisible();
  await expect(kitchenRow.getByText('-55 dBm', { exact: true })).toBeVisible();
  await expect(kitchenRow.getByText('hey nexus', { exact: true })).toBeVisible();
  await expect(kitchenRow.getByText('1.2.3', { exact: true })).toBeVisible();
  await expect(kitchenRow.getByText(/127\.0\.0\.1/)).toBeVisible();
  await expect(kitchenRow.getByText('Never', { exact: true })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);
  kitchen = { id, token };
});

test('a new token shuts the old one out at once and works itself', async () => {
  const { page } = owner;
  await row(page, 'Kitchen').getByRole('button', { name: 'New token for Kitchen' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('The current token stops working at once');
  await confirm.getByRole('button', { name: 'Issue a new token' }).click();

  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'New token for Kitchen' })).toBeVisible();
  const fresh = (await dialog.getByTestId('satellite-token').textContent()) ?? '';
  expect(fresh).toMatch(/^nxsat_[\w-]{40,}$/);
  expect(fresh).not.toBe(kitchen.token);
  await expect(dialog).toContainText(`Authorization: Bearer ${fresh}`);
  await dialog.getByRole('button', { name: 'I have stored it' }).click();
  await expect(dialog).toHaveCount(0);

  expect((await heartbeat(kitchen.id, kitchen.token)).status()).toBe(401);
  // The old token opens none of the satellite's other doors either.
  const clip = {
    headers: { authorization: `Bearer ${kitchen.token}`, 'content-type': 'audio/wav' },
    data: Buffer.from('RIFF'),
  };
  expect((await device.post(`/api/flows/1/run?satellite=${kitchen.id}`, clip)).status()).toBe(401);
  expect((await device.post(`/api/wake-words/1/samples?satellite=${kitchen.id}`, clip)).status()).toBe(401);

  const beat = await heartbeat(kitchen.id, fresh);
  expect(beat.status(), await beat.text()).toBe(200);
  kitchen = { id: kitchen.id, token: fresh };
});

test('a member sees the list but none of the admin controls', async ({ browser }) => {
  const member = await signedUp(browser, 'Milo Member');
  expect(member.role).toBe('user');
  const { page } = member;
  await page.goto('/satellite-management');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Satellite Management', exact: true }),
  ).toBeVisible();
  const kitchenRow = row(page, 'Kitchen');
  await expect(kitchenRow.getByText('Online', { exact: true })).toBeVisible();
  await expect(kitchenRow.getByText('-55 dBm', { exact: true })).toBeVisible();
  await expect(kitchenRow.getByText('hey nexus', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add a satellite' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New token for Kitchen' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit Kitchen' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Remove Kitchen' })).toHaveCount(0);
  // Hidden controls are not the guard: the agent refuses a member too.
  expect((await page.request.post('/api/devices/satellite', { data: { name: 'Mine' } })).status()).toBe(403);
  expect((await page.request.post(`/api/devices/satellite/${kitchen.id}/token`)).status()).toBe(403);
  await expectNoSeriousAxeViolations(page);
  await member.context.close();
});

test('an admin renames a satellite, then removes it, and its token goes with it', async () => {
  const { page } = owner;
  await row(page, 'Kitchen').getByRole('button', { name: 'Edit Kitchen' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Pantry');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row(page, 'Pantry').getByText('By the fridge')).toBeVisible();

  await row(page, 'Pantry').getByRole('button', { name: 'Remove Pantry' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('heading', { name: 'No satellites yet' })).toBeVisible();
  expect((await heartbeat(kitchen.id, kitchen.token)).status()).toBe(401);
});
