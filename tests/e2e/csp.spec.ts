import type { Page } from '@playwright/test';
import { Recordings } from '../fixtures/recordings.js';
import { fakeMicrophone } from '../support/chromium.js';
import { openablePath, routeTable, type TableName } from './route-table.js';
import { createAccount, signIn, type Account } from './shell-helpers.js';
import { expect, test } from './support.js';

/**
 * The console's Content-Security-Policy (agent/src/http/security-headers.ts) must not break a
 * screen: every route of the console's route tables (web/src/app/routes.tsx, console-routes.tsx) is opened, signed out and signed in as the owner,
 * and any violation the browser reports fails the test. And it must do its job: a script injected
 * into the page does not run.
 */

/** One path per screen of a route table (aliases share their screen's code), so a new route is covered without edits here. */
function routePaths(table: TableName): string[] {
  return [...new Set(routeTable(table).map((entry) => openablePath(entry.paths[0]!)))];
}

interface Violation {
  directive: string;
  blocked: string;
  source: string;
}

/** Records the page's CSP violations (the DOM event, and the console's report of them). */
async function watchViolations(page: Page): Promise<() => Promise<Violation[]>> {
  const fromConsole: Violation[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) {
      fromConsole.push({ directive: 'console', blocked: message.text(), source: page.url() });
    }
  });
  // Init scripts come through the DevTools protocol, which the page's CSP does not govern.
  await page.addInitScript(() => {
    const seen: { directive: string; blocked: string; source: string }[] = [];
    (window as unknown as { __cspViolations: typeof seen }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        source: `${event.sourceFile}:${event.lineNumber}`,
      }),
    );
  });
  return async () => [
    ...fromConsole.splice(0),
    ...(await page.evaluate(
      () => (window as unknown as { __cspViolations?: Violation[] }).__cspViolations ?? [],
    )),
  ];
}

/** Opens a path and waits for its screen's lazily loaded code (the title is set once it runs). */
async function openScreen(page: Page, path: string) {
  await page.goto(path);
  // The landing page's title is the bare product name; every other screen adds its own.
  if (path !== '/') await expect(page).not.toHaveTitle('Nexus Console', { timeout: 15_000 });
  await expect(page.getByRole('heading').first()).toBeVisible();
}

/** Opens each path in turn; the violations seen on each, by path (none: an empty object). */
async function violationsOnEach(page: Page, paths: string[], violations: () => Promise<Violation[]>) {
  const found: Record<string, Violation[]> = {};
  for (const path of paths) {
    await openScreen(page, path);
    const seen = await violations();
    if (seen.length) found[path] = seen;
  }
  return found;
}

const recordings = new Recordings();
const voice = recordings.speak('hey nexus', { peakDbfs: -6 });
test.use(fakeMicrophone(voice));
test.afterAll(() => recordings.cleanup());

test('every signed-out screen loads without a CSP violation', async ({ page }) => {
  test.setTimeout(120_000);
  const violations = await watchViolations(page);
  const paths = routePaths('signedOutRoutes');
  expect(paths.length).toBeGreaterThan(5);
  expect(await violationsOnEach(page, paths, violations)).toEqual({});
});

test('the stored theme applies before the console’s code runs (/before-paint.js under the policy)', async ({
  page,
}) => {
  const violations = await watchViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  // Without the app's bundle only the theme script can set the class: no flash of the wrong theme.
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/auth');
  await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);
  expect(await violations()).toEqual([]);
});

test.describe('signed in as the owner', () => {
  let owner: Account;
  test.beforeAll(async ({ agent }) => {
    owner = await createAccount(agent, { name: 'Policy Owner', role: 'superadmin' });
  });
  test.beforeEach(async ({ page }) => {
    await signIn(page, owner);
  });

  test('every screen loads without a CSP violation, the live channel included', async ({ page }) => {
    test.setTimeout(240_000);
    const violations = await watchViolations(page);
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    const paths = routePaths('signedInRoutes');
    expect(paths.length).toBeGreaterThan(40);
    expect(await violationsOnEach(page, paths, violations)).toEqual({});
    // connect-src 'self' admits the same-origin WebSocket (CSP Level 3).
    expect(sockets.some((url) => url.endsWith('/api/live'))).toBe(true);
  });

  test('the microphone’s worklet loads under the policy', async ({ page }) => {
    const violations = await watchViolations(page);
    await openScreen(page, '/mic-test');
    await page.getByRole('button', { name: 'Open microphone' }).click();
    await expect(page.getByTestId('level-rms')).toHaveText(/dBFS$/);
    expect(await violations()).toEqual([]);
  });

  test('a menu and a dialog open under the policy (their scroll lock adds a <style> element)', async ({
    page,
  }) => {
    const violations = await watchViolations(page);
    await openScreen(page, '/dashboard');
    await page.getByRole('button', { name: 'User menu' }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await openScreen(page, '/satellite-management');
    await page.getByRole('button', { name: 'Add Nexus satellite' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    // The page behind a modal dialog does not scroll: Radix's scroll lock is in force.
    await expect(page.locator('body')).toHaveCSS('overflow', 'hidden');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await violations()).toEqual([]);
  });

  test('a script injected into the page does not run', async ({ page }) => {
    const violations = await watchViolations(page);
    await openScreen(page, '/dashboard');
    // As an HTML injection would: an inline <script>, an event-handler attribute, a javascript: URL.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = "inline script";';
      document.body.append(script);
      const holder = document.createElement('div');
      holder.innerHTML = '<img src="/no-such-image.png" onerror="window.__injected = \'onerror\'">';
      document.body.append(holder);
      const foreign = document.createElement('script');
      foreign.src = 'http://127.0.0.2:9/evil.js';
      document.body.append(foreign);
    });
    await expect.poll(async () => (await violations()).length).toBeGreaterThanOrEqual(3);
    expect(
      await page.evaluate(() => (window as unknown as { __injected?: string }).__injected),
    ).toBeUndefined();
    const directives = (await violations()).map((v) => v.directive);
    expect(directives).toContain('script-src-elem');
    expect(directives).toContain('script-src-attr');
  });
});
