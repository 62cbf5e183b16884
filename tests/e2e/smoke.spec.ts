import { expect, test } from './support.js';

test('the console loads in Chromium', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Nexus Console');
});
