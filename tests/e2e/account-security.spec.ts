import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Locator, Page } from '@playwright/test';
import { publicUserSchema, type PublicUser } from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { totpAt } from '../support/totp.js';
import { expectNoSeriousAxeViolations } from './axe.js';
import { expect, skipFirstBootWizard, test } from './support.js';

/**
 * Issue 18 in the browser: recovery codes from enrolment to sign-in, the list of sessions and
 * signing another browser out, and the password asked again before a role change.
 */

const PASSWORD = 'correct horse battery staple';

let agent: RunningAgent;
/** The hub's first account (superadmin), in a browser context of its own. */
let owner: { page: Page; user: PublicUser };

test.beforeAll(async ({ browser }) => {
  // A hub of its own: the owner must be this spec's first account.
  agent = await startAgent({ env: { NEXUS_REGISTRATION: 'open' } });
  await skipFirstBootWizard(agent.url);
  owner = await register(browser, 'owner');
});
test.afterAll(async () => {
  await agent?.stop();
});

async function register(browser: Browser, tag: string) {
  const context = await browser.newContext({ baseURL: agent.url });
  const page = await context.newPage();
  const email = `${tag}-${randomUUID().slice(0, 8)}@example.com`;
  const res = await page.request.post('/api/auth/register', {
    data: { name: `Person ${tag}`, email, password: PASSWORD },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { page, user: publicUserSchema.parse(((await res.json()) as { user: unknown }).user) };
}

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
function toast(page: Page, title: string): Locator {
  return page.locator('[data-slot=toast]').filter({ has: page.getByText(title, { exact: true }) });
}

async function signInThroughUi(page: Page, email: string) {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Makes the account's sessions' last password proof older than the 5-minute window, in the hub's database. */
function ageReauth(userId: number) {
  const db = new Database(path.join(agent.dataDir, 'nexus.db'));
  try {
    db.prepare('update sessions set reauth_at = ? where user_id = ?').run(Date.now() - 6 * 60_000, userId);
  } finally {
    db.close();
  }
}

test('2FA enrolment shows ten recovery codes once; one of them signs in', async ({ browser }) => {
  const { page, user } = await register(browser, 'recovery');
  await page.goto('/settings');
  const twoFactor = section(page, 'Two-factor authentication');
  await twoFactor.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  const secret = ((await twoFactor.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
  await twoFactor.getByLabel('Authentication code').fill(totpAt(secret));
  await twoFactor.getByRole('button', { name: 'Enable two-factor authentication' }).click();

  const codes = twoFactor.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  for (const code of recovery) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
  await expectNoSeriousAxeViolations(page, 'recovery codes shown');
  await twoFactor.getByRole('button', { name: 'I have saved them' }).click();
  await expect(twoFactor.getByTestId('recovery-codes')).toHaveCount(0);
  await expect(twoFactor.getByTestId('recovery-codes-left')).toHaveText('10 of 10 recovery codes left.');

  // Sign out, then in with a recovery code instead of the app's code.
  expect((await page.request.post('/api/auth/logout')).status()).toBe(200);
  await signInThroughUi(page, user.email);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(recovery[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/settings');
  await expect(section(page, 'Two-factor authentication').getByTestId('recovery-codes-left')).toHaveText(
    '9 of 10 recovery codes left.',
  );

  // The same code a second time is refused.
  const again = await page.request.post('/api/auth/login', {
    data: { email: user.email, password: PASSWORD, totpCode: recovery[0] },
  });
  expect(again.status()).toBe(401);

  // A lost phone: another recovery code turns 2FA off.
  const card = section(page, 'Two-factor authentication');
  await card.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
  await card.getByLabel('Recovery code').fill(recovery[1]!);
  await card.getByRole('button', { name: 'Disable two-factor authentication' }).click();
  await expect(card.getByTestId('two-factor-status')).toHaveText('Disabled');
});

test('the sessions list shows both browsers; signing the other out ends it', async ({ browser }) => {
  const { page, user } = await register(browser, 'sessions');
  const otherContext = await browser.newContext({ baseURL: agent.url });
  const other = await otherContext.newPage();
  await signInThroughUi(other, user.email);
  await expect(other).toHaveURL(/\/dashboard$/);

  await page.goto('/settings');
  const sessions = section(page, "Where you're signed in");
  const rows = sessions.getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'This device' })).toHaveCount(1);
  await expect(rows.first()).toContainText('127.0.0.1');
  await expect(rows.filter({ hasText: /Chrom/ })).toHaveCount(2);
  await expectNoSeriousAxeViolations(page, 'sessions');

  const otherRow = rows.filter({ hasNotText: 'This device' });
  await otherRow.getByRole('button', { name: /^Sign out / }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(rows).toHaveCount(1);

  // The other browser's next request is refused, and it lands on the sign-in screen.
  expect((await other.request.get('/api/auth/user')).status()).toBe(401);
  await other.goto('/settings');
  await expect(other.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  // This one is still signed in.
  expect((await page.request.get('/api/auth/user')).status()).toBe(200);
  await otherContext.close();
});

test('a role change asks for the password first, then goes through', async ({ browser }) => {
  const { user: member } = await register(browser, 'member');
  ageReauth(owner.user.id);
  const page = owner.page;
  await page.goto('/user-management');
  await page.getByRole('combobox', { name: `Role of ${member.name}` }).click();
  await page.getByRole('option', { name: 'Admin', exact: true }).click();

  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await expectNoSeriousAxeViolations(page, 're-authentication dialog');
  await dialog.getByLabel('Password', { exact: true }).fill('not the password');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Incorrect password');
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, `${member.name} is now Admin`)).toBeVisible();
  const users = (await (await page.request.get('/api/users')).json()) as { users: PublicUser[] };
  expect(users.users.find((u) => u.id === member.id)?.role).toBe('admin');
});

test('an admin disables an account: it is signed out at once and shown as disabled', async ({ browser }) => {
  const target = await register(browser, 'disable');
  const page = owner.page;
  await page.goto('/user-management');
  await page.getByRole('button', { name: `Disable ${target.user.name}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Disable account' }).click();
  await expect(toast(page, `${target.user.name}'s account disabled`)).toBeVisible();
  await expect(
    page.getByRole('row').filter({ hasText: target.user.email }).getByTestId('account-disabled'),
  ).toBeVisible();
  expect((await target.page.request.get('/api/auth/user')).status()).toBe(401);
  await signInThroughUi(target.page, target.user.email);
  await expect(toast(target.page, 'Login failed')).toContainText('This account is disabled');
});

test('/2fa-test says whether a code is valid and how far the device clock is off', async ({ browser }) => {
  const { page } = await register(browser, 'drift');
  const setup = (await (await page.request.post('/api/auth/2fa/setup')).json()) as { secret: string };
  expect(
    (await page.request.post('/api/auth/2fa/enable', { data: { code: totpAt(setup.secret) } })).status(),
  ).toBe(200);
  await page.goto('/2fa-test');
  await expect(page.getByRole('heading', { level: 1, name: '2FA Test' })).toBeVisible();
  // Clear of a step boundary, so the hub and this test name the same current step.
  await expect.poll(() => Date.now() % 30_000 < 20_000, { timeout: 15_000 }).toBe(true);
  const step = Math.floor(Date.now() / 30_000);
  const code = page.getByLabel('Authentication code');
  await code.fill(totpAt(setup.secret, step + 2));
  await page.getByRole('button', { name: 'Test code' }).click();
  const result = page.getByTestId('two-factor-test-result');
  await expect(result).toContainText('Valid code, but sign-in would refuse it now');
  await expect(result).toContainText('about 60 s ahead of');
  await expectNoSeriousAxeViolations(page, '2fa test result');

  await code.fill(totpAt(setup.secret, step));
  await page.getByRole('button', { name: 'Test code' }).click();
  await expect(result).toContainText('Valid code');
  await expect(result).toContainText('matches the hub');
  // Testing spent nothing: the same code still signs in.
  const signIn = await page.request.post('/api/auth/login', {
    data: {
      email: (await (await page.request.get('/api/auth/user')).json()).email,
      password: PASSWORD,
      totpCode: totpAt(setup.secret, step),
    },
  });
  expect(signIn.status()).toBe(200);
});
