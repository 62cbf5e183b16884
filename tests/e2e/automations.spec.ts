import { AxeBuilder } from '@axe-core/playwright';
import { test, expect } from './ha-screens-fixture.js';

test('an admin creates an automation in the YAML editor, toggles it, runs it and deletes it', async ({
  page,
  sim,
  admin: _admin,
}) => {
  await page.goto('/automations');
  await expect(page.getByText('No automations yet')).toBeVisible({ timeout: 15_000 });

  await page.getByRole('button', { name: 'New automation' }).click();
  const dialog = page.getByRole('dialog', { name: 'New automation' });
  const editor = dialog.getByLabel('Automation YAML');
  // A mistake first: the server names the line, the gutter marks it, nothing reaches HA.
  await editor.fill(
    'alias: Hall light at sunset\ntriggers:\n  - trigger: sun\nactions:\n  - action: light.turn_on\ncolour: red\n',
  );
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Line 6: "colour" is not an automation option');
  await expect(dialog.locator('[data-error-line="true"]')).toHaveText('6');
  expect(sim.automationConfigs.size).toBe(0);

  await editor.fill(
    'alias: Hall light at sunset\ntriggers:\n  - trigger: sun\n    event: sunset\nactions:\n  - action: light.turn_on\n    target:\n      entity_id: light.kitchen_ceiling\n',
  );
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  const row = page.locator('[data-automation="automation.hall_light_at_sunset"]');
  await expect(row).toContainText('Hall light at sunset');
  await expect(row).toContainText('Made by Nexus');
  await expect(row).toContainText('Last triggered: never');
  await expect(row.getByText('Enabled')).toBeVisible();

  // Turned off in Home Assistant itself: the page follows live, without a reload.
  sim.setState('automation.hall_light_at_sunset', 'off');
  await expect(row.getByText('Disabled')).toBeVisible();
  sim.setState('automation.hall_light_at_sunset', 'on');
  await expect(row.getByText('Enabled')).toBeVisible();

  const toggle = row.getByRole('switch', { name: 'Hall light at sunset enabled' });
  await toggle.click();
  await expect(row.getByText('Disabled')).toBeVisible();
  expect(sim.getState('automation.hall_light_at_sunset')?.state).toBe('off');
  await toggle.click();
  await expect(row.getByText('Enabled')).toBeVisible();

  await row.getByRole('button', { name: 'Run now Hall light at sunset' }).click();
  await expect(row).toContainText('Last triggered: just now');
  expect(sim.getState('automation.hall_light_at_sunset')?.attributes.last_triggered).toBeTruthy();

  await row.getByRole('button', { name: 'Delete Hall light at sunset' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete Hall light at sunset?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No automations yet')).toBeVisible();
  expect(sim.automationConfigs.size).toBe(0);
});

test('/automations has no accessibility violations', async ({ page, admin: _admin }) => {
  await page.goto('/automations');
  await expect(page.getByRole('heading', { level: 1, name: 'Automations' })).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations, results.violations.map((v) => v.id).join(', ')).toEqual([]);
});
