import type { Page } from '@playwright/test';
import { createAccount, signIn, type Account } from './shell-helpers.js';
import {
  matchesPattern,
  openablePath,
  routeTable,
  screenComponents,
  type RouteEntry,
} from './route-table.js';
import { expect, test } from './support.js';

/**
 * Issue 21: every screen of the route table is reachable from the navigation in at most two clicks,
 * on a desktop and in the 390 px collapsible menu. A click is following a link: opening a menu (the
 * Tools & Utilities menu and its groups, the user menu, the phone's menu button) reveals links and is
 * not counted. The walk starts at /dashboard: click 1 is any link the dashboard shows, in its
 * navigation or on the screen; click 2 is any link on the screen that click opened.
 *
 * Screens are the route table's entries, read from web/src/app/routes.tsx: the aliases of one screen
 * (the paths of one entry, or entries rendering the same component) count once, reached by any of
 * their paths. Not destinations: /auth (signed in, it only sends on to /dashboard) and /pair (opened
 * by scanning a pairing code made on Phone Admin, with that code in its address).
 */

const NOT_A_DESTINATION = new Set(['auth', 'pair']);

/** The screens to reach, each with every path that opens it. */
const screensToReach = (): RouteEntry[] => {
  const component = screenComponents();
  const byComponent = new Map<string, RouteEntry>();
  for (const entry of routeTable('signedInRoutes')) {
    if (NOT_A_DESTINATION.has(entry.screen)) continue;
    const key = component.get(entry.screen) ?? entry.screen;
    const known = byComponent.get(key);
    if (known) known.paths.push(...entry.paths);
    else byComponent.set(key, { ...entry, paths: [...entry.paths] });
  }
  return [...byComponent.values()];
};

/** The console's own paths among the links currently in the page (menus included, when open). */
async function linkPaths(page: Page): Promise<string[]> {
  const hrefs = await page
    .locator('a[href]')
    .evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
  const origin = new URL(page.url()).origin;
  return hrefs.filter((href) => href.startsWith(origin)).map((href) => new URL(href).pathname);
}

/** Waits for a screen's lazily loaded code: its title names it once it has run. */
async function openScreen(page: Page, path: string) {
  await page.goto(path);
  if (path !== '/') await expect(page).not.toHaveTitle('Nexus Console', { timeout: 15_000 });
  // Bare screens (/pair) draw their own frame, without the console's <main>.
  await expect(page.getByRole('heading').first()).toBeVisible({ timeout: 15_000 });
}

/** The links of the desktop bar's menus: the Tools & Utilities groups and the user menu. */
async function desktopMenuLinks(page: Page): Promise<string[]> {
  const header = page.getByRole('banner');
  const found: string[] = [];
  await header.getByRole('button', { name: 'Tools & Utilities' }).click();
  // The menu's code may still be on its way (it loads after the first paint): wait to see it.
  await expect(page.getByRole('menu').first()).toBeVisible();
  const groups = await page.getByRole('menu').first().getByRole('menuitem').allTextContents();
  for (const group of groups) {
    await page.getByRole('menu').first().getByRole('menuitem', { name: group, exact: true }).click();
    await expect(page.getByRole('menu')).toHaveCount(2);
    found.push(...(await linkPaths(page)));
  }
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await header.getByRole('button', { name: 'User menu' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  found.push(...(await linkPaths(page)));
  await page.keyboard.press('Escape');
  return found;
}

/** The links of the phone's collapsible menu. */
async function phoneMenuLinks(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Menu' });
  await expect(menu).toBeVisible();
  const found = await linkPaths(page);
  await page.getByRole('button', { name: 'Close menu' }).click();
  return found;
}

async function walk(page: Page, menuLinks: (page: Page) => Promise<string[]>) {
  await openScreen(page, '/dashboard');
  const firstClick = new Set([...(await linkPaths(page)), ...(await menuLinks(page))]);
  const reached = new Map<string, number>([...firstClick].map((path) => [path, 1]));
  for (const path of firstClick) {
    // A link the route table does not know would be a not-found screen: nothing to walk there.
    if (!routeTable('signedInRoutes').some((e) => e.paths.some((p) => matchesPattern(p, path)))) continue;
    await openScreen(page, path);
    // Links inside loaded data (a satellite's controls in the list) come after the skeletons.
    await expect(page.locator('[data-slot="skeleton"]'))
      .toHaveCount(0, { timeout: 10_000 })
      .catch(() => undefined);
    for (const next of await linkPaths(page)) if (!reached.has(next)) reached.set(next, 2);
  }
  const unreached = screensToReach()
    .filter((entry) => ![...reached.keys()].some((path) => entry.paths.some((p) => matchesPattern(p, path))))
    .map((entry) => openablePath(entry.paths[0]!));
  return { unreached, total: screensToReach().length };
}

test.describe('every screen is at most two clicks from /dashboard', () => {
  let admin: Account;
  test.beforeAll(async ({ agent }) => {
    admin = await createAccount(agent, { name: 'Ada Admin', role: 'admin' });
  });
  test.beforeEach(async ({ page }) => {
    await signIn(page, admin);
    // A satellite, so that its controls (/satellite-controls/:id) have something to open.
    const satellites = await page.request.get('/api/devices/satellite');
    if (((await satellites.json()) as unknown[]).length === 0) {
      const created = await page.request.post('/api/devices/satellite', {
        data: { name: 'Hall', activeWakeWord: 'hey nexus' },
      });
      expect(created.status(), await created.text()).toBe(201);
    }
  });

  test('on a desktop, through the bar and its menus', async ({ page }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const { unreached, total } = await walk(page, desktopMenuLinks);
    expect(total).toBeGreaterThan(45);
    expect(unreached, `${unreached.length} of ${total} screens are not reachable`).toEqual([]);
  });

  test('on a 390 px phone, through the collapsible menu', async ({ page }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: 390, height: 844 });
    const { unreached, total } = await walk(page, phoneMenuLinks);
    expect(unreached, `${unreached.length} of ${total} screens are not reachable`).toEqual([]);
  });
});

test.describe('no screen scrolls sideways at 390 px', () => {
  let admin: Account;
  test.beforeAll(async ({ agent }) => {
    admin = await createAccount(agent, { name: 'Ada Admin', role: 'admin' });
  });
  test.beforeEach(async ({ page }) => {
    await signIn(page, admin);
  });

  test('every route of the table, signed in as an admin', async ({ page }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: 390, height: 844 });
    const overflowing: Record<string, number> = {};
    const paths = routeTable('signedInRoutes').flatMap((entry) =>
      entry.screen === 'auth' ? [] : entry.paths.map(openablePath),
    );
    expect(paths.length).toBeGreaterThan(50);
    for (const path of paths) {
      await openScreen(page, path);
      // What loads after the heading (tables, lists) is what overflows: measure once the skeletons are
      // gone. A screen whose data never comes (no Docker engine here) is measured as it stands.
      await expect(page.locator('[data-slot="skeleton"]'))
        .toHaveCount(0, { timeout: 10_000 })
        .catch(() => undefined);
      const excess = await page.evaluate(() => {
        const root = document.scrollingElement!;
        return root.scrollWidth - root.clientWidth;
      });
      if (excess > 0) overflowing[path] = excess;
    }
    expect(overflowing).toEqual({});
  });
});

test.describe('honest states and the way out of them', () => {
  let admin: Account;
  test.beforeAll(async ({ agent }) => {
    admin = await createAccount(agent, { name: 'Ada Admin', role: 'admin' });
  });
  test.beforeEach(async ({ page }) => {
    await signIn(page, admin);
  });

  test('the hub name chosen in the wizard is in the header and the title', async ({ page }) => {
    const saved = await page.request.put('/api/setup/hub', {
      data: { hubName: 'Maple Street Hub', timeZone: 'UTC' },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/dashboard');
    await expect(page.getByRole('banner').getByTestId('hub-name').first()).toHaveText('Maple Street Hub');
    await expect(page).toHaveTitle('Dashboard · Maple Street Hub · Nexus Console');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('banner').getByTestId('hub-name').last()).toBeVisible();
  });

  test('the hub name is not told to strangers', async ({ playwright, agent }) => {
    const stranger = await playwright.request.newContext({ baseURL: agent.url });
    expect((await stranger.get('/api/setup/identity')).status()).toBe(401);
    await stranger.dispose();
  });

  test('the satellite card is not "Active" above "0 of 1 online"', async ({ page }) => {
    const created = await page.request.post('/api/devices/satellite', {
      data: { name: 'Porch', activeWakeWord: 'hey nexus' },
    });
    expect(created.status(), await created.text()).toBe(201);
    await page.goto('/dashboard');
    const card = page.getByRole('region', { name: 'Satellite1', exact: true });
    await expect(card.locator('dt:text-is("Devices") + dd')).toHaveText(/^0 of \d+ online$/);
    const badge = card.locator('[data-slot="card-header"] [data-slot="status-pill"]').first();
    await expect(badge).toHaveText('Offline');
  });

  test('LLM screens that find Ollama offline offer to deploy it, and the link opens its deploy dialog', async ({
    page,
  }) => {
    for (const path of ['/llm', '/ollama']) {
      await page.goto(path);
      const alert = page.getByTestId('ollama-offline');
      await expect(alert).toContainText("Ollama isn't running on this hub");
      await expect(alert.getByRole('link', { name: 'Deploy Ollama' })).toHaveAttribute(
        'href',
        '/nexus-deploy?app=ollama',
      );
    }
    await page.getByTestId('ollama-offline').getByRole('link', { name: 'Deploy Ollama' }).click();
    await expect(page).toHaveURL(/\/nexus-deploy\?app=ollama$/);
    await expect(page.getByRole('dialog')).toContainText('Ollama');
  });

  test('the Jetson check says "Not a Jetson" in words', async ({ page }) => {
    await page.goto('/jetson-check');
    await expect(page.getByRole('main')).not.toContainText('isJetson');
  });

  test('FlowForge templates say which services they need, with the link', async ({ page }) => {
    await page.goto('/flowforge');
    const templates = page.getByRole('region', { name: 'Templates' });
    await expect(templates.getByRole('link', { name: /Ollama/ }).first()).toHaveAttribute(
      'href',
      '/nexus-deploy?app=ollama',
    );
    await expect(templates.getByRole('link', { name: /Home Assistant/ }).first()).toHaveAttribute(
      'href',
      '/ha-connection-setup',
    );
  });
});
