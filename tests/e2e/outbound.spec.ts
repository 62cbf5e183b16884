import { randomBytes } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { setRole } from './shell-helpers.js';
import { expect, test } from './support.js';

const password = 'correct horse battery staple';

async function signUpAs(page: Page, name: string) {
  const email = `outbound-${name.toLowerCase()}-${randomBytes(3).toString('hex')}@example.com`;
  const res = await page.request.post('/api/auth/register', { data: { name, email, password } });
  expect(res.ok()).toBe(true);
  return email;
}

/** The first account of a hub is its superadmin: this worker's hub gets one, so later sign-ups are members. */
async function ensureOwner(agentUrl: string) {
  const email = `outbound-owner-${randomBytes(3).toString('hex')}@example.com`;
  const res = await fetch(`${agentUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Owner', email, password }),
  });
  expect(res.status).toBe(201);
}

test('FlowForge: an admin edits the home network allow-list; errors shown, changes saved', async ({
  page,
  agent,
}) => {
  await ensureOwner(agent.url);
  setRole(agent, await signUpAs(page, 'Admin'), 'admin');
  await page.goto('/flowforge');
  const card = page.getByRole('heading', { name: 'Home network access' });
  await expect(card).toBeVisible();
  await expect(page.getByText('Nothing allowed: flows reach public addresses only.')).toBeVisible();

  const entry = page.getByLabel('Address and port');
  await entry.fill('http://192.168.1.20');
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByRole('alert')).toContainText('Write host:port');
  await expect(entry).toHaveAttribute('aria-invalid', 'true');

  await entry.fill('192.168.1.20:8123');
  await entry.press('Enter');
  await expect(page.getByText('Allow-list saved').first()).toBeVisible();
  const list = page.getByRole('list', { name: 'Allowed addresses' });
  await expect(list.getByText('192.168.1.20:8123')).toBeVisible();
  await expect(entry).toHaveValue('');

  await entry.fill('Printer.Local:631');
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(list.getByText('printer.local:631')).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);

  await page.getByRole('button', { name: 'Remove 192.168.1.20:8123' }).click();
  await expect(list.getByText('192.168.1.20:8123')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('list', { name: 'Allowed addresses' }).getByRole('listitem')).toHaveText([
    /printer\.local:631/,
  ]);
  const stored = await page.request.get('/api/settings/outbound');
  expect(await stored.json()).toEqual({ allowList: ['printer.local:631'] });
  expect((await page.request.put('/api/settings/outbound', { data: { allowList: [] } })).ok()).toBe(true);
});

test('FlowForge: a member does not get the allow-list editor, nor its API', async ({ page, agent }) => {
  await ensureOwner(agent.url);
  await signUpAs(page, 'Member');
  await page.goto('/flowforge');
  await expect(page.getByRole('heading', { name: 'FlowForge Gallery' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Templates' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Home network access' })).toHaveCount(0);
  await expect(page.getByLabel('Address and port')).toHaveCount(0);
  expect((await page.request.get('/api/settings/outbound')).status()).toBe(403);
});
