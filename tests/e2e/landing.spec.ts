import type { Page } from '@playwright/test';
import { expect, test } from './support.js';

/** Spec §1, §2: the visitor's landing page. */

const pathname = (page: Page) => new URL(page.url()).pathname;

test('the hero says what the product is, with Sign Up, Try Demo and Help', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Nexus Console');
  const main = page.locator('main');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText(
    'Your voice assistant and smart home, run from your own hub',
  );
  await expect(main).toContainText('runs privately on the hub in your home');
  await expect(main.getByRole('link', { name: 'Sign Up' }).first()).toHaveAttribute('href', '/auth');
  await expect(main.getByRole('link', { name: 'Try Demo' })).toHaveAttribute('href', '/dashboard');
  await expect(main.getByRole('link', { name: 'Help' }).first()).toHaveAttribute('href', '/help');
});

test('Try Demo goes to /dashboard, which asks a visitor to sign in', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Try Demo' }).click();
  await expect.poll(() => pathname(page)).toBe('/dashboard');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
});

test('Sign Up goes to the auth screen and Help to /help', async ({ page }) => {
  await page.goto('/');
  await page.locator('main').getByRole('link', { name: 'Sign Up' }).first().click();
  await expect.poll(() => pathname(page)).toBe('/auth');
  await page.goto('/');
  await page.locator('main').getByRole('link', { name: 'Help' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Help' })).toBeVisible();
});

test('the Features anchor is reachable from the bar, on the page and from another page', async ({ page }) => {
  const features = page.locator('section#features');
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Features' }).click();
  await expect(page).toHaveURL(/\/#features$/);
  await expect(features.getByRole('heading', { level: 2, name: 'Features' })).toBeInViewport();

  await page.goto('/pricing');
  await page.getByRole('banner').getByRole('link', { name: 'Features' }).click();
  await expect(page).toHaveURL(/\/#features$/);
  await expect(features.getByRole('heading', { level: 2, name: 'Features' })).toBeInViewport();

  await page.goto('/#features');
  await expect(features.getByRole('heading', { level: 2, name: 'Features' })).toBeInViewport();
  // The features are the product's own, from spec §1.
  for (const title of [
    'AI flows and pipelines',
    'Language models, local or cloud',
    'Wake-word training',
    'Hub and satellites',
    'Home Assistant',
    'Behavioural analytics',
    'VPN and network tools',
    'System diagnostics',
    'Plans and billing',
  ]) {
    await expect(features.getByRole('heading', { level: 3, name: title })).toBeVisible();
  }
});

test('the upcoming apps: five Coming Soon, real estate In Development', async ({ page }) => {
  await page.goto('/');
  const apps = page.getByTestId('upcoming-app');
  await expect(apps).toHaveCount(6);
  const expected: [string, string][] = [
    ['Meal Planning', 'Coming Soon'],
    ['Legal Workflow', 'Coming Soon'],
    ['Travel', 'Coming Soon'],
    ['Document Processing', 'Coming Soon'],
    ['Neurological Assessment', 'Coming Soon'],
    ['Real Estate', 'In Development'],
  ];
  for (const [index, [name, status]] of expected.entries()) {
    await expect(apps.nth(index).getByRole('heading', { level: 3 })).toHaveText(name);
    await expect(apps.nth(index)).toContainText(status);
  }
});

test('the demo video dialog reads Demo Video Coming Soon and closes with Escape', async ({ page }) => {
  await page.goto('/');
  const trigger = page.getByRole('button', { name: 'Watch Demo' });
  await trigger.click();
  const dialog = page.getByRole('dialog', { name: 'Demo Video Coming Soon' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(trigger).toBeFocused();
  await trigger.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('the footer links to pricing, api, nexus-setup, privacy and terms', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo').getByRole('navigation', { name: 'Footer' });
  const links = footer.getByRole('link');
  await expect(links).toHaveText(['Pricing', 'API', 'Nexus Setup', 'Privacy', 'Terms']);
  const hrefs = await links.evaluateAll((all) => all.map((a) => a.getAttribute('href')));
  expect(hrefs).toEqual(['/pricing', '/docs#api', '/nexus-setup', '/privacy', '/terms']);

  await footer.getByRole('link', { name: 'API' }).click();
  await expect(page).toHaveURL(/\/docs#api$/);
  await expect(page.getByRole('heading', { level: 2, name: 'API' })).toBeInViewport();
  await expect(page.getByTestId('api-route').first()).toBeVisible();
});

test('the page states no invented figures: the only number is the spec’s 50-sample pitch', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByTestId('upcoming-app')).toHaveCount(6);
  // The dashboard preview's numbers are sample values, and the preview says so (issue 21).
  const text = await page.locator('main').evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    copy.querySelector('[data-testid="dashboard-preview"]')?.remove();
    return copy.textContent ?? '';
  });
  expect(text.match(/\d[\d,.]*%?/g)).toEqual(['50']);
  expect(text).not.toMatch(/customers|trusted by|testimonial/i);
});

test('the landing page shows the console: the dashboard’s cards, labelled as a preview with sample values', async ({
  page,
}) => {
  await page.goto('/');
  const preview = page.getByTestId('dashboard-preview');
  await expect(preview.getByRole('region', { name: 'Nexus', exact: true })).toBeVisible();
  await expect(preview.getByRole('region', { name: 'LLMs', exact: true })).toContainText('llama3.2:3b');
  await expect(preview.getByRole('region', { name: 'Home Assistant', exact: true })).toBeVisible();
  await expect(page.getByText('Preview with sample values')).toBeVisible();
  // A picture, not a second console: nothing in it takes focus.
  await expect(preview).toHaveAttribute('inert', '');
});
