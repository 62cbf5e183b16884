import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** No serious or critical axe violations on the page as it stands; `where` names the state in a failure. */
export async function expectNoSeriousAxeViolations(page: Page, where = page.url()): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `axe at ${where}`,
  ).toEqual([]);
}
