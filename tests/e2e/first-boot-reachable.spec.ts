import { expect, test } from '@playwright/test';
import { startAgent, type RunningAgent } from '../support/agent.js';

// A hub nobody has set up: the owner's console sends visitors to the wizard, but the sign-in
// screen (where the first account becomes the owner) and the public pages stay reachable.
let hub: RunningAgent;
test.beforeAll(async () => {
  hub = await startAgent();
});
test.afterAll(async () => {
  await hub.stop();
});

test('a fresh hub sends the console to /install but keeps /auth and the public pages', async ({ page }) => {
  await page.goto(`${hub.url}/`);
  await expect(page).toHaveURL(`${hub.url}/install`);

  await page.goto(`${hub.url}/auth`);
  await expect(page).toHaveURL(`${hub.url}/auth`);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Register' })).toBeVisible();

  for (const path of ['/help', '/pricing', '/privacy', '/terms', '/docs', '/forgot-password']) {
    await page.goto(`${hub.url}${path}`);
    await expect(page, path).toHaveURL(`${hub.url}${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
});
