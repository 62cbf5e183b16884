import type { Page } from '@playwright/test';
import { expect, test } from './support.js';
import { createAccount, signIn, type Account } from './shell-helpers.js';

/**
 * Spec §2, walked as a table: every signed-out and signed-in route, the aliases that share a
 * screen, the optional :wakeWord and the :id parameters, and both fallbacks.
 */

const SIGNED_OUT: { path: string; heading: RegExp | string }[] = [
  { path: '/', heading: 'Your voice assistant and smart home, run from your own hub' },
  { path: '/help', heading: 'Help' },
  { path: '/docs', heading: 'Documentation' },
  { path: '/pricing', heading: 'Pricing' },
  { path: '/checkout', heading: 'Checkout' },
  { path: '/privacy', heading: 'Privacy' },
  { path: '/terms', heading: 'Terms' },
  { path: '/crowdsource', heading: 'Wake Word Crowdsourcing' },
  { path: '/crowdsource/hey-nexus', heading: 'Wake Word Crowdsourcing' },
  { path: '/forgot-password', heading: 'Forgot your password?' },
  { path: '/reset-password', heading: 'Reset your password' },
];

/** Any other path shows the auth screen, at that address. */
const SIGNED_OUT_FALLBACK = [
  '/auth',
  '/dashboard',
  '/nexus-docker',
  '/settings',
  '/no-such-page',
  '/flowforge/api-keys',
];

/** Spec §2, signed in, grouped by screen: the paths of a group share one screen. */
const SIGNED_IN_GROUPS: string[][] = [
  ['/onboarding'],
  ['/', '/dashboard'],
  ['/connections'],
  ['/network-info'],
  ['/integrations'],
  ['/settings'],
  ['/auth-dashboard'],
  ['/pricing'],
  ['/billing'],
  ['/checkout'],
  ['/purchase-history'],
  ['/flowforge', '/studio', '/gallery'],
  ['/flowforge/api-keys'],
  ['/wake-words'],
  ['/wake-word-training'],
  ['/mic-test'],
  ['/mic-diagnostic'],
  ['/system-diagnostics', '/system-updates'],
  ['/advanced-pipeline'],
  ['/crowdsource', '/crowdsource/hey-nexus'],
  ['/notifications'],
  [
    '/llm',
    '/llm-control',
    '/pipeline-control',
    '/llm-pipelines',
    '/llm-management',
    '/llm-router',
    '/pipeline-builder',
  ],
  ['/ollama'],
  ['/admin-diagnostics'],
  ['/ha-logbook'],
  ['/ha-entities'],
  ['/ha-connection-test'],
  ['/ha-pattern-predictor', '/pattern-analysis', '/behavioral-analytics'],
  ['/home-assistant'],
  ['/home-assistant-devices'],
  ['/ha-connection-setup', '/ha-manager', '/ha-test', '/ha-web-troubleshoot', '/ha-summary', '/ha-debug'],
  ['/unifi-teleport'],
  ['/ha-device-control'],
  ['/nexus-management', '/nexus-status', '/nexus-test', '/nexus-debug', '/jetson-check'],
  ['/nexus-setup', '/install', '/nexus-quick-start'],
  ['/nexus-deploy', '/remote-deploy', '/nexus-manual', '/nexus-deployment'],
  ['/nexus-activation'],
  ['/nexus-logs'],
  ['/nexus-docker'],
  ['/nexus-control'],
  ['/multi-nexus'],
  ['/satellite-management'],
  ['/satellite-management-legacy'],
  ['/sat1-control'],
  ['/satellite-controls/7'],
  ['/creative-networking'],
  ['/automations'],
  ['/smart-home-devices'],
  ['/session-simulations'],
  ['/llm-usage-discovery'],
  ['/tokenization-demo'],
  ['/enroll-passkey'],
  ['/2fa-test'],
  ['/phone-admin'],
  ['/user-management'],
  ['/help'],
  ['/docs'],
  ['/privacy'],
  ['/terms'],
];

/** The screen a signed-in path opens, as the title the route table gives it. */
/** How long a screen's lazily loaded code may take to arrive and set its title. */
const SCREEN_TITLE_TIMEOUT_MS = 15_000;

async function screenTitle(page: Page, path: string): Promise<string> {
  await page.goto(path);
  // A screen's title is set once its lazily loaded code has arrived: the charting screens' chunks
  // take longer than the default 5 s on a loaded CI machine.
  await expect(page).not.toHaveTitle('Nexus Console', { timeout: SCREEN_TITLE_TIMEOUT_MS });
  const title = await page.title();
  expect(title, `${path} should not be the not-found screen`).not.toContain('Page not found');
  expect(title).toMatch(/ · Nexus Console$/);
  expect(new URL(page.url()).pathname).toBe(path);
  // The screen's own name: the hub's name joins the title once the hub's identity has loaded.
  return title.split(' · ')[0]!;
}

test.describe('signed out', () => {
  for (const { path, heading } of SIGNED_OUT) {
    test(`${path} shows its page`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      expect(new URL(page.url()).pathname).toBe(path);
      // Visitors' pages carry the visitor's bar, never the console's menus.
      await expect(
        page.getByRole('banner').getByRole('link', { name: 'Get Started', exact: true }),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: 'Tools & Utilities' })).toHaveCount(0);
    });
  }

  for (const path of SIGNED_OUT_FALLBACK) {
    test(`${path} shows the auth screen at that address`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Register' })).toBeVisible();
      expect(new URL(page.url()).pathname).toBe(path);
    });
  }

  test('the crowdsourcing screen receives the optional wake word', async ({ page }) => {
    // No wake word called hey-nexus is open to contributions on this hub: the screen says so for
    // the one it was given, and lists the open ones (none) without one.
    await page.goto('/crowdsource/hey-nexus');
    await expect(page.getByText('This wake word is not collecting contributions')).toBeVisible();
    await page.goto('/crowdsource');
    await expect(page.getByText('No wake word is collecting contributions right now.')).toBeVisible();
  });

  test('checkout asks a visitor to sign in to their hub', async ({ page }) => {
    await page.goto('/checkout');
    const main = page.locator('main');
    await expect(main.getByTestId('plan-pro')).toBeVisible();
    await expect(main.getByRole('link', { name: 'Sign in to your hub' })).toHaveAttribute('href', '/auth');
  });
});

test.describe('signed in', () => {
  let account: Account;
  test.beforeAll(async ({ agent }) => {
    account = await createAccount(agent);
  });
  test.beforeEach(async ({ page }) => {
    await signIn(page, account);
  });

  for (const group of SIGNED_IN_GROUPS) {
    test(`${group.join(', ')} ${group.length > 1 ? 'share one screen' : 'opens its screen'}`, async ({
      page,
    }) => {
      // Each screen may take screenTitle's 15 s on a loaded machine: the test's budget follows it
      // (two charting screens filled the default 30 s in CI, with the sign-in before them).
      test.setTimeout(SCREEN_TITLE_TIMEOUT_MS * group.length + 15_000);
      const titles: string[] = [];
      for (const path of group) titles.push(await screenTitle(page, path));
      expect(new Set(titles).size, `titles: ${titles.join(' | ')}`).toBe(1);
      await expect(page.getByRole('heading').first()).toBeVisible();
      // Every signed-in screen sits in the console's frame.
      await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
    });
  }

  test('/auth sends a signed-in user to /dashboard', async ({ page }) => {
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveCount(0);
  });

  test('an unknown path shows the not-found screen', async ({ page }) => {
    for (const path of ['/no-such-page', '/flowforge/nope', '/forgot-password', '/satellite-controls']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
      await expect(page).toHaveTitle(/^Page not found · (.+ · )?Nexus Console$/);
      await expect(page.locator('main')).toContainText(path);
    }
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('the :id of /satellite-controls/:id reaches its screen', async ({ page }) => {
    await page.goto('/satellite-controls/7');
    await expect(page).not.toHaveTitle(/Page not found/);
    const param = page.getByTestId('param-id');
    // Shown by the placeholder; a built satellite screen shows its own view of satellite 7.
    if (await param.count()) await expect(param).toHaveText('7');
  });

  test('a spinner shows while the session loads', async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/user', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/help');
    await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeVisible();
    release();
    await expect(page.getByRole('heading', { level: 1, name: 'Help' })).toBeVisible();
  });
});

test.describe('code that fails to arrive', () => {
  // The service worker would answer from its cache; these tests are about the network.
  test.use({ serviceWorkers: 'block' });

  /** Resets the connection of the first `failures` fetches of the files `pattern` matches. */
  async function failFetches(page: Page, pattern: RegExp, failures: number) {
    const seen = { count: 0 };
    await page.route(pattern, async (route) => {
      seen.count += 1;
      if (seen.count <= failures) await route.abort('connectionreset');
      else await route.continue();
    });
    return seen;
  }

  test('a screen whose code fetch fails in a network change still opens', async ({ page }) => {
    await page.goto('/terms');
    await expect(page.getByRole('heading', { level: 1, name: 'Terms' })).toBeVisible();
    const privacy = await failFetches(page, /\/assets\/privacy-page-[\w-]+\.js$/, 1);
    await page.getByRole('main').getByRole('link', { name: 'Privacy' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy' })).toBeVisible();
    expect(privacy.count).toBe(2);
    await expect(page.getByText('This screen could not be shown')).toHaveCount(0);
  });

  test('a shared file a screen imports is fetched again too', async ({ page, agent }) => {
    await signIn(page, await createAccount(agent));
    await page.goto('/help');
    await expect(page.getByRole('heading', { level: 1, name: 'Help' })).toBeVisible();
    // Both its fetches fail: Vite's modulepreload, and the screen's import of it.
    const confirm = await failFetches(page, /\/assets\/confirm-[\w-]+\.js$/, 2);
    await page.goto('/network-info');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.getByText('This screen could not be shown')).toHaveCount(0);
    expect(confirm.count).toBe(3);
  });

  test('a screen whose code does not arrive says so, and opens once the network is back', async ({
    page,
  }) => {
    await page.goto('/privacy');
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy' })).toBeVisible();
    const terms = await failFetches(page, /\/assets\/terms-page-[\w-]+\.js$/, Infinity);
    await page.getByRole('main').getByRole('link', { name: 'Terms' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'This screen could not be shown' });
    await expect(alert).toContainText('Its code could not be loaded');
    // The first try and one after each wait (lib/lazy-code CODE_RETRY_WAITS_MS).
    expect(terms.count).toBe(3);
    await page.unrouteAll();
    await alert.getByRole('button', { name: 'Reload' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Terms' })).toBeVisible();
  });
});
