import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { Locator, Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './axe.js';
import { expect, test } from './support.js';

/**
 * Passkeys in a real browser with Chromium's virtual authenticator (CDP WebAuthn domain): enrol a
 * passkey on /enroll-passkey, sign out, sign in with "Sign in with a passkey", and delete it after
 * re-authenticating with it. WebAuthn needs a secure context and a domain as RP ID (an IP address
 * is not one in Chromium), so these pages use http://localhost:<port>, which the agent accepts.
 */

const PASSWORD = 'correct horse battery staple';

test.use({ baseURL: undefined });

const toast = (page: Page, title: string): Locator =>
  page.locator('[data-slot=toast]').filter({ has: page.getByText(title, { exact: true }) });

async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

test('enrol a passkey, sign out, sign in with it, delete it after re-authentication', async ({
  page,
  agent,
}) => {
  const origin = `http://localhost:${agent.port}`;
  const authenticator = await addVirtualAuthenticator(page);

  // The hub's owner exists already in this worker's hub or is made now; this account is a new one.
  const email = `passkey-${randomUUID().slice(0, 8)}@example.com`;
  const registered = await page.request.post(`${origin}/api/auth/register`, {
    data: { name: 'Grace Hopper', email, password: PASSWORD },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const userId = ((await registered.json()) as { user: { id: number } }).user.id;

  await page.goto(`${origin}/enroll-passkey`);
  await expect(page.getByRole('heading', { level: 1, name: 'Passkeys' })).toBeVisible();
  const card = page.getByRole('region', { name: 'Passkeys', exact: true });
  await expect(card.getByText('You have no passkeys yet.')).toBeVisible();
  await card.getByLabel('Passkey name').fill('Test laptop');
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(toast(page, 'Passkey added')).toBeVisible();
  const rows = card.getByTestId('passkey-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Test laptop');
  await expect(rows.first()).toContainText('never used');
  await expectNoSeriousAxeViolations(page, 'enroll-passkey');
  expect(await authenticator.credentials()).toHaveLength(1);

  // Rename it.
  await rows.first().getByRole('button', { name: 'Rename Test laptop' }).click();
  await rows.first().getByLabel('New name for Test laptop').fill('Work laptop');
  await rows.first().getByRole('button', { name: 'Save' }).click();
  await expect(rows.first()).toContainText('Work laptop');

  // Sign out, then in with the passkey alone. The virtual authenticator answers a conditional
  // (autofill) request at once, so for the button this page's browser offers no conditional UI.
  await page.addInitScript(() => {
    if (location.search.includes('no-autofill')) {
      PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
    }
  });
  expect((await page.request.post(`${origin}/api/auth/logout`)).status()).toBe(200);
  await page.goto(`${origin}/auth?no-autofill`);
  await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const me = await page.request.get(`${origin}/api/auth/user`);
  expect(((await me.json()) as { email: string }).email).toBe(email);

  // Conditional UI: where the browser offers it, picking the passkey from autofill signs in too.
  expect((await page.request.post(`${origin}/api/auth/logout`)).status()).toBe(200);
  await page.goto(`${origin}/auth`);
  await expect(page).toHaveURL(/\/dashboard$/);
  expect((await page.request.get(`${origin}/api/auth/user`)).status()).toBe(200);

  // Five minutes later (the session's last proof made old), deleting asks to confirm it is you.
  const db = new Database(path.join(agent.dataDir, 'nexus.db'));
  try {
    db.prepare('update sessions set reauth_at = ? where user_id = ?').run(Date.now() - 10 * 60_000, userId);
  } finally {
    db.close();
  }
  await page.goto(`${origin}/enroll-passkey`);
  await expect(rows.first()).toContainText('last used');
  await rows.first().getByRole('button', { name: 'Delete Work laptop' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(toast(page, 'Passkey deleted')).toBeVisible();
  await expect(card.getByText('You have no passkeys yet.')).toBeVisible();
});

test('/settings shows the Passkeys section linking to /enroll-passkey', async ({ page, agent }) => {
  const origin = `http://localhost:${agent.port}`;
  const res = await page.request.post(`${origin}/api/auth/register`, {
    data: {
      name: 'Alan Turing',
      email: `passkey-${randomUUID().slice(0, 8)}@example.com`,
      password: PASSWORD,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await page.goto(`${origin}/settings`);
  const card = page.getByRole('region', { name: 'Passkeys', exact: true });
  await expect(card.getByText('You have no passkeys yet.')).toBeVisible();
  await card.getByRole('link', { name: 'Add a passkey' }).click();
  await expect(page).toHaveURL(/\/enroll-passkey$/);
});
