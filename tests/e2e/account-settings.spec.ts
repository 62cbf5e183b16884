import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { publicUserSchema, twoFactorSetupSchema } from '../../agent/src/contract/index.js';
import { base32Decode, timeStep, totpAt } from '../support/totp.js';
import { expectNoSeriousAxeViolations } from './axe.js';
import { expect, test } from './support.js';

/**
 * /settings against the real agent: the profile, changing the password (and what that does to
 * other sessions), and turning two-factor authentication on and off with codes computed by the
 * tests' own RFC 6238 implementation from the secret the screen shows.
 */

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a different horse, a different staple';

// The first account of a hub is its superadmin, and the worker's hub may or may not have one yet
// (earlier spec files share it): with an owner made here, every account of these tests is a user.
test.beforeAll(async ({ agent, playwright }) => {
  const api = await playwright.request.newContext({ baseURL: agent.url });
  const res = await api.post('/api/auth/register', {
    data: { name: 'Hub Owner', email: `owner-${randomUUID().slice(0, 8)}@example.com`, password: PASSWORD },
  });
  expect(res.status(), await res.text()).toBe(201);
  await api.dispose();
});

/** Registers a new account through the page's own cookie jar, which signs the page in. */
async function signUp(page: Page, tag: string) {
  const name = 'Ada Lovelace';
  const email = `${tag}-${randomUUID().slice(0, 8)}@example.com`;
  const res = await page.request.post('/api/auth/register', { data: { name, email, password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(201);
  const { user } = (await res.json()) as { user: unknown };
  return publicUserSchema.parse(user);
}

async function openSettings(page: Page) {
  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Account Settings', exact: true })).toBeVisible();
}

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** A toast by its title; Radix also copies toast text into a screen-reader announcer, so match the toast itself. */
function toast(page: Page, title: string): Locator {
  return page.locator('[data-slot=toast]').filter({ has: page.getByText(title, { exact: true }) });
}

async function fillPasswords(page: Page, current: string, next: string, confirm: string) {
  const password = section(page, 'Password');
  await password.getByLabel('Current password').fill(current);
  await password.getByLabel('New password', { exact: true }).fill(next);
  await password.getByLabel('Confirm new password').fill(confirm);
  await password.getByRole('button', { name: 'Change password' }).click();
}

/** A 6-digit code that is wrong for every step the agent could accept now. */
function wrongCode(secret: string): string {
  const current = timeStep(Date.now());
  const valid = new Set([-2, -1, 0, 1, 2].map((d) => totpAt(secret, current + d)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

test('the profile shows the signed-in account, read-only', async ({ page }) => {
  const user = await signUp(page, 'profile');
  await openSettings(page);
  await expect(page).toHaveTitle(/^Account Settings · .* · Nexus Console$/);

  const profile = section(page, 'Profile');
  await expect(profile.getByText(user.name, { exact: true })).toBeVisible();
  await expect(profile.getByText(user.email, { exact: true })).toBeVisible();
  await expect(profile.getByTestId('profile-role')).toHaveText('User');
  const memberSince = profile.locator('time');
  await expect(memberSince).toHaveAttribute('datetime', user.createdAt);
  // The browser's own long date of the creation time, as a person reading the page expects it.
  const longDate = await page.evaluate(
    (iso) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }),
    user.createdAt,
  );
  await expect(memberSince).toHaveText(longDate);
  await expect(profile.getByRole('textbox')).toHaveCount(0);
});

test('new passwords that do not match are refused before anything is sent', async ({ page, request }) => {
  const user = await signUp(page, 'mismatch');
  const sent: string[] = [];
  page.on('request', (req) => {
    if (req.url().endsWith('/api/auth/password')) sent.push(req.method());
  });
  await openSettings(page);

  await fillPasswords(page, PASSWORD, NEW_PASSWORD, `${NEW_PASSWORD}-typo`);
  const password = section(page, 'Password');
  await expect(password.getByRole('alert')).toHaveText('The new passwords do not match');
  await expect(password.getByLabel('Confirm new password')).toHaveAttribute('aria-invalid', 'true');
  await expect(password.getByLabel('Confirm new password')).toHaveAccessibleDescription(
    'The new passwords do not match',
  );
  expect(sent).toEqual([]);

  // Nothing changed on the hub: the old password still signs in.
  const login = await request.post('/api/auth/login', { data: { email: user.email, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
});

test('changing the password keeps this session, ends the others, and only the new one signs in', async ({
  page,
  request,
}) => {
  const user = await signUp(page, 'change');
  // Another device, signed in before the change.
  const other = await request.post('/api/auth/login', { data: { email: user.email, password: PASSWORD } });
  expect(other.status(), await other.text()).toBe(200);
  await openSettings(page);
  const password = section(page, 'Password');

  // The agent's refusal, in its own words.
  await fillPasswords(page, 'not my password', NEW_PASSWORD, NEW_PASSWORD);
  await expect(password.getByRole('alert')).toHaveText('Current password is incorrect');

  await fillPasswords(page, PASSWORD, NEW_PASSWORD, NEW_PASSWORD);
  await expect(toast(page, 'Password changed')).toBeVisible();
  await expect(password.getByRole('alert')).toHaveCount(0);
  for (const label of ['Current password', 'New password', 'Confirm new password']) {
    await expect(password.getByLabel(label, { exact: true })).toHaveValue('');
  }

  expect((await page.request.get('/api/auth/user')).status()).toBe(200);
  expect((await request.get('/api/auth/user')).status()).toBe(401);

  expect((await page.request.post('/api/auth/logout')).status()).toBe(200);
  const withOld = await page.request.post('/api/auth/login', {
    data: { email: user.email, password: PASSWORD },
  });
  expect(withOld.status()).toBe(401);
  const withNew = await page.request.post('/api/auth/login', {
    data: { email: user.email, password: NEW_PASSWORD },
  });
  expect(withNew.status(), await withNew.text()).toBe(200);
});

test('two-factor authentication: set up from the shown key, enable, sign-in asks for a code, disable', async ({
  page,
  context,
  request,
}) => {
  const user = await signUp(page, 'totp');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openSettings(page);
  const twoFactor = section(page, 'Two-factor authentication');
  await expect(twoFactor.getByTestId('two-factor-status')).toHaveText('Disabled');

  const setupAnswer = page.waitForResponse(
    (res) => res.url().endsWith('/api/auth/2fa/setup') && res.request().method() === 'POST',
  );
  await twoFactor.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  const setup = twoFactorSetupSchema.parse(await (await setupAnswer).json());
  // The button that was pressed is gone: focus moves on to the first step.
  await expect(twoFactor.getByText('Scan this QR code with your authenticator app.')).toBeFocused();
  await expect(
    twoFactor.getByRole('img', { name: 'QR code for adding this account to an authenticator app' }),
  ).toHaveAttribute('src', /^data:image\/png;base64,/);

  // Read the key as a person would, from the page, for their authenticator app.
  const shown = twoFactor.getByTestId('totp-secret');
  await expect(shown).toHaveText(/\S/);
  const secret = ((await shown.textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toBe(setup.secret);
  expect(base32Decode(secret)).toHaveLength(20);
  await twoFactor.getByRole('button', { name: 'Copy secret key' }).click();
  await expect(twoFactor.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  const code = twoFactor.getByLabel('Authentication code');
  await expect(code).toHaveAttribute('inputmode', 'numeric');
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');

  // A wrong code: the agent's reason shows, the field empties for the next try, 2FA stays off.
  await code.fill(wrongCode(secret));
  await twoFactor.getByRole('button', { name: 'Enable two-factor authentication' }).click();
  await expect(twoFactor.getByRole('alert')).toHaveText('Invalid 2FA code');
  await expect(code).toHaveValue('');
  await expect(twoFactor.getByTestId('two-factor-status')).toHaveText('Disabled');

  // From the keyboard: type the code and press Enter.
  const enabledAt = timeStep(Date.now());
  await code.fill(totpAt(secret, enabledAt));
  await code.press('Enter');
  await expect(toast(page, 'Two-factor authentication enabled')).toBeVisible();
  await expect(twoFactor.getByTestId('two-factor-status')).toHaveText('Enabled');
  await expect(twoFactor.getByTestId('totp-secret')).toHaveCount(0);
  await expect(twoFactor.getByText('Two-factor authentication is on')).toBeVisible();
  expect(publicUserSchema.parse(await (await page.request.get('/api/auth/user')).json())).toMatchObject({
    twoFactorEnabled: true,
  });
  await expectNoSeriousAxeViolations(page, 'enabled');

  // Signing in elsewhere now takes a code.
  const noCode = await request.post('/api/auth/login', { data: { email: user.email, password: PASSWORD } });
  expect(noCode.status()).toBe(401);
  expect(((await noCode.json()) as { message: string }).message).toBe('2FA code required');

  // An authenticator never shows the code of one step twice, so turning 2FA off uses a later step
  // than enabling did. The agent accepts one step of drift either way, so the next step's code is
  // good at once: no waiting for the clock to roll over.
  const disableCode = totpAt(secret, Math.max(enabledAt + 1, timeStep(Date.now())));
  await twoFactor.getByLabel('Authentication code').fill(disableCode);
  await twoFactor.getByRole('button', { name: 'Disable two-factor authentication' }).click();
  await expect(toast(page, 'Two-factor authentication disabled')).toBeVisible();
  await expect(twoFactor.getByTestId('two-factor-status')).toHaveText('Disabled');
  await expect(twoFactor.getByRole('button', { name: 'Set up two-factor authentication' })).toBeVisible();

  const passwordOnly = await request.post('/api/auth/login', {
    data: { email: user.email, password: PASSWORD },
  });
  expect(passwordOnly.status(), await passwordOnly.text()).toBe(200);
});

test.describe('accessibility', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`/settings has no serious or critical axe violations (${colorScheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await signUp(page, `axe-${colorScheme}`);
      await openSettings(page);
      await expectNoSeriousAxeViolations(page, 'opened');

      await fillPasswords(page, PASSWORD, NEW_PASSWORD, `${NEW_PASSWORD}-typo`);
      await expect(section(page, 'Password').getByRole('alert')).toBeVisible();
      await expectNoSeriousAxeViolations(page, 'password mismatch');

      const twoFactor = section(page, 'Two-factor authentication');
      await twoFactor.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      await expect(twoFactor.getByRole('img', { name: /^QR code/ })).toBeVisible();
      await expectNoSeriousAxeViolations(page, 'two-factor setup');

      await twoFactor.getByRole('button', { name: 'Cancel' }).click();
      await expect(twoFactor.getByText(/your password alone signs you in/)).toBeFocused();
    });
  }
});
