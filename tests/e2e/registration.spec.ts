import { randomUUID } from 'node:crypto';
import type { APIRequestContext, BrowserContext, Locator, Page } from '@playwright/test';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { expectNoSeriousAxeViolations } from './axe.js';
import { createInviteCode } from './shell-helpers.js';
import { expect, skipFirstBootWizard, test } from './support.js';

/**
 * Issue 14, "Open registration forever", in the browser: a hub in invite mode (the default), the
 * owner's Invites card and registration mode on /user-management, the invite link, and the Register
 * tab's answers in invite and closed mode.
 */

const PASSWORD = 'correct horse battery staple';

function toast(page: Page, title: string): Locator {
  return page.locator('[data-slot=toast]').filter({ has: page.getByText(title, { exact: true }) });
}

const uniqueEmail = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.com`;

test.describe('registration by invite', () => {
  // A hub of its own: the worker's shared hub runs with open registration for the other specs.
  let agent: RunningAgent;
  let ownerContext: BrowserContext;
  let owner: Page;
  let ownerApi: APIRequestContext;

  test.beforeAll(async ({ browser }) => {
    agent = await startAgent();
    await skipFirstBootWizard(agent.url);
    ownerContext = await browser.newContext({ baseURL: agent.url });
    owner = await ownerContext.newPage();
    ownerApi = owner.request;
    const res = await ownerApi.post('/api/auth/register', {
      data: { name: 'Olive Owner', email: uniqueEmail('owner'), password: PASSWORD },
    });
    expect(res.status(), await res.text()).toBe(201);
  });

  test.afterAll(async () => {
    await ownerContext?.close();
    await agent?.stop();
  });

  async function fillRegister(page: Page, name: string) {
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Email').fill(uniqueEmail('guest'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password').fill(PASSWORD);
  }

  test('the owner creates an invite on User Management, sees it once, and the link registers a member', async ({
    browser,
  }) => {
    await owner.goto('/user-management');
    const card = owner.getByRole('heading', { name: 'Invites', level: 2 });
    await expect(card).toBeVisible();
    await expect(owner.getByRole('combobox', { name: 'Registration mode' })).toHaveText('By invite only');
    await owner.getByRole('combobox', { name: 'Role', exact: true }).click();
    await owner.getByRole('option', { name: 'User', exact: true }).click();
    await owner.getByRole('button', { name: 'Create invite' }).click();

    const shown = owner.getByRole('region', { name: 'New invite' });
    await expect(shown).toContainText('shown only this once');
    const link = (await owner.getByTestId('new-invite-link').textContent())!.trim();
    const code = (await owner.getByTestId('new-invite-code').textContent())!.trim();
    expect(link).toBe(`${agent.url}/auth?invite=${code}`);
    await expect(owner.getByRole('button', { name: 'Copy the invite link' })).toBeVisible();
    await expect(owner.getByRole('button', { name: 'Copy the invite code' })).toBeVisible();
    await expectNoSeriousAxeViolations(owner, 'user management with a new invite');

    // Once: after a reload the list shows the invite, never its code.
    await owner.reload();
    await expect(owner.getByRole('region', { name: 'Invites table' })).toBeVisible();
    await expect(owner.getByTestId('new-invite-code')).toHaveCount(0);
    await expect(owner.getByText(code)).toHaveCount(0);
    const row = owner.getByRole('region', { name: 'Invites table' }).getByRole('row').nth(1);
    await expect(row).toContainText('Waiting');

    // The person invited opens the link in their own browser.
    const guestContext = await browser.newContext({ baseURL: agent.url });
    const guest = await guestContext.newPage();
    await guest.goto(new URL(link).pathname + new URL(link).search);
    await expect(guest.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
    await expect(guest.getByLabel('Invite code')).toHaveValue(code);
    await expectNoSeriousAxeViolations(guest, 'register tab from an invite link');
    await fillRegister(guest, 'Ivy Invited');
    await guest.getByRole('button', { name: 'Create Account' }).click();
    await expect(toast(guest, 'Registration successful')).toBeVisible();
    await expect(guest).toHaveURL(/\/dashboard$/);
    await guestContext.close();

    await owner.reload();
    await expect(owner.getByRole('row').filter({ hasText: 'Ivy Invited' }).first()).toBeVisible();
    await expect(
      owner
        .getByRole('region', { name: 'Invites table' })
        .getByRole('row')
        .filter({ hasText: 'Ivy Invited' }),
    ).toContainText('Used');
  });

  test('a visitor without an invite is asked for one, and a made-up code fails with the hub’s reason', async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: agent.url });
    const page = await context.newPage();
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Register' }).click();
    const field = page.getByLabel('Invite code');
    await expect(field).toBeVisible();
    await expect(field).toHaveAttribute('required', '');
    await expectNoSeriousAxeViolations(page, 'register tab in invite mode');
    await fillRegister(page, 'Gus Guess');
    await field.fill('not-a-real-invite-code');
    await page.getByRole('button', { name: 'Create Account' }).click();
    const failed = toast(page, 'Registration failed');
    await expect(failed).toContainText('This invite code is not valid');
    await expect(failed).toHaveAttribute('data-variant', 'destructive');
    await context.close();
  });

  test('the owner revokes an invite through a confirm dialog; its link then fails', async ({ browser }) => {
    const code = await createInviteCode(ownerApi);
    await owner.goto('/user-management');
    const revoke = owner
      .getByRole('region', { name: 'Invites table' })
      .getByRole('button', { name: /^Revoke the User invite/ })
      .first();
    await revoke.click();
    const dialog = owner.getByRole('alertdialog');
    await expect(dialog).toContainText('Revoke this invite?');
    await expectNoSeriousAxeViolations(owner, 'revoke dialog');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect(toast(owner, 'Invite revoked')).toBeVisible();

    const context = await browser.newContext({ baseURL: agent.url });
    const page = await context.newPage();
    await page.goto(`/auth?invite=${code}`);
    await fillRegister(page, 'Rita Revoked');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(toast(page, 'Registration failed')).toContainText('This invite was revoked');
    await context.close();
  });

  test('closed mode: the Register tab says so, and a form opened before fails with “Registration failed”', async ({
    browser,
  }) => {
    const code = await createInviteCode(ownerApi);
    const context = await browser.newContext({ baseURL: agent.url });
    const page = await context.newPage();
    await page.goto(`/auth?invite=${code}`);
    await expect(page.getByLabel('Invite code')).toHaveValue(code);

    // Meanwhile the owner closes registration on User Management.
    await owner.goto('/user-management');
    await owner.getByRole('combobox', { name: 'Registration mode' }).click();
    await owner.getByRole('option', { name: 'Closed: no new accounts' }).click();
    await expect(owner.getByRole('combobox', { name: 'Registration mode' })).toHaveText(
      'Closed: no new accounts',
    );
    expect((await (await ownerApi.get('/api/auth/registration')).json()).mode).toBe('closed');

    await fillRegister(page, 'Late Larry');
    await page.getByRole('button', { name: 'Create Account' }).click();
    const failed = toast(page, 'Registration failed');
    await expect(failed).toContainText('Registration is closed on this hub');
    await expect(failed).toHaveAttribute('data-variant', 'destructive');

    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Register' }).click();
    await expect(page.getByText('Registration is closed on this hub')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create Account' })).toHaveCount(0);
    await expectNoSeriousAxeViolations(page, 'register tab in closed mode');
    await context.close();

    expect((await ownerApi.put('/api/auth/registration', { data: { mode: 'invite' } })).status()).toBe(200);
  });
});
