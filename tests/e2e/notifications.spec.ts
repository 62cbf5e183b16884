import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { startWebhookReceiver } from '../fixtures/webhook-receiver.js';
import { startAgent } from '../support/agent.js';
import { expect, skipFirstBootWizard, test } from './support.js';

const email = `notify-${randomBytes(3).toString('hex')}@example.com`;
const password = 'correct horse battery staple';
let signedUp = false;

test.beforeEach(async ({ page }) => {
  const res = signedUp
    ? await page.request.post('/api/auth/login', { data: { email, password } })
    : await page.request.post('/api/auth/register', { data: { name: 'Nora Notified', email, password } });
  expect(res.ok()).toBe(true);
  signedUp = true;
});

/** A real event: a flow's notify stage, run through the API (the browser's own session). */
async function notifyViaFlow(page: Page, title: string, level: 'info' | 'error' = 'info') {
  const flow = await page.request.post('/api/flows', {
    data: {
      name: `Tell ${title}`,
      trigger: { type: 'api' },
      stages: [{ id: 'tell', name: 'Tell', kind: 'notify', config: { title, body: `${title} body`, level } }],
    },
  });
  expect(flow.status()).toBe(201);
  const run = await page.request.post(`/api/flows/${(await flow.json()).id}/run?wait=true`);
  expect(run.status()).toBe(200);
}

test('the bell shows a new notification live, with its category', async ({ page }) => {
  await page.goto('/dashboard');
  const bell = page.getByRole('button', { name: /^Notifications/ });
  await expect(bell).toBeVisible();
  const title = `Garage left open ${randomBytes(2).toString('hex')}`;
  await notifyViaFlow(page, title, 'error');
  // No reload: the live topic brings it.
  await expect(bell).toHaveAccessibleName(/unread/);
  await bell.click();
  const entry = page.getByRole('menuitem', { name: new RegExp(title) });
  await expect(entry).toBeVisible();
  await expect(entry).toContainText('Flows · Error');
});

test('filters, delete with confirmation, and the preferences grid saves', async ({ page }) => {
  const quiet = `Quiet info ${randomBytes(2).toString('hex')}`;
  const loud = `Loud error ${randomBytes(2).toString('hex')}`;
  await notifyViaFlow(page, quiet, 'info');
  await notifyViaFlow(page, loud, 'error');
  await page.goto('/notifications');
  const list = page.getByRole('list', { name: 'Notifications' });
  await expect(list.getByRole('heading', { name: quiet })).toBeVisible();
  await expect(list.getByRole('heading', { name: loud })).toBeVisible();

  await page.getByLabel('Severity').click();
  await page.getByRole('option', { name: 'Error' }).click();
  await expect(list.getByRole('heading', { name: loud })).toBeVisible();
  await expect(list.getByRole('heading', { name: quiet })).toHaveCount(0);

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByLabel('State').click();
  await page.getByRole('option', { name: 'Unread' }).click();
  await expect(list.getByRole('heading', { name: quiet })).toBeVisible();
  await page.getByRole('button', { name: `Mark "${quiet}" as read` }).click();
  await expect(list.getByRole('heading', { name: quiet })).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear filters' }).click();

  await page.getByRole('button', { name: `Delete "${loud}"` }).click();
  await expect(page.getByRole('alertdialog', { name: 'Delete this notification?' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(list.getByRole('heading', { name: loud })).toHaveCount(0);
  await expect(list.getByRole('heading', { name: quiet })).toBeVisible();

  await page.getByRole('tab', { name: 'Preferences' }).click();
  const flowsByEmail = page.getByRole('switch', { name: 'Flows by E-mail' });
  await expect(flowsByEmail).not.toBeChecked();
  await flowsByEmail.click();
  await expect(flowsByEmail).toBeChecked();
  await expect(flowsByEmail).toBeEnabled();
  await page.reload();
  await page.getByRole('tab', { name: 'Preferences' }).click();
  await expect(page.getByRole('switch', { name: 'Flows by E-mail' })).toBeChecked();
  const saved = await (await page.request.get('/api/notifications/preferences')).json();
  expect(saved.categories.flows.email).toBe(true);
});

test('an admin sets up the webhook channel: the secret is never shown again, and "Send test" reports the result', async ({
  browser,
}) => {
  // Its own hub, so this account is the owner (an admin).
  const hub = await startAgent({ env: { NEXUS_REGISTRATION: 'open' } });
  const receiver = await startWebhookReceiver();
  receiver.secret = 'e2e-signing-secret';
  const context = await browser.newContext({ baseURL: hub.url });
  const page = await context.newPage();
  try {
    await skipFirstBootWizard(hub.url);
    const res = await page.request.post('/api/auth/register', {
      data: { name: 'Olga Owner', email: 'olga@example.com', password },
    });
    expect(res.ok()).toBe(true);
    // The receiver is on loopback: the admin allows it, as for a LAN server.
    const allow = await page.request.put('/api/settings/outbound', {
      data: { allowList: [new URL(receiver.url).host] },
    });
    expect(allow.ok()).toBe(true);

    await page.goto('/notifications');
    await page.getByRole('tab', { name: 'Channels' }).click();
    const webhook = page.getByRole('form', { name: 'Webhook channel' });
    await webhook.getByRole('textbox', { name: 'URL' }).fill(`${receiver.url}/hook`);
    await webhook.getByRole('textbox', { name: 'Signing secret' }).fill('e2e-signing-secret');
    await webhook.getByRole('switch', { name: 'Webhook on' }).click();
    await webhook.getByRole('button', { name: 'Save' }).click();
    await expect(webhook.getByRole('textbox', { name: 'Signing secret' })).toHaveValue('');
    await expect(webhook.getByRole('textbox', { name: 'Signing secret' })).toHaveAttribute(
      'placeholder',
      /Saved/,
    );
    await webhook.getByRole('button', { name: 'Send test' }).click();
    await expect(webhook.getByRole('status')).toHaveText(/Test sent/);
    expect(receiver.received.at(-1)?.signatureValid).toBe(true);

    receiver.failWith = 500;
    await webhook.getByRole('button', { name: 'Send test' }).click();
    await expect(webhook.getByRole('status')).toHaveText(/Test failed: .*answered 500/);
    await expect(webhook.getByText(/Failing: .*answered 500/)).toBeVisible();
    await page.reload();
    await page.getByRole('tab', { name: 'Channels' }).click();
    expect(await page.content()).not.toContain('e2e-signing-secret');
  } finally {
    await context.close();
    await receiver.close();
    await hub.stop();
  }
});
