import { createAccount, signIn } from './shell-helpers.js';
import { expect, test } from './support.js';

/**
 * The console as an installable app (web/public/manifest.webmanifest, web/public/sw.js), phone
 * pairing by QR code (/phone-admin, /pair) and the first-run checklist (/onboarding).
 */

test('the manifest is linked, served as a manifest and names installable icons', async ({
  page,
  request,
}) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveCount(1);
  await expect(page.locator('meta[name="theme-color"]').first()).toHaveAttribute('content', /^#[0-9a-f]{6}$/);

  const res = await request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/manifest+json');
  const manifest = await res.json();
  expect(manifest).toMatchObject({
    name: 'Nexus Console',
    short_name: expect.any(String),
    start_url: '/dashboard',
    display: 'standalone',
    theme_color: expect.stringMatching(/^#/),
    background_color: expect.stringMatching(/^#/),
  });
  const icons = manifest.icons as { src: string; sizes: string; purpose?: string }[];
  expect(icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(icons.some((i) => i.purpose === 'maskable')).toBe(true);
  for (const icon of icons) {
    const png = await request.get(icon.src);
    expect(png.status(), icon.src).toBe(200);
    expect(png.headers()['content-type']).toBe('image/png');
    const [width] = icon.sizes.split('x').map(Number);
    // The PNG's own size (IHDR) is the size the manifest claims.
    expect((await png.body()).readUInt32BE(16), icon.src).toBe(width);
  }

  const sw = await request.get('/sw.js');
  expect(sw.headers()['cache-control']).toBe('no-cache');
  expect(sw.headers()['content-type']).toContain('javascript');
});

test('the service worker registers and never caches an API answer', async ({ page, agent }) => {
  await signIn(page, await createAccount(agent));
  await page.goto('/dashboard');
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe('/');
  // It never takes over a page that loaded without it: it controls the next load.
  expect(await page.evaluate(() => navigator.serviceWorker.controller === null)).toBe(true);
  // Once it controls the page, its fetch handler sees every request the screens make.
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  for (const path of ['/dashboard', '/settings', '/notifications', '/onboarding', '/phone-admin']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  }
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
  expect(cached).toContain('/index.html');
  expect(cached.some((p) => p.startsWith('/assets/'))).toBe(true);
  expect(cached.filter((p) => p.startsWith('/api/') || p.startsWith('/hooks/'))).toEqual([]);
});

test('a phone scans the pairing link, is signed in, and the first page says Paired', async ({
  page,
  agent,
  browser,
}) => {
  const account = await createAccount(agent, { name: 'Phone Owner' });
  await signIn(page, account);
  await page.goto('/phone-admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Phone Admin' })).toBeVisible();
  await expect(page.getByText('No phone is paired yet.')).toBeVisible();
  await page.getByLabel('Phone name').fill('Kitchen Pixel');
  await page.getByRole('button', { name: 'Make a pairing link' }).click();

  await expect(page.getByRole('img', { name: 'QR code that signs in Kitchen Pixel' })).toBeVisible();
  const link = await page.getByLabel('Pairing link').inputValue();
  expect(link).toMatch(new RegExp(`^${agent.url}/pair#[A-Za-z0-9_-]{43}$`));
  await expect(page.getByText(/the link expires in \d+:\d\d/)).toBeVisible();

  const phone = await browser.newContext({ baseURL: agent.url });
  const phonePage = await phone.newPage();
  await phonePage.goto(link);
  await expect(phonePage).toHaveURL(/\/dashboard$/);
  const me = await phonePage.request.get('/api/auth/user');
  expect((await me.json()).email).toBe(account.email);

  await expect(page.getByText('Paired: Kitchen Pixel is signed in.')).toBeVisible();
  await page.getByRole('button', { name: 'Pair another phone' }).click();
  await page.reload();
  const list = page.getByRole('list', { name: 'Paired phones' });
  await expect(list.getByText('Kitchen Pixel')).toBeVisible();

  // The same link a second time: an error page, no session.
  const other = await browser.newContext({ baseURL: agent.url });
  const otherPage = await other.newPage();
  await otherPage.goto(link);
  await expect(otherPage.getByText('This phone could not be paired')).toBeVisible();
  await expect(otherPage.getByText(/expired or was already used/)).toBeVisible();
  expect(new URL(otherPage.url()).hash).toBe('');
  await other.close();

  // Signing it out ends the phone's session.
  await list.getByRole('button', { name: 'Sign Kitchen Pixel out' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('No phone is paired yet.')).toBeVisible();
  expect((await phonePage.request.get('/api/auth/user')).status()).toBe(401);
  await phone.close();
});

test('/onboarding shows the checklist with Home Assistant not connected', async ({ page, agent }) => {
  await signIn(page, await createAccount(agent));
  await page.goto('/onboarding');
  await expect(page.getByRole('heading', { level: 1, name: 'Onboarding' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Setup checklist' });
  await expect(list.getByRole('listitem')).toHaveCount(7);
  const ha = list.locator('[data-step="home-assistant"]');
  await expect(ha).toHaveAttribute('data-done', 'false');
  await expect(ha.getByText('Not set up yet')).toBeVisible();
  await expect(ha.getByText('Next step')).toBeVisible();
  await expect(ha.getByRole('link', { name: /Open/ })).toHaveAttribute('href', '/ha-connection-setup');
  await expect(list.locator('[data-step="backup"]').getByText('No backup of the hub yet')).toBeVisible();
  await expect(page.getByText(/\d of 7 steps done/)).toBeVisible();
  await expect(page.getByRole('progressbar')).toBeVisible();
});
