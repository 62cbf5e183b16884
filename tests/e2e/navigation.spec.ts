import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import type { RunningAgent } from '../support/agent.js';
import { expect, test } from './support.js';
import { createAccount, signIn, type Account } from './shell-helpers.js';

/** Spec §2 "Navigation bar", §4 (theme), §6 (roles), §9 (timings), walked in Chromium. */

const TOOL_GROUPS: [string, [string, string][]][] = [
  [
    'AI & Automation',
    [
      ['LLM Control Center', '/llm'],
      ['Ollama Integration', '/ollama'],
      ['Behavioral Intelligence', '/behavioral-analytics'],
      ['Wake Word Training', '/wake-words'],
      ['LLM Usage', '/llm-usage-discovery'],
      ['Automations', '/automations'],
    ],
  ],
  [
    'Device Management',
    [
      ['Nexus Management', '/nexus-management'],
      ['Satellite Management', '/satellite-management'],
      ['Multi-Nexus', '/multi-nexus'],
      ['Docker', '/nexus-docker'],
      ['Deploy', '/nexus-deploy'],
      ['Logs', '/nexus-logs'],
      ['Control', '/nexus-control'],
      ['Phones', '/phone-admin'],
    ],
  ],
  [
    'Home Assistant',
    [
      ['HA Devices', '/home-assistant'],
      ['HA Connection Setup', '/ha-connection-setup'],
      ['HA Logbook', '/ha-logbook'],
      ['HA Entities', '/ha-entities'],
      ['HA Connection Test', '/ha-connection-test'],
      ['Smart Home Devices', '/smart-home-devices'],
    ],
  ],
  [
    'Network & Security',
    [
      ['VPN connections', '/connections'],
      ['UniFi Teleport', '/unifi-teleport'],
      ['Creative Networking', '/creative-networking'],
      ['Network Info', '/network-info'],
    ],
  ],
  [
    'System Tools',
    [
      ['System Diagnostics', '/system-diagnostics'],
      ['Session Simulations', '/session-simulations'],
      ['Settings', '/settings'],
      ['Notifications', '/notifications'],
      ['Integrations', '/integrations'],
    ],
  ],
];

const header = (page: Page) => page.getByRole('banner');
const pathname = (page: Page) => new URL(page.url()).pathname;

async function openUserMenu(page: Page) {
  await header(page).getByRole('button', { name: 'User menu' }).click();
  return page.getByRole('menu');
}

/** Stands in for another feature calling notify(): rows go into the agent's own database. */
function addNotification(
  agent: RunningAgent,
  row: { userId: number | null; title: string; body?: string; link?: string },
) {
  const db = new Database(path.join(agent.dataDir, 'nexus.db'));
  try {
    db.prepare(
      'insert into notifications (user_id, level, title, body, link, created_at) values (?, ?, ?, ?, ?, ?)',
    ).run(row.userId, 'warning', row.title, row.body ?? null, row.link ?? null, Date.now());
  } finally {
    db.close();
  }
}

test.describe('signed in, desktop', () => {
  let owner: Account;
  test.beforeAll(async ({ agent }) => {
    owner = await createAccount(agent, { name: 'Grace Brewster Hopper', role: 'superadmin' });
  });
  test.beforeEach(async ({ page }) => {
    await signIn(page, owner);
  });

  test('the brand carries the Alpha badge and leads home', async ({ page }) => {
    await page.goto('/help');
    const brand = header(page).getByRole('link', { name: 'Nexus, home' });
    await expect(brand).toContainText('Alpha');
    await brand.click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('Dashboard and Gallery are highlighted by path prefix', async ({ page }) => {
    const nav = header(page).getByRole('navigation', { name: 'Main' });
    const dashboard = nav.getByRole('link', { name: 'Dashboard' });
    const gallery = nav.getByRole('link', { name: 'Gallery' });
    await page.goto('/');
    await expect(dashboard).toHaveAttribute('href', '/');
    await expect(gallery).toHaveAttribute('href', '/flowforge');
    await expect(dashboard).toHaveAttribute('aria-current', 'page');
    await expect(gallery).not.toHaveAttribute('aria-current', 'page');
    for (const path of ['/flowforge', '/flowforge/api-keys', '/studio', '/gallery']) {
      await page.goto(path);
      await expect(gallery).toHaveAttribute('aria-current', 'page');
      await expect(dashboard).not.toHaveAttribute('aria-current', 'page');
    }
    await page.goto('/dashboard');
    await expect(dashboard).toHaveAttribute('aria-current', 'page');
    await page.goto('/ollama');
    await expect(dashboard).not.toHaveAttribute('aria-current', 'page');
    await expect(gallery).not.toHaveAttribute('aria-current', 'page');
    await gallery.click();
    await expect(page).toHaveURL(/\/flowforge$/);
  });

  for (const [group, items] of TOOL_GROUPS) {
    test(`Tools & Utilities › ${group} has its items, each opening its path`, async ({ page }) => {
      // Each item opens a real screen, some of them live ones: give the walk room on a busy machine.
      test.slow();
      await page.goto('/help');
      for (const [index, [label, href]] of items.entries()) {
        // The menu is opened over a quiet page each time: some destinations are live screens.
        await page.goto('/help');
        await header(page).getByRole('button', { name: 'Tools & Utilities' }).click();
        const groups = page.getByRole('menu').first().getByRole('menuitem');
        await expect(groups).toHaveText(TOOL_GROUPS.map(([name]) => name));
        await page.getByRole('menuitem', { name: group }).click();
        const submenu = page.getByRole('menu').nth(1);
        await expect(submenu.getByRole('menuitem')).toHaveText(items.map(([name]) => name));
        const item = submenu.getByRole('menuitem', { name: label, exact: true });
        if (index % 2 === 0) {
          await item.click();
        } else {
          await item.focus();
          await page.keyboard.press('Enter');
        }
        await expect.poll(() => pathname(page)).toBe(href);
        await expect(page.getByRole('menu')).toHaveCount(0);
      }
    });
  }

  test('the Tools & Utilities menu works from the keyboard', async ({ page }) => {
    await page.goto('/help');
    await header(page).getByRole('button', { name: 'Tools & Utilities' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'AI & Automation' })).toBeFocused();
    // Let the menu finish opening (its enter animation) before moving within it.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Device Management' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Home Assistant' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('menuitem', { name: 'HA Devices' })).toBeFocused();
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'HA Connection Setup' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect.poll(() => pathname(page)).toBe('/ha-connection-setup');
  });

  test('the user menu lists its items for a Super Admin, each opening its path', async ({ page }) => {
    // It opens five real screens, the dashboard among them: room for a busy machine.
    test.slow();
    await page.goto('/help');
    await expect(header(page).getByTestId('role-badge').first()).toHaveText('Super Admin');
    const menu = await openUserMenu(page);
    await expect(menu.getByRole('menuitem')).toHaveText([
      'Dashboard',
      'Account Settings',
      'Billing',
      'User Management',
      'Add Passkey',
      'Sign Out',
    ]);
    await page.keyboard.press('Escape');
    for (const [label, href] of [
      ['Dashboard', '/dashboard'],
      ['Account Settings', '/settings'],
      ['Billing', '/billing'],
      ['User Management', '/user-management'],
      ['Add Passkey', '/enroll-passkey'],
    ]) {
      await page.goto('/help');
      const open = await openUserMenu(page);
      await open.getByRole('menuitem', { name: label }).click();
      await expect.poll(() => pathname(page)).toBe(href);
    }
  });

  test('avatar initials follow the spec: first letters of the first two words', async ({ page }) => {
    await page.goto('/help');
    await expect(header(page).getByRole('button', { name: 'User menu' })).toHaveText('GB');
  });

  test('the notifications menu shows an empty state and links to all notifications', async ({ page }) => {
    await page.goto('/help');
    await header(page).getByRole('button', { name: 'Notifications' }).click();
    await expect(page.getByRole('menu').getByText('No notifications yet')).toBeVisible();
    await page.getByRole('menuitem', { name: 'View All Notifications' }).click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  });

  test('notifications from the hub show unread, open their link and can be marked read', async ({
    page,
    agent,
  }) => {
    const me = await (await page.request.get('/api/auth/user')).json();
    addNotification(agent, {
      userId: me.id,
      title: 'Container stopped',
      body: 'nexus-whisper exited',
      link: '/nexus-docker',
    });
    addNotification(agent, { userId: null, title: 'Hub updated' });
    await page.goto('/help');
    const bell = header(page).getByRole('button', { name: 'Notifications, 2 unread' });
    await expect(bell).toBeVisible();
    await bell.click();
    const items = page.getByRole('menu').getByRole('menuitem');
    await expect(items.nth(0)).toContainText('Hub updated');
    await expect(items.nth(1)).toContainText('Container stopped');
    await expect(items.nth(1)).toContainText('nexus-whisper exited');
    await items.nth(1).click();
    await expect(page).toHaveURL(/\/nexus-docker$/);
    await expect(header(page).getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();

    await page.goto('/notifications');
    await expect(page.getByRole('heading', { level: 2, name: 'Hub updated' })).toBeVisible();
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await expect(header(page).getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
    await expect(page.getByText('Unread', { exact: true })).toHaveCount(0);
  });

  test('Sign Out reads "Signing out..." while busy, then signs out', async ({ page, agent }) => {
    // Its own account: signing out ends the session other tests of this file use.
    const leaving = await createAccount(agent, { name: 'Leaving User' });
    await page.context().clearCookies();
    await signIn(page, leaving);
    await page.goto('/help');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/logout', async (route) => {
      await held;
      await route.continue();
    });
    const menu = await openUserMenu(page);
    await menu.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(menu.getByRole('menuitem', { name: 'Signing out...' })).toBeVisible();
    release();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
    expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  });

  test.describe('before the menus have loaded', () => {
    // The service worker keeps the menus' code from an earlier page; this test holds it back.
    test.use({ serviceWorkers: 'block' });

    test('a menu pressed before its code has arrived opens once it has (issue 26)', async ({ page }) => {
      // The user menu's code loads after the first paint; hold it back to press the button first.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/user-dropdown-[\w-]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/help');
      const button = header(page).getByRole('button', { name: 'User menu' });
      await button.click();
      await expect(page.getByRole('menu')).toHaveCount(0);
      release();
      const menu = page.getByRole('menu');
      await expect(menu.getByRole('menuitem', { name: 'Sign Out' })).toBeVisible();
      // It is the real menu: Escape closes it and gives the focus back to the button.
      await page.keyboard.press('Escape');
      await expect(menu).toHaveCount(0);
      await expect(header(page).getByRole('button', { name: 'User menu' })).toBeFocused();
    });

    test('a menu button that has the focus when its code arrives keeps it, and Enter opens the menu', async ({
      page,
    }) => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/tools-dropdown-[\w-]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/help');
      const button = header(page).getByRole('button', { name: 'Tools & Utilities' });
      await button.focus();
      const first = await button.elementHandle();
      if (!first) throw new Error('no Tools button');
      release();
      // The menu's button takes the first one's place, with the focus.
      await expect.poll(() => first.evaluate((el) => el.isConnected)).toBe(false);
      await expect(button).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('menuitem', { name: 'AI & Automation' })).toBeFocused();
    });

    test('a menu whose code cannot be loaded leaves its button and the page in place', async ({ page }) => {
      await page.route(/\/assets\/user-dropdown-[\w-]+\.js$/, (route) => route.abort());
      await page.goto('/help');
      const button = header(page).getByRole('button', { name: 'User menu' });
      await button.click();
      await expect(page.getByRole('menu')).toHaveCount(0);
      await expect(button).toBeVisible();
      await expect(header(page).getByRole('button', { name: 'Tools & Utilities' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // Once the link is back, the next press asks for the code again and opens the menu.
      await page.unroute(/\/assets\/user-dropdown-[\w-]+\.js$/);
      await button.click();
      await expect(page.getByRole('menu').getByRole('menuitem', { name: 'Sign Out' })).toBeVisible();
    });
  });

  test('tooltips open after 700 ms (spec §9)', async ({ page }) => {
    await page.clock.install();
    await page.goto('/help');
    const toggle = header(page).getByRole('button', { name: 'Toggle theme' });
    await expect(toggle).toBeVisible();
    // The tooltip's code loads after the first page (ui/hint): it has arrived when Radix's trigger
    // marks the button.
    await expect(toggle).toHaveAttribute('data-state', 'closed');
    // From here on, time moves only when the test says so.
    await page.clock.pauseAt(Date.now() + 60_000);
    await toggle.hover();
    await page.clock.runFor(650);
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    await page.clock.runFor(100);
    await expect(page.getByRole('tooltip')).toHaveText(/Switch to (dark|light) theme/);
  });
});

test.describe('roles', () => {
  test('an Admin sees the Admin badge and User Management', async ({ page, agent }) => {
    await signIn(page, await createAccount(agent, { name: 'Alan Turing', role: 'admin' }));
    await page.goto('/help');
    await expect(header(page).getByTestId('role-badge').first()).toHaveText('Admin');
    const menu = await openUserMenu(page);
    await expect(menu.getByRole('menuitem', { name: 'User Management' })).toBeVisible();
  });

  test('a user sees no badge and no User Management', async ({ page, agent }) => {
    await signIn(page, await createAccount(agent, { name: 'Plato', role: 'user' }));
    await page.goto('/help');
    await expect(header(page).getByTestId('role-badge')).toHaveCount(0);
    await expect(header(page).getByRole('button', { name: 'User menu' })).toHaveText('P');
    const menu = await openUserMenu(page);
    await expect(menu.getByRole('menuitem')).toHaveText([
      'Dashboard',
      'Account Settings',
      'Billing',
      'Add Passkey',
      'Sign Out',
    ]);
  });
});

test.describe('signed out', () => {
  test('the bar offers Sign In and Get Started, both to /auth, and no console menus', async ({ page }) => {
    await page.goto('/help');
    const bar = header(page);
    await expect(bar.getByRole('button', { name: 'Tools & Utilities' })).toHaveCount(0);
    await expect(bar.getByRole('button', { name: 'User menu' })).toHaveCount(0);
    await expect(bar.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
    await expect(bar.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth');
    await bar.getByRole('link', { name: 'Get Started', exact: true }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  });
});

test.describe('small screens', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('signed out, the collapsible menu holds Sign In and Get Started - Free', async ({ page }) => {
    await page.goto('/help');
    await expect(page.getByRole('link', { name: 'Get Started', exact: true })).toHaveCount(0);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await expect(menu.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth');
    await menu.getByRole('link', { name: 'Get Started - Free' }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('signed in, the collapsible menu replaces the bar and closes on navigation', async ({
    page,
    agent,
  }) => {
    await signIn(page, await createAccount(agent, { name: 'Mobile Person', role: 'admin' }));
    await page.goto('/help');
    await expect(page.getByRole('button', { name: 'Tools & Utilities' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Menu' });
    for (const [, items] of TOOL_GROUPS) {
      for (const [label, href] of items) {
        await expect(menu.getByRole('link', { name: label, exact: true }).first()).toHaveAttribute(
          'href',
          href,
        );
      }
    }
    await expect(menu.getByRole('link', { name: 'User Management' })).toBeVisible();
    await expect(menu.getByText('Admin', { exact: true })).toBeVisible();
    await menu.getByRole('link', { name: 'Ollama Integration' }).click();
    await expect(page).toHaveURL(/\/ollama$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
  });
});

test.describe('theme (spec §4)', () => {
  test('the toggle switches the class on the root element and is remembered under "theme"', async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/help');
    const html = page.locator('html');
    await expect(html).toHaveClass(/\blight\b/);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
    await header(page).getByRole('button', { name: 'Toggle theme' }).click();
    await expect(html).toHaveClass(/\bdark\b/);
    await expect(html).not.toHaveClass(/\blight\b/);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await page.reload();
    await expect(html).toHaveClass(/\bdark\b/);
    await header(page).getByRole('button', { name: 'Toggle theme' }).click();
    await expect(html).toHaveClass(/\blight\b/);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  });

  test('without a stored choice it follows the system preference', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/privacy');
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await page.evaluate(() => localStorage.setItem('theme', 'light'));
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/\blight\b/);
  });

  test.describe('before the tooltip has loaded', () => {
    // The service worker would serve the tooltip's code from an earlier page; this test holds it back.
    test.use({ serviceWorkers: 'block' });

    test('a press that is down when the tooltip’s code arrives still toggles, once', async ({ page }) => {
      await page.emulateMedia({ colorScheme: 'light' });
      // The tooltip's code is held back until the press is down, so it arrives between the press and
      // the release, as it can when the browser turns idle. Were the button replaced by the tooltip's
      // then, the press would go down on one element and up on another, and the browser would not
      // click.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let asked!: () => void;
      const requested = new Promise<void>((resolve) => (asked = resolve));
      await page.route(/hint-tooltip-[^/]*\.js$/, async (route) => {
        asked();
        await held;
        await route.continue();
      });
      await page.goto('/help');
      const html = page.locator('html');
      await expect(html).toHaveClass(/\blight\b/);
      const toggle = header(page).getByRole('button', { name: 'Toggle theme' });
      const first = await toggle.elementHandle();
      await requested;
      const box = await toggle.boundingBox();
      if (!box || !first) throw new Error('no toggle');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      release();
      // The tooltip's code arrives while the press is down (and the page has rendered since): the
      // button it would replace stays until the press is released.
      await expect
        .poll(() =>
          page.evaluate(() =>
            performance.getEntriesByType('resource').some((entry) => entry.name.includes('hint-tooltip')),
          ),
        )
        .toBe(true);
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      );
      expect(await first.evaluate((el) => el.isConnected)).toBe(true);
      await page.mouse.up();
      await expect(html).toHaveClass(/\bdark\b/);
      // Then the tooltip's button takes its place, and the tooltip works.
      await expect.poll(() => first.evaluate((el) => el.isConnected)).toBe(false);
      await page.mouse.move(0, 0);
      await toggle.hover();
      await expect(page.getByRole('tooltip')).toHaveText('Switch to light theme');
      // Once, not twice: the replaced button's press is not also clicked by the browser.
      await expect(html).not.toHaveClass(/\blight\b/);
      expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    });
  });
});
