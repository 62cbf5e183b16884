import { PLANS } from '../../agent/src/contract/subscription.js';
import { startSmtpSink, type SmtpSink } from '../fixtures/smtp-sink.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { expect, test } from './support.js';
import { PASSWORD, createAccount } from './shell-helpers.js';

/** Spec §2 visitors' pages: /help, /docs, /pricing, /privacy, /terms, /forgot-password, /reset-password. */

test('/help: getting started and the FAQ for the hub, satellites, Home Assistant and wake words', async ({
  page,
}) => {
  await page.goto('/help');
  await expect(page).toHaveTitle('Help · Nexus Console');
  await expect(page.getByRole('heading', { level: 2, name: 'Getting started' })).toBeVisible();
  for (const group of ['The hub', 'Satellites', 'Home Assistant', 'Wake words']) {
    await expect(page.getByRole('heading', { level: 3, name: group })).toBeVisible();
  }
  const question = page.getByText('How do I connect Home Assistant?');
  const answer = page.getByText('long-lived access token');
  await expect(answer).toBeHidden();
  await question.click();
  await expect(answer).toBeVisible();
  // Questions open from the keyboard too (native details/summary).
  await page.locator('summary', { hasText: 'Can I train my own wake word?' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('50 or more give a robust model')).toBeVisible();
});

test('/docs lists exactly the endpoints the running agent serves, with who may call them', async ({
  page,
}) => {
  const api = await (await page.request.get('/api/docs/routes')).json();
  await page.goto('/docs');
  await expect(page.getByRole('heading', { level: 2, name: 'User guide' })).toBeVisible();
  const rows = page.getByTestId('api-route');
  await expect(rows).toHaveCount(api.routes.length);
  await expect(page.getByText(`${api.routes.length} endpoints, read from the running hub`)).toBeVisible();
  const row = (method: string, path: string) =>
    rows.filter({ has: page.getByText(path, { exact: true }) }).filter({ hasText: method });
  await expect(row('GET', '/api/health')).toContainText('Public');
  await expect(row('GET', '/api/notifications')).toContainText('Signed in');
  await expect(row('GET', '/api/users')).toContainText('Admins');
  await expect(row('POST', '/api/auth/login')).toContainText('Public');
  // Each endpoint's input, as the JSON Schema its validators publish, opens from the keyboard.
  const registration = row('PUT', '/api/auth/registration');
  await registration.getByText('Input (JSON body)').focus();
  await page.keyboard.press('Enter');
  await expect(registration.getByTestId('api-route-input')).toContainText('"enum": [');
  await expect(registration.getByTestId('api-route-input')).toContainText('"invite"');
  await expect(row('GET', '/api/health').getByTestId('api-route-input')).toHaveCount(0);
});

test('/pricing: Free $0, Pro $29, Max $79 and the limits the hub enforces', async ({ page }) => {
  await page.goto('/pricing');
  const plans: [string, string, string][] = [
    ['free', 'Free', '$0'],
    ['pro', 'Pro', '$29'],
    ['max', 'Max', '$79'],
  ];
  for (const [id, name, price] of plans) {
    const card = page.getByTestId(`plan-${id}`);
    await expect(card.getByRole('heading', { level: 2 })).toHaveText(name);
    await expect(card).toContainText(`${price} / month`);
  }
  const table = page.getByRole('table');
  const cells = (label: string) =>
    table.getByRole('row', { name: new RegExp(`^${label}`) }).getByRole('cell');
  const shown = (value: number | string) => (value === 'unlimited' ? 'Unlimited' : String(value));
  await expect(cells('AI messages a month')).toHaveText(
    [PLANS.free, PLANS.pro, PLANS.max].map((plan) => shown(plan.limits.aiMessages)),
  );
  await expect(cells('Home Assistant entities')).toHaveText(
    [PLANS.free, PLANS.pro, PLANS.max].map((plan) => shown(plan.limits.homeAssistantEntities)),
  );
  await expect(cells('VPN access').nth(0).getByRole('img')).toHaveAccessibleName(
    PLANS.free.limits.vpnAccess ? 'Included' : 'Not included',
  );
  await expect(cells('VPN access').nth(1).getByRole('img')).toHaveAccessibleName(
    PLANS.pro.limits.vpnAccess ? 'Included' : 'Not included',
  );
  await page.getByTestId('plan-free').getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/auth$/);
});

test('/privacy and /terms say what stays on the hub', async ({ page }) => {
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { level: 2, name: 'What stays on the hub' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'What leaves the hub' })).toBeVisible();
  await expect(page.locator('main')).toContainText('one database file');
  await page.goto('/terms');
  await expect(page.getByRole('heading', { level: 2, name: 'Alpha software' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Your hub, your responsibility' })).toBeVisible();
});

test('without SMTP, /forgot-password says the owner resets from the command line', async ({ page }) => {
  // Reached the way a user would: from the sign-in form.
  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(
    page.getByText("This hub cannot send e-mail, so passwords are reset by the hub's owner"),
  ).toBeVisible();
  await expect(page.getByText('npm run cli -- users:reset-password --email <email>')).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to Sign In' }).click();
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
});

test('/reset-password without a token points to asking for a link', async ({ page }) => {
  await page.goto('/reset-password');
  await page.getByRole('link', { name: 'Ask for a reset link' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});

test.describe('with SMTP configured', () => {
  let sink: SmtpSink;
  let mailAgent: RunningAgent;

  test.beforeAll(async () => {
    sink = await startSmtpSink();
    mailAgent = await startAgent({
      env: {
        SMTP_URL: sink.url,
        SMTP_FROM: 'Nexus <nexus@example.test>',
        NEXUS_PUBLIC_URL: 'https://nexus.example.test',
      },
    });
  });
  test.afterAll(async () => {
    await mailAgent?.stop();
    await sink?.close();
  });

  test('a reset link by e-mail sets a new password once', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: mailAgent.url });
    const page = await context.newPage();
    const account = await createAccount(mailAgent, { name: 'Forgetful Person' });

    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Check your e-mail' })).toBeVisible();

    const mail = await sink.waitFor((m) => m.to.includes(account.email));
    const link = mail.text.match(/https:\/\/nexus\.example\.test(\/reset-password\?token=[\w-]+)/);
    expect(link).not.toBeNull();
    const resetPath = link![1]!;

    await page.goto(resetPath);
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('Confirm new password').fill('something else');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();

    await page.getByLabel('Confirm new password').fill('a brand new password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Password changed' })).toBeVisible();
    await page.locator('main').getByRole('link', { name: 'Sign In' }).click();
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
    expect((await page.request.get('/api/auth/user')).status()).toBe(401);
    await page.getByLabel('Password', { exact: true }).fill('a brand new password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    // The hub told the account what happened, through notify(): the reset, and a sign-in from a
    // browser it had not seen (the account was made through the API, not in this browser).
    await page.getByRole('banner').getByRole('button', { name: 'Notifications, 2 unread' }).click();
    await expect(page.getByRole('menuitem', { name: /Your password was reset/ })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: /New sign-in to your account/ })).toBeVisible();
    await page.keyboard.press('Escape');

    // The link worked once.
    const again = await context.newPage();
    await again.context().clearCookies();
    await again.goto(resetPath);
    await again.getByLabel('New password', { exact: true }).fill('yet another password');
    await again.getByLabel('Confirm new password').fill('yet another password');
    await again.getByRole('button', { name: 'Set new password' }).click();
    await expect(again.getByText('invalid, already used or expired')).toBeVisible();
    await context.close();
  });
});
