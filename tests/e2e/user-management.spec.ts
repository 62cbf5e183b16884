import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { authResponseSchema, userListSchema, type PublicUser } from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { expectNoSeriousAxeViolations } from './axe.js';
import { createInviteCode } from './shell-helpers.js';
import { expect, skipFirstBootWizard, test } from './support.js';

/**
 * /user-management against the real agent: the accounts and their roles, role changes and
 * deletion as the agent allows them, its refusals, and the members' side of the door.
 */

const PASSWORD = 'correct horse battery staple';
const ONLY_ADMINS = 'Only administrators manage the accounts on this hub.';

interface Person {
  context: BrowserContext;
  page: Page;
  user: PublicUser;
}

/** A toast by its title; Radix also copies toast text into a screen-reader announcer, so match the toast itself. */
function toast(page: Page, title: string): Locator {
  return page.locator('[data-slot=toast]').filter({ has: page.getByText(title, { exact: true }) });
}

function accountRow(page: Page, email: string): Locator {
  return page.getByRole('row').filter({ hasText: email });
}

async function listUsers(request: APIRequestContext): Promise<PublicUser[]> {
  const res = await request.get('/api/users');
  expect(res.status(), await res.text()).toBe(200);
  return userListSchema.parse(await res.json()).users;
}

async function roleOf(request: APIRequestContext, id: number) {
  return (await listUsers(request)).find((u) => u.id === id)?.role;
}

async function openScreen(page: Page) {
  await page.goto('/user-management');
  await expect(page.getByRole('heading', { level: 1, name: 'User Management', exact: true })).toBeVisible();
}

async function pickRole(page: Page, name: string, role: string) {
  await page.getByRole('combobox', { name: `Role of ${name}` }).click();
  await page.getByRole('option', { name: role, exact: true }).click();
}

test.describe('user management', () => {
  // A hub of its own: the worker's agent may already hold accounts from other spec files, and
  // only the first account on a hub is its superadmin.
  let agent: RunningAgent;
  let owner: Person;
  /** The owner's API session once the owner exists; everyone later registers with its invites. */
  let ownerRequest: APIRequestContext | null = null;
  const people: Person[] = [];

  /** Registers an account in a browser context of its own, so no other page's session is replaced. */
  async function register(browser: Browser, name: string): Promise<Person> {
    const context = await browser.newContext({ baseURL: agent.url });
    const page = await context.newPage();
    const email = `users-${randomUUID().slice(0, 8)}@example.com`;
    // After the owner, people join as in a household: with an invite the owner makes.
    const inviteCode = ownerRequest ? await createInviteCode(ownerRequest) : undefined;
    const res = await page.request.post('/api/auth/register', {
      data: { name, email, password: PASSWORD, ...(inviteCode ? { inviteCode } : {}) },
    });
    expect(res.status(), await res.text()).toBe(201);
    const person = { context, page, user: authResponseSchema.parse(await res.json()).user };
    people.push(person);
    return person;
  }

  test.beforeAll(async ({ browser }) => {
    agent = await startAgent();
    await skipFirstBootWizard(agent.url);
    owner = await register(browser, 'Olive Owner');
    expect(owner.user.role).toBe('superadmin');
    ownerRequest = owner.page.request;
  });

  test.afterAll(async () => {
    for (const person of people) await person.context.close();
    await agent?.stop();
  });

  test('the superadmin sees every account with its role', async ({ browser }) => {
    const ann = await register(browser, 'Ann Account');
    const bob = await register(browser, 'Bob Account');
    const { page } = owner;
    await openScreen(page);

    const accounts = await listUsers(page.request);
    expect(accounts.map((u) => u.email)).toEqual(
      expect.arrayContaining([owner.user.email, ann.user.email, bob.user.email]),
    );
    const labels = { user: 'User', admin: 'Admin', superadmin: 'Super Admin' } as const;
    for (const account of accounts) {
      const row = accountRow(page, account.email);
      await expect(row).toContainText(account.name);
      await expect(row.getByRole('combobox', { name: `Role of ${account.name}` })).toHaveText(
        labels[account.role],
      );
      await expect(row.getByRole('cell', { name: 'Off', exact: true })).toBeVisible();
    }
    await expect(
      accountRow(page, owner.user.email).getByRole('combobox', { name: 'Role of Olive Owner' }),
    ).toHaveText('Super Admin');
    await expect(accountRow(page, ann.user.email).getByRole('combobox')).toHaveText('User');
  });

  test('promotes a user to admin, then demotes them; the agent applies each at once', async ({ browser }) => {
    const pat = await register(browser, 'Pat Promote');
    const { page } = owner;
    await openScreen(page);
    const role = accountRow(page, pat.user.email).getByRole('combobox', { name: 'Role of Pat Promote' });
    await expect(role).toHaveText('User');

    await pickRole(page, 'Pat Promote', 'Admin');
    await expect(toast(page, 'Pat Promote is now Admin')).toBeVisible();
    await expect(role).toHaveText('Admin');
    expect(await roleOf(page.request, pat.user.id)).toBe('admin');
    // Pat's own session carries the new role on its very next request.
    expect((await pat.page.request.get('/api/users')).status()).toBe(200);

    await pickRole(page, 'Pat Promote', 'User');
    await expect(toast(page, 'Pat Promote is now User')).toBeVisible();
    await expect(role).toHaveText('User');
    expect(await roleOf(page.request, pat.user.id)).toBe('user');
    expect((await pat.page.request.get('/api/users')).status()).toBe(403);
  });

  test('deletes a user through the confirm dialog; the account can no longer sign in', async ({
    browser,
  }) => {
    const dana = await register(browser, 'Dana Delete');
    const { page } = owner;
    await openScreen(page);
    const row = accountRow(page, dana.user.email);

    // Cancel first: nothing happens.
    await row.getByRole('button', { name: 'Delete Dana Delete' }).click();
    let dialog = page.getByRole('alertdialog', { name: "Delete Dana Delete's account?" });
    await expect(dialog).toContainText(dana.user.email);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toBeVisible();

    await row.getByRole('button', { name: 'Delete Dana Delete' }).click();
    dialog = page.getByRole('alertdialog', { name: "Delete Dana Delete's account?" });
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await expect(toast(page, "Dana Delete's account deleted")).toBeVisible();
    await expect(row).toHaveCount(0);
    expect((await listUsers(page.request)).map((u) => u.id)).not.toContain(dana.user.id);

    // Signed out where she was signed in, and her password opens nothing any more.
    expect((await dana.page.request.get('/api/auth/user')).status()).toBe(401);
    const login = await dana.page.request.post('/api/auth/login', {
      data: { email: dana.user.email, password: PASSWORD },
    });
    expect(login.status()).toBe(401);
  });

  test('cannot change or delete their own account', async () => {
    const { page } = owner;
    await openScreen(page);
    const row = accountRow(page, owner.user.email);
    const reason = 'You cannot change your own role or delete your own account.';
    await expect(row.getByText(reason)).toBeVisible();
    const role = row.getByRole('combobox', { name: 'Role of Olive Owner' });
    await expect(role).toBeDisabled();
    await expect(role).toHaveAccessibleDescription(reason);
    await expect(row.getByRole('button', { name: 'Delete Olive Owner' })).toBeDisabled();
    expect(await roleOf(page.request, owner.user.id)).toBe('superadmin');
  });

  test('shows the agent’s reason when it refuses a change', async ({ browser }) => {
    const sam = await register(browser, 'Sam Stale');
    const { page } = owner;
    await openScreen(page);
    await expect(accountRow(page, sam.user.email)).toBeVisible();
    // Someone else deletes the account while this list still shows it.
    expect((await page.request.delete(`/api/users/${sam.user.id}`)).status()).toBe(200);

    await pickRole(page, 'Sam Stale', 'Admin');
    const refused = page.getByRole('alert').filter({ hasText: 'Could not change the role of Sam Stale' });
    await expect(refused).toContainText('No such user');
    // The list is read again, so the account that is gone leaves it.
    await expect(accountRow(page, sam.user.email)).toHaveCount(0);
  });

  test('an admin manages users and admins but not the Super Admin', async ({ browser }) => {
    const ada = await register(browser, 'Ada Admin');
    const uma = await register(browser, 'Uma User');
    const promoted = await owner.page.request.patch(`/api/users/${ada.user.id}`, { data: { role: 'admin' } });
    expect(promoted.status(), await promoted.text()).toBe(200);

    const { page } = ada;
    await openScreen(page);
    const ownerRow = accountRow(page, owner.user.email);
    await expect(ownerRow.getByText('Only a Super Admin can change or delete a Super Admin.')).toBeVisible();
    await expect(ownerRow.getByRole('combobox')).toBeDisabled();
    await expect(ownerRow.getByRole('button', { name: 'Delete Olive Owner' })).toBeDisabled();

    // An admin cannot grant the Super Admin role, so it is not offered.
    await page.getByRole('combobox', { name: 'Role of Uma User' }).click();
    await expect(page.getByRole('option')).toHaveText(['User', 'Admin']);
    await page.keyboard.press('Escape');
    await expect(
      accountRow(page, uma.user.email).getByRole('button', { name: 'Delete Uma User' }),
    ).toBeEnabled();
  });

  test('a member is told only administrators manage accounts, and the agent answers them 403', async ({
    browser,
  }) => {
    const { page } = await register(browser, 'Mia Member');
    await openScreen(page);
    await expect(page.getByText(ONLY_ADMINS)).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    expect((await page.request.get('/api/users')).status()).toBe(403);

    await page.getByRole('link', { name: 'Back to the dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('no serious accessibility problems for the superadmin, in the dialog, or for a member', async ({
    browser,
  }) => {
    const member = await register(browser, 'Axel Axe');
    const { page } = owner;
    await openScreen(page);
    await expect(accountRow(page, member.user.email)).toBeVisible();
    await expectNoSeriousAxeViolations(page);

    await accountRow(page, member.user.email).getByRole('button', { name: 'Delete Axel Axe' }).click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expectNoSeriousAxeViolations(page);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();

    await openScreen(member.page);
    await expect(member.page.getByText(ONLY_ADMINS)).toBeVisible();
    await expectNoSeriousAxeViolations(member.page);
  });
});
