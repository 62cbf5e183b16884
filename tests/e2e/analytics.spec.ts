import { test as hubTest, expect } from './support.js';
import { expectNoSeriousAxeViolations } from './axe.js';
import { createAccount, signIn } from './shell-helpers.js';

/**
 * Behavioral Intelligence (issue 16): /behavioral-analytics, /pattern-analysis and
 * /ha-pattern-predictor against the real agent.
 */

hubTest.describe('without Home Assistant', () => {
  hubTest('the screen says to connect Home Assistant first, and where', async ({ page, agent }) => {
    await signIn(page, await createAccount(agent, { name: 'Ada Admin', role: 'admin' }));
    await page.goto('/behavioral-analytics');
    await expect(page.getByRole('heading', { level: 1, name: 'Behavioral Intelligence' })).toBeVisible();
    const empty = page.getByTestId('analytics-needs-ha');
    await expect(empty).toBeVisible({ timeout: 15_000 });
    await expect(empty.getByRole('link', { name: 'Set up the Home Assistant connection' })).toHaveAttribute(
      'href',
      '/ha-connection-setup',
    );
    // Nothing to mine without history: no section tabs, no "Mine now".
    await expect(page.getByRole('tab')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Mine now' })).toHaveCount(0);
    await expectNoSeriousAxeViolations(page, 'analytics without Home Assistant');
  });

  hubTest('a member is told to ask an admin', async ({ page, agent }) => {
    await signIn(page, await createAccount(agent, { name: 'Max Member', role: 'user' }));
    await page.goto('/pattern-analysis');
    const empty = page.getByTestId('analytics-needs-ha');
    await expect(empty).toContainText('Ask an administrator', { timeout: 15_000 });
    await expect(empty.getByRole('link')).toHaveCount(0);
  });
});
