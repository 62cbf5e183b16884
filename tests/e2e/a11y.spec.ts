import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support.js';
import { createAccount, signIn } from './shell-helpers.js';

/** Accessibility: axe-core finds nothing serious or critical; keyboard users see where they are. */

async function expectNoSeriousViolations(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${where}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual(
    [],
  );
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} theme`, () => {
    test.use({ colorScheme: scheme });

    test('the landing page has no serious or critical axe violations', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoSeriousViolations(page, 'landing');
      await page.getByRole('button', { name: 'Watch Demo' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoSeriousViolations(page, 'landing demo dialog');
    });

    test('/auth has no serious or critical axe violations', async ({ page }) => {
      await page.goto('/auth');
      await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
      await expectNoSeriousViolations(page, 'auth');
    });

    test('the signed-in home page and its menus have no serious or critical axe violations', async ({
      page,
      agent,
    }) => {
      // The dashboard is a live screen with many cards; axe takes a while on a busy machine.
      test.slow();
      await signIn(page, await createAccount(agent, { name: 'Axe Checker', role: 'admin' }));
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
      await expect(page.getByRole('heading').first()).toBeVisible();
      await expectNoSeriousViolations(page, 'dashboard');
      await page.getByRole('button', { name: 'Tools & Utilities' }).click();
      await page.getByRole('menuitem', { name: 'System Tools' }).click();
      await expect(page.getByRole('menu').nth(1)).toBeVisible();
      await expectNoSeriousViolations(page, 'tools menu');
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'User menu' }).click();
      await expectNoSeriousViolations(page, 'user menu');
    });
  });
}

test('public pages have no serious or critical axe violations', async ({ page }) => {
  test.slow();
  for (const path of [
    '/help',
    '/docs',
    '/pricing',
    '/privacy',
    '/terms',
    '/forgot-password',
    '/reset-password',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoSeriousViolations(page, path);
  }
});

test('every button in the top bar has a name', async ({ page, agent }) => {
  await signIn(page, await createAccount(agent, { name: 'Named Buttons' }));
  await page.goto('/help');
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
  const buttons = page.getByRole('banner').getByRole('button');
  // The bar's menus swap their placeholder buttons for the real ones once the browser is idle:
  // read the names until one reading sees the settled bar, never a half-swapped one.
  const visibleNames = () =>
    buttons.evaluateAll((all) =>
      all
        .filter((b) => (b as HTMLElement).offsetParent !== null)
        .map((b) => b.getAttribute('aria-label') ?? b.textContent?.trim() ?? ''),
    );
  await expect
    .poll(
      async () => {
        const names = await visibleNames();
        return names.length > 3 && names.every((name) => name.length > 0);
      },
      { message: 'the top bar shows more than three buttons, each with a name' },
    )
    .toBe(true);
});

test('keyboard users reach the bar from a skip link and see a focus ring on each stop', async ({
  page,
  agent,
}) => {
  await signIn(page, await createAccount(agent, { name: 'Keyboard User' }));
  await page.goto('/help');
  await expect(page.getByRole('heading', { level: 1, name: 'Help' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();

  const stops: string[] = [];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      const ring =
        style.boxShadow !== 'none' || (style.outlineStyle !== 'none' && style.outlineWidth !== '0px');
      return { name: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName, ring };
    });
    expect(focused.ring, `focus ring on ${focused.name}`).toBe(true);
    stops.push(focused.name);
  }
  expect(stops).toEqual(
    expect.arrayContaining([
      'Nexus, home',
      'Dashboard',
      'Gallery',
      'Tools & Utilities',
      'Toggle theme',
      'User menu',
    ]),
  );

  // The skip link moves focus past the bar.
  await page.goto('/help');
  await expect(page.getByRole('heading', { level: 1, name: 'Help' })).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();
});
