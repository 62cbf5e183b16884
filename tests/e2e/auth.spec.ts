/// <reference lib="dom" />
import { createHmac, randomUUID } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './support.js';

/**
 * The /auth screen against the real agent (spec §2, §4, §5, §8): sign-in, registration, sign-out,
 * the two-factor step, remember-me cookies, the signed-out fallback route, theme and accessibility.
 */

const PASSWORD = 'correct-horse-battery';
const SESSION_COOKIE = 'nexus_session';
const DAY_S = 24 * 60 * 60;

function uniqueEmail(tag: string): string {
  return `${tag}-${randomUUID().slice(0, 8)}@example.com`;
}

/** A toast by its title; Radix also copies toast text into a screen-reader announcer, so match the toast itself. */
function toast(page: Page, title: string): Locator {
  return page.locator('[data-slot=toast]').filter({ has: page.getByText(title, { exact: true }) });
}

async function createAccount(request: APIRequestContext, email: string, name = 'Test Person') {
  const res = await request.post('/api/auth/register', { data: { name, email, password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(201);
}

async function openAuth(page: Page) {
  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
}

async function signInThroughUi(page: Page, email: string, password = PASSWORD, rememberMe = false) {
  await openAuth(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  if (rememberMe) await page.getByRole('checkbox', { name: 'Remember me for 30 days' }).check();
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** The signed-in screens put Sign Out behind a user menu once the app shell exists; this finds it either way. */
async function signOutThroughUi(page: Page) {
  const direct = page.getByRole('button', { name: 'Sign Out', exact: true });
  if (!(await direct.isVisible())) {
    await page.getByRole('button', { name: /user menu|account menu/i }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    return;
  }
  await direct.click();
}

async function currentUser(page: Page): Promise<{ email: string } | null> {
  const res = await page.request.get('/api/auth/user');
  return res.ok() ? ((await res.json()) as { email: string }) : null;
}

/** RFC 6238 TOTP (HMAC-SHA1, 30 s steps, 6 digits) for a base32 secret, at the given time step. */
function totp(secretBase32: string, step: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secretBase32.replace(/=+$/, '').toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const hmac = createHmac('sha1', key).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0x0f;
  const binary = hmac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

const currentStep = () => Math.floor(Date.now() / 1000 / 30);

/** Creates an account with 2FA on (through the API, in its own cookie jar); returns its secret and the step used. */
async function createTwoFactorAccount(request: APIRequestContext, email: string) {
  await createAccount(request, email, 'Two Factor');
  const setup = await request.post('/api/auth/2fa/setup');
  expect(setup.status(), await setup.text()).toBe(200);
  const { secret, otpauthUrl } = (await setup.json()) as { secret: string; otpauthUrl: string };
  expect(otpauthUrl).toContain('otpauth://totp/');
  const enabledAt = currentStep();
  const enable = await request.post('/api/auth/2fa/enable', { data: { code: totp(secret, enabledAt) } });
  expect(enable.status(), await enable.text()).toBe(200);
  await request.post('/api/auth/logout');
  return { secret, enabledAt };
}

test.describe('signed out', () => {
  test('any unknown path shows the auth screen', async ({ page }) => {
    await page.goto('/no/such/place');
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Register' })).toBeVisible();
    await expect(page).toHaveURL(/\/no\/such\/place$/);
  });

  test('the sign-in form has labelled, required fields of the right types', async ({ page }) => {
    await openAuth(page);
    const email = page.getByLabel('Email');
    await expect(email).toHaveAttribute('type', 'email');
    await expect(email).toHaveAttribute('required', '');
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('required', '');
    await expect(page.getByRole('checkbox', { name: 'Remember me for 30 days' })).not.toBeChecked();

    await page.getByRole('tab', { name: 'Register' }).click();
    for (const label of ['Name', 'Email', 'Password', 'Confirm Password']) {
      await expect(page.getByLabel(label, { exact: true })).toHaveAttribute('required', '');
    }
    await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
  });
});

test('register lands on /dashboard signed in, with the success toast', async ({ page }) => {
  const email = uniqueEmail('register');
  const sent: unknown[] = [];
  page.on('request', (req) => {
    if (req.url().endsWith('/api/auth/register')) sent.push(req.postDataJSON());
  });
  await openAuth(page);
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(toast(page, 'Registration successful')).toContainText('You are now logged in.');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveCount(0);
  expect((await currentUser(page))?.email).toBe(email);
  // Spec §3: confirmPassword stays in the browser.
  expect(sent).toEqual([{ name: 'Ada Lovelace', email, password: PASSWORD }]);
});

test('mismatched passwords show Error / Passwords do not match and send nothing', async ({ page }) => {
  const registerCalls: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/api/auth/register')) registerCalls.push(req.url());
  });
  await openAuth(page);
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Name').fill('Mismatch');
  await page.getByLabel('Email').fill(uniqueEmail('mismatch'));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(`${PASSWORD}-typo`);
  await page.getByRole('button', { name: 'Create Account' }).click();

  const error = toast(page, 'Error');
  await expect(error).toContainText('Passwords do not match');
  await expect(error).toHaveAttribute('data-variant', 'destructive');
  expect(registerCalls).toEqual([]);
  await expect(page.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
});

test('registering an existing account says so and opens the Sign In tab', async ({ page, request }) => {
  const email = uniqueEmail('duplicate');
  await createAccount(request, email);
  await openAuth(page);
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Name').fill('Someone Else');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();

  const exists = toast(page, 'Account Already Exists');
  await expect(exists).toContainText('already exists');
  // Spec §8: normal style, not destructive; the server's sentence, not its JSON.
  await expect(exists).toHaveAttribute('data-variant', 'default');
  await expect(exists).not.toContainText('{');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Email')).toHaveValue(email);
});

test('a wrong password shows Login failed with the reason', async ({ page, request }) => {
  const email = uniqueEmail('wrong');
  await createAccount(request, email);
  await signInThroughUi(page, email, 'not-the-password');
  const failed = toast(page, 'Login failed');
  await expect(failed).toContainText('Invalid email or password');
  await expect(failed).toHaveAttribute('data-variant', 'destructive');
  await expect(page).toHaveURL(/\/auth$/);
  expect(await currentUser(page)).toBeNull();
});

test('signing in and out', async ({ page, request, context }) => {
  const email = uniqueEmail('inout');
  await createAccount(request, email, 'In Out');
  await signInThroughUi(page, email);
  await expect(toast(page, 'Login successful')).toContainText('Welcome back!');
  await expect(page).toHaveURL(/\/dashboard$/);
  expect((await currentUser(page))?.email).toBe(email);

  // Without "remember me" the cookie ends with the browser session.
  const session = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
  expect(session?.expires).toBe(-1);
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe('Lax');

  // A signed-in visitor of /auth goes on to the dashboard.
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/dashboard$/);

  await signOutThroughUi(page);
  await expect(toast(page, 'Logged out')).toContainText('You have been logged out successfully.');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  expect(await currentUser(page)).toBeNull();
});

test('a password the agent refuses shows Registration failed with its reason; no account is made', async ({
  page,
}) => {
  const email = uniqueEmail('short');
  await openAuth(page);
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Name').fill('Short Password');
  await page.getByLabel('Email').fill(email);
  // The console shows no length rule (spec §5); the agent's is the one that answers.
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm Password').fill('short');
  await page.getByRole('button', { name: 'Create Account' }).click();
  const failed = toast(page, 'Registration failed');
  await expect(failed).toContainText(/Password must be at least \d+ characters/);
  await expect(failed).toHaveAttribute('data-variant', 'destructive');
  await expect(page).toHaveURL(/\/auth$/);
  expect(await currentUser(page)).toBeNull();
});

test('when the sign-out call fails, Logout issue says so and the user is signed out locally', async ({
  page,
  request,
}) => {
  const email = uniqueEmail('logout-fails');
  await createAccount(request, email, 'Logout Fails');
  await signInThroughUi(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The network drops the sign-out request (spec §4: the user is cleared anyway).
  await page.route('**/api/auth/logout', (route) => route.abort('failed'));
  await signOutThroughUi(page);
  await expect(toast(page, 'Logout issue')).toContainText(
    'Logged out locally. Please refresh if you see any issues.',
  );
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
});

test('remember me keeps the session cookie for 30 days', async ({ page, request, context }) => {
  const email = uniqueEmail('remember');
  await createAccount(request, email);
  await signInThroughUi(page, email, PASSWORD, true);
  await expect(toast(page, 'Login successful')).toBeVisible();
  const session = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
  expect(session).toBeDefined();
  expect(session!.expires).toBeGreaterThan(Date.now() / 1000 + 29 * DAY_S);
  expect(session!.expires).toBeLessThanOrEqual(Date.now() / 1000 + 30 * DAY_S + 60);
});

test('a 2FA account is asked for its code; Back to Sign In clears it', async ({ page, request }) => {
  const email = uniqueEmail('totp');
  const { secret, enabledAt } = await createTwoFactorAccount(request, email);

  await signInThroughUi(page, email);
  await expect(toast(page, '2FA Required')).toContainText(
    'Please enter your two-factor authentication code.',
  );
  await expect(toast(page, '2FA Required')).toHaveAttribute('data-variant', 'default');
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveCount(0);
  await expect(code).toHaveAttribute('inputmode', 'numeric');
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(code).toHaveAttribute('maxlength', '6');
  await expect(code).toHaveAttribute('required', '');
  await expect(code).toHaveAttribute('pattern', '\\d{6}');

  await code.fill('123');
  await page.getByRole('button', { name: 'Back to Sign In' }).click();
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(code).toBeVisible();
  await expect(code).toHaveValue('');

  // The enabling code's step is spent; the next step's code is within the server's one-step drift window.
  await code.fill(totp(secret, Math.max(enabledAt, currentStep()) + 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(toast(page, 'Login successful')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect((await currentUser(page))?.email).toBe(email);
});

test('a wrong 2FA code keeps the two-factor step and says why', async ({ page, request }) => {
  const email = uniqueEmail('totp-wrong');
  const { secret, enabledAt } = await createTwoFactorAccount(request, email);
  await signInThroughUi(page, email);
  const code = page.getByLabel('Authentication code');
  // Spend the enrolment step with a sign-in elsewhere; the UI then gets that code refused as a replay.
  const elsewhere = await request.post('/api/auth/login', {
    data: { email, password: PASSWORD, totpCode: totp(secret, enabledAt) },
  });
  expect(elsewhere.status(), await elsewhere.text()).toBe(200);
  await code.fill(totp(secret, enabledAt));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(toast(page, 'Login failed')).toContainText('already used');
  await expect(code).toBeVisible();
  await expect(code).toHaveValue('');
  expect(await currentUser(page)).toBeNull();
});

test.describe('theme', () => {
  test('a stored choice applies as a class on <html>, and a change is stored', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.addInitScript(() => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('theme', 'dark');
        sessionStorage.setItem('seeded', '1');
      }
    });
    await openAuth(page);
    await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);

    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expect(page.locator('html')).toHaveClass(/(^|\s)light(\s|$)/);
    await expect(page.locator('html')).not.toHaveClass(/(^|\s)dark(\s|$)/);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');

    await page.reload();
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
    await expect(page.locator('html')).toHaveClass(/(^|\s)light(\s|$)/);
  });

  test('without a stored choice the system preference decides', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await openAuth(page);
    await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
  });
});

test.describe('accessibility', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`/auth has no serious or critical axe violations (${colorScheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await openAuth(page);
      const check = async (where: string) => {
        const results = await new AxeBuilder({ page }).analyze();
        const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(
          bad.map((v) => `${where}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target).join(' ')}`),
        ).toEqual([]);
      };
      await check('sign in');
      await page.getByRole('tab', { name: 'Register' }).click();
      await check('register');
    });
  }

  test('the two-factor step has no serious or critical axe violations', async ({ page, request }) => {
    const email = uniqueEmail('totp-axe');
    await createTwoFactorAccount(request, email);
    await signInThroughUi(page, email);
    await expect(page.getByLabel('Authentication code')).toBeFocused();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });

  test('the sign-in form works from the keyboard with a visible focus ring', async ({ page, request }) => {
    const email = uniqueEmail('keyboard');
    await createAccount(request, email);
    await openAuth(page);
    const emailField = page.getByLabel('Email');
    const shadow = () => emailField.evaluate((el) => getComputedStyle(el).boxShadow);
    const unfocused = await shadow();
    await page.getByRole('tab', { name: 'Sign In' }).focus();
    await page.keyboard.press('Tab'); // into the tab panel
    await page.keyboard.press('Tab');
    await expect(emailField).toBeFocused();
    // Tailwind's focus ring is drawn as a box-shadow: keyboard focus must change it visibly.
    expect(await shadow()).not.toBe(unfocused);
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await expect(page.getByRole('checkbox', { name: 'Remember me for 30 days' })).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(toast(page, 'Login successful')).toBeVisible();
  });
});
