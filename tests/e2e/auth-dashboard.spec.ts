import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { expectNoSeriousAxeViolations } from './axe.js';
import { createInviteCode } from './shell-helpers.js';
import { expect, skipFirstBootWizard, test } from './support.js';

/**
 * /auth-dashboard against the real agent: an admin sees another browser's failed sign-in, filters
 * the log down to it, and the CSV export link carries the same filters; members are turned away.
 */

const PASSWORD = 'correct horse battery staple';

test.describe('the security audit dashboard', () => {
  // A hub of its own, so the owner is this spec's first account.
  let agent: RunningAgent;
  const contexts: BrowserContext[] = [];
  let owner: { page: Page; email: string };

  async function register(browser: Browser, name: string, inviteFrom?: Page) {
    const context = await browser.newContext({ baseURL: agent.url });
    contexts.push(context);
    const page = await context.newPage();
    const email = `audit-${randomUUID().slice(0, 8)}@example.com`;
    const inviteCode = inviteFrom ? await createInviteCode(inviteFrom.request) : undefined;
    const res = await page.request.post('/api/auth/register', {
      data: { name, email, password: PASSWORD, ...(inviteCode ? { inviteCode } : {}) },
    });
    expect(res.status(), await res.text()).toBe(201);
    return { page, email };
  }

  test.beforeAll(async ({ browser }) => {
    agent = await startAgent();
    await skipFirstBootWizard(agent.url);
    owner = await register(browser, 'Olive Owner');
  });

  test.afterAll(async () => {
    for (const context of contexts) await context.close();
    await agent?.stop();
  });

  test('an admin sees another browser’s failed sign-in, filters to it and exports it', async ({
    browser,
  }) => {
    // Someone else, in another browser, mistypes a password on the sign-in screen.
    const stranger = await browser.newContext({ baseURL: agent.url });
    contexts.push(stranger);
    const page = await stranger.newPage();
    const tried = `mallory-${randomUUID().slice(0, 8)}@example.com`;
    await page.goto('/auth');
    await page.getByLabel('Email').fill(tried);
    await page.getByLabel('Password', { exact: true }).fill('not the password at all');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText(/invalid email or password/i).first()).toBeVisible();

    const admin = owner.page;
    await admin.goto('/auth-dashboard');
    await expect(admin.getByRole('heading', { level: 1, name: 'Sign-in Activity' })).toBeVisible();
    await expect(admin.getByText('Failed sign-ins', { exact: true })).toBeVisible();
    await expect(admin.getByRole('img', { name: /Sign-ins per day over the last 30 days/ })).toBeVisible();
    const failedRow = admin.getByRole('row').filter({ hasText: tried });
    await expect(failedRow).toContainText('Sign-in failed');
    await expect(failedRow).toContainText('Failed');

    // Filter to that account's failed sign-ins.
    await admin.getByRole('combobox', { name: 'Event' }).click();
    await admin.getByRole('option', { name: 'Sign-in failed', exact: true }).click();
    await admin.getByLabel('Account (e-mail or id)').fill(tried);
    await admin.getByRole('button', { name: 'Apply' }).click();
    const rows = admin.getByRole('region', { name: 'Security events' }).getByRole('row');
    await expect(rows).toHaveCount(2); // the header and the one event
    await expect(rows.nth(1)).toContainText(tried);

    const exportLink = admin.getByRole('link', { name: 'Export CSV' });
    const href = await exportLink.getAttribute('href');
    const url = new URL(href!, agent.url);
    expect(url.pathname).toBe('/api/audit');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      type: 'sign_in_failed',
      user: tried,
      format: 'csv',
    });
    const csv = await admin.request.get(href!);
    expect(csv.status()).toBe(200);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(tried);

    await expectNoSeriousAxeViolations(admin);
  });

  test('members are told it is for administrators, and the API refuses them', async ({ browser }) => {
    const member = await register(browser, 'Max Member', owner.page);
    await member.page.goto('/auth-dashboard');
    await expect(member.page.getByText('The security log is for administrators.')).toBeVisible();
    await expect(member.page.getByRole('link', { name: 'Export CSV' })).toHaveCount(0);
    expect((await member.page.request.get('/api/audit')).status()).toBe(403);
  });
});
