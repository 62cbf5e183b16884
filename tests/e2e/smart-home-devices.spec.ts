import { AxeBuilder } from '@axe-core/playwright';
import { test, expect } from './ha-screens-fixture.js';

test('devices are grouped by area, collapse, filter, and a lock asks before it unlocks', async ({
  page,
  sim,
  admin: _admin,
}) => {
  await page.goto('/smart-home-devices');
  const kitchen = page.getByRole('region', { name: 'Kitchen' });
  await expect(kitchen.locator('[data-device="dev_kitchen_ceiling"]')).toBeVisible({ timeout: 15_000 });

  // Collapsible by keyboard.
  const header = page.getByRole('button', { name: /^Kitchen/ });
  await header.focus();
  await page.keyboard.press('Enter');
  await expect(header).toHaveAttribute('aria-expanded', 'false');
  await expect(kitchen.locator('[data-device="dev_kitchen_ceiling"]')).toBeHidden();
  await page.keyboard.press('Enter');
  await expect(kitchen.locator('[data-device="dev_kitchen_ceiling"]')).toBeVisible();

  // The area filter.
  await page.getByRole('combobox', { name: 'Area' }).click();
  await page.getByRole('option', { name: 'No area' }).click();
  await expect(page.getByRole('region', { name: 'Kitchen' })).toHaveCount(0);
  const lock = page.locator('[data-device="dev_front_lock"]');
  await expect(lock).toBeVisible();

  await lock.getByRole('button', { name: 'Unlock' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Unlock Front Door?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(sim.getState('lock.front_door')?.state).toBe('locked');

  await lock.getByRole('button', { name: 'Unlock' }).click();
  await page
    .getByRole('alertdialog', { name: 'Unlock Front Door?' })
    .getByRole('button', { name: 'Unlock' })
    .click();
  await expect(lock.getByRole('button', { name: 'Lock' })).toBeVisible();
  // The button turns at once (an optimistic update); the service call reaches HA just after.
  await expect.poll(() => sim.getState('lock.front_door')?.state).toBe('unlocked');
});

test('/smart-home-devices has no accessibility violations', async ({ page, admin: _admin }) => {
  await page.goto('/smart-home-devices');
  await expect(page.getByRole('heading', { level: 1, name: 'Smart Home Devices' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations, results.violations.map((v) => v.id).join(', ')).toEqual([]);
});
