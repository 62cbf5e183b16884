/// <reference lib="dom" />
import { randomUUID } from 'node:crypto';
import type { Page, Route } from '@playwright/test';
import { expect, test } from './support.js';

/**
 * Issue 26: `/` and `/auth` reach a visitor prerendered (web/vite-prerender.ts), painted before
 * their code has run, and React takes that page over rather than drawing it again.
 */

const PASSWORD = 'correct-horse-battery';

/**
 * Holds back the page's scripts whose URL matches `pattern` until `release()`: the page is what
 * the HTML alone gives. Waiting requests are let through in the order they came.
 */
async function holdScripts(page: Page, pattern: RegExp = /\/assets\/.*\.js$/) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * Lets the page's scripts through but its screen's chunk (held by `releaseScreen`), waits until
 * the page has been idle (the toasts' code loads then, app/app.tsx) and only then lets the
 * screen's chunk through: the screen goes live after idleness, when controls that wait for it
 * (tooltips, the demo dialog) would render differently from the prerendered page unless they
 * also wait for it to be live.
 */
async function screenGoesLiveAfterIdle(page: Page, release: () => void, releaseScreen: () => void) {
  const idle = page.waitForRequest(/\/assets\/toaster-.*\.js$/);
  release();
  await idle;
  releaseScreen();
}

/**
 * Opens `path` with every script held back, the screen's chunk (`screenChunk`) separately: the
 * page is what the HTML alone gives until `release()`, and its screen until `releaseScreen()`.
 */
async function openHeldBack(page: Page, path: string, screenChunk: RegExp) {
  const release = await holdScripts(page);
  // Registered last, so it is asked first for the screen's chunk.
  const releaseScreen = await holdScripts(page, screenChunk);
  await page.goto(path, { waitUntil: 'commit' });
  return { release, releaseScreen };
}

const LANDING_CHUNK = /\/assets\/landing-page-.*\.js$/;
const AUTH_CHUNK = /\/assets\/auth-page-.*\.js$/;

/** Hydration errors (React's #418 and its kin) reach the page as uncaught errors. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Set once React has taken the page over: the sign-in button is enabled from then on. */
const signInButton = (page: Page) => page.getByRole('button', { name: 'Sign In', exact: true });

test('a visitor gets the landing page and the sign-in screen in their HTML; a signed-in owner does not', async ({
  request,
  playwright,
  agent,
}) => {
  for (const [path, text] of [
    ['/', 'Your voice assistant and smart home, run from your own hub'],
    ['/auth', 'Remember me for 30 days'],
  ] as const) {
    const res = await request.get(path, { headers: { 'accept-encoding': 'br' } });
    expect(res.status()).toBe(200);
    expect(res.headers()['content-encoding']).toBe('br');
    expect(res.headers()['vary']).toBe('Accept-Encoding, Cookie');
    expect(res.headers()['cache-control']).toBe('no-cache');
    const html = await res.text();
    expect(html).toContain('<div id="root" data-prerendered>');
    expect(html).toContain(text);
  }
  // A query may change the page (an invite code opens Register): the app draws it.
  expect(await (await request.get('/auth?invite=abc')).text()).toContain('<div id="root"></div>');

  // Signed in, `/` is the dashboard: the landing page must not flash first.
  const email = `owner-${randomUUID().slice(0, 8)}@example.com`;
  const owner = await playwright.request.newContext({ baseURL: agent.url });
  const reg = await owner.post('/api/auth/register', { data: { name: 'Owner', email, password: PASSWORD } });
  expect(reg.status()).toBe(201);
  for (const path of ['/', '/auth']) {
    const html = await (await owner.get(path)).text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('data-prerendered');
  }
  await owner.dispose();
});

test('the landing page paints before its code runs, and React takes it over without drawing it again', async ({
  page,
}) => {
  const errors = pageErrors(page);
  const { release, releaseScreen } = await openHeldBack(page, '/', LANDING_CHUNK);
  const heading = page.getByRole('heading', {
    level: 1,
    name: 'Your voice assistant and smart home, run from your own hub',
  });
  await expect(heading).toBeVisible();
  // Marks the painted heading's node: a page drawn again would have a new one.
  await heading.evaluate((element) => element.setAttribute('data-painted-first', ''));
  await screenGoesLiveAfterIdle(page, release, releaseScreen);
  // Live: the demo dialog and the theme toggle work.
  await page.getByRole('button', { name: 'Watch Demo' }).click();
  await expect(page.getByRole('dialog', { name: 'Demo Video Coming Soon' })).toBeVisible();
  await page.keyboard.press('Escape');
  const html = page.locator('html');
  const dark = await html.evaluate((element) => element.classList.contains('dark'));
  await page.getByRole('banner').getByRole('button', { name: 'Toggle theme' }).first().click();
  await expect(html).toHaveClass(dark ? /\blight\b/ : /\bdark\b/);
  await expect(page.locator('h1[data-painted-first]')).toHaveCount(1);
  expect(errors).toEqual([]);
});

test('what a visitor types into the sign-in form before its code arrives is kept and signs them in', async ({
  page,
  request,
}) => {
  const email = `early-${randomUUID().slice(0, 8)}@example.com`;
  const reg = await request.post('/api/auth/register', {
    data: { name: 'Early', email, password: PASSWORD },
  });
  expect(reg.status()).toBe(201);

  const errors = pageErrors(page);
  const { release, releaseScreen } = await openHeldBack(page, '/auth', AUTH_CHUNK);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  // Not live yet: Enter does not submit the form the browser's way (a GET with the password in it).
  await expect(signInButton(page)).toBeDisabled();
  await page.getByLabel('Password', { exact: true }).press('Enter');
  expect(new URL(page.url()).search).toBe('');

  await screenGoesLiveAfterIdle(page, release, releaseScreen);
  await expect(signInButton(page)).toBeEnabled();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await signInButton(page).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard');
  expect(errors).toEqual([]);
});

test('a press on a button before its screen is live is not lost: it lands once the screen is', async ({
  page,
}) => {
  const errors = pageErrors(page);
  const { release, releaseScreen } = await openHeldBack(page, '/', LANDING_CHUNK);
  const idle = page.waitForRequest(/\/assets\/toaster-.*\.js$/);
  release();
  await idle;
  // The page's frame is live, its screen is not: React would drop a click on the screen now.
  const press = page.getByRole('button', { name: 'Watch Demo' }).click();
  releaseScreen();
  await press;
  await expect(page.getByRole('dialog', { name: 'Demo Video Coming Soon' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a dark theme is dark from the first paint, and a screen whose code comes late is taken over, not drawn again', async ({
  page,
}) => {
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  const errors = pageErrors(page);
  const { release, releaseScreen } = await openHeldBack(page, '/auth', AUTH_CHUNK);
  const remember = page.getByText('Remember me for 30 days');
  await expect(remember).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  // The toggle draws its icon from the page's class: the sun, before any script has run.
  const toggle = page.getByRole('button', { name: /Switch to (light|dark) theme/ });
  await expect(toggle.locator('svg.lucide-sun')).toBeVisible();
  await expect(toggle.locator('svg.lucide-moon')).toBeHidden();
  await remember.evaluate((element) => element.setAttribute('data-painted-first', ''));
  await page.getByLabel('Email').fill('early@example.com');

  // The frame goes live (dark, from then on) before the screen's code has come.
  await screenGoesLiveAfterIdle(page, release, releaseScreen);
  await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expect(page.locator('[data-painted-first]')).toHaveCount(1);
  await expect(page.getByLabel('Email')).toHaveValue('early@example.com');
  expect(errors).toEqual([]);
});

/** Layout shifts: their sum and what they moved. */
type Shifts = { value: number; moved: string[] };

/**
 * Sums the page's layout shifts (the Layout Instability API) from its first paint until it is live
 * and idle. A part that appears once the page's code has run moves what a person was about to press:
 * a CI run's click on "Forgot password?" landed on Sign In when the passkey button appeared below
 * the centred form and moved it up by 42 px. A first paint of a half-parsed page, which then grows,
 * is a shift too (web/vite-prerender.ts holds the paint until the page is parsed).
 */
async function layoutShiftUntilIdle(page: Page, path: string): Promise<Shifts> {
  await page.addInitScript(() => {
    const shifts: Shifts[] = [];
    (window as unknown as { shifts: Shifts[] }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        sources: { node: Node | null }[];
      }[]) {
        const moved = entry.sources.map((source) =>
          source.node instanceof Element ? source.node.outerHTML.slice(0, 80) : String(source.node?.nodeName),
        );
        shifts.push({ value: entry.value, moved });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const idle = page.waitForRequest(/\/assets\/toaster-.*\.js$/);
  await page.goto(path);
  await idle;
  await expect(page.locator('#root[data-prerendered]')).toHaveCount(0);
  // Two frames after idle: a shift from the last render has been reported.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  const seen = await page.evaluate(() => (window as unknown as { shifts: Shifts[] }).shifts);
  return {
    value: seen.reduce((sum, shift) => sum + shift.value, 0),
    moved: seen.flatMap((shift) => shift.moved),
  };
}

// A phone's width (the sign-in form stacked under the hub's introduction) and a desktop's.
for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 720 },
]) {
  for (const path of ['/', '/auth']) {
    test(`${path} at ${viewport.width} px does not move when its code takes it over, on a browser with passkeys`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      expect(await layoutShiftUntilIdle(page, path)).toEqual({ value: 0, moved: [] });
      if (path === '/auth') {
        await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
      }
    });
  }
}

test('without passkeys (no secure context), the sign-in form is drawn without the passkey button from its first paint', async ({
  page,
}) => {
  // What a browser does on plain HTTP: WebAuthn is not there at all.
  await page.addInitScript(() => Reflect.deleteProperty(window, 'PublicKeyCredential'));
  expect(await layoutShiftUntilIdle(page, '/auth')).toEqual({ value: 0, moved: [] });
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeHidden();
  await expect(page.getByText('or', { exact: true })).toBeHidden();
});
