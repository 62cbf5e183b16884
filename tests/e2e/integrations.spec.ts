import { AxeBuilder } from '@axe-core/playwright';
import { test, expect } from './ha-screens-fixture.js';

test('the integrations page shows Home Assistant connected and a test result', async ({
  page,
  admin: _admin,
}) => {
  await page.goto('/integrations');
  const ha = page.getByRole('region', { name: 'Home Assistant' });
  // Connected; on a loaded machine a ping may take over a second, which HA's card rightly shows as
  // degraded (with the reason), so either state is a connection.
  await expect(ha.locator('[data-state="connected"], [data-state="degraded"]')).toBeVisible({
    timeout: 15_000,
  });
  await expect(ha).toContainText('Connected to Home Assistant');
  await expect(ha.getByRole('link', { name: 'Settings for Home Assistant' })).toHaveAttribute(
    'href',
    '/ha-connection-setup',
  );
  await ha.getByRole('button', { name: 'Test now Home Assistant' }).click();
  await expect(ha.getByRole('status')).toContainText('Home Assistant: Connected to Home Assistant', {
    timeout: 15_000,
  });

  // Every integration has its card, with a state.
  for (const name of ['Ollama', 'Cloud LLM providers', 'E-mail (SMTP)', 'ntfy', 'Tailscale', 'Licence']) {
    await expect(page.getByRole('region', { name })).toBeVisible();
  }
  await expect(page.getByRole('region', { name: 'E-mail (SMTP)' })).toContainText('Not set up');
});

test('/integrations has no accessibility violations', async ({ page, admin: _admin }) => {
  await page.goto('/integrations');
  await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations, results.violations.map((v) => v.id).join(', ')).toEqual([]);
});
