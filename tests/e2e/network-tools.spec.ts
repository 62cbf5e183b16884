import { AxeBuilder } from '@axe-core/playwright';
import { createAccount, signIn } from './shell-helpers.js';
import { expect, test } from './support.js';

/**
 * /creative-networking (issue 17) against the real agent: an admin pings 127.0.0.1 and checks the
 * agent's own port, watching the output stream into the log and the summary appear; a member is
 * told the tools are for administrators. Every packet stays on loopback.
 */

test('an admin pings 127.0.0.1 and port-checks the hub’s own port, output streamed', async ({
  page,
  agent,
}) => {
  await signIn(page, await createAccount(agent, { name: 'Nadia Netadmin', role: 'admin' }));
  await page.goto('/creative-networking');
  await expect(page.getByRole('heading', { level: 1, name: 'Creative Networking' })).toBeVisible();

  // Ping: the default tool.
  await expect(page.getByRole('tab', { name: 'Ping' })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('Target').fill('127.0.0.1');
  await page.getByLabel('Count').fill('2');
  await page.getByRole('button', { name: 'Run' }).click();
  const log = page.getByRole('log', { name: 'Tool output' });
  await expect(log).toContainText('bytes from 127.0.0.1');
  await expect(page.getByRole('status')).toContainText('Summary: 2/2 replies, 0% loss');
  await expect(page.getByRole('button', { name: 'Run' })).toBeEnabled();

  // A bad target is refused by the hub and said so.
  await page.getByLabel('Target').fill('-f');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('alert')).toContainText('may not start with "-"');

  // Port check of the agent's own port, chosen with the keyboard: the tab list is arrow-key navigable.
  await page.getByRole('tab', { name: 'Port check' }).click();
  await expect(page.getByRole('button', { name: /Home Assistant 8123/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.getByLabel('Target').fill('127.0.0.1');
  await page.getByLabel('Port', { exact: true }).fill(String(agent.port));
  await page.getByLabel('Port', { exact: true }).press('Enter');
  await expect(log).toContainText(`127.0.0.1:${agent.port} is open`);
  await expect(page.getByRole('status')).toContainText(`Summary: Port ${agent.port} is open`);

  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

test('a member sees that the network tools are for administrators', async ({ page, agent }) => {
  await signIn(page, await createAccount(agent, { name: 'Mo Member', role: 'user' }));
  await page.goto('/creative-networking');
  await expect(page.getByText('Running network tools from the hub needs an administrator')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run' })).toHaveCount(0);
});

test('/network-info shows Tailscale’s state', async ({ page, agent }) => {
  await signIn(page, await createAccount(agent, { name: 'Tess Tailnet', role: 'user' }));
  await page.goto('/network-info');
  const info = (await (await page.request.get('/api/network/info')).json()) as {
    tailscale: { running: boolean; message: string | null; state: { backendState: string } | null };
  };
  const region = page.getByRole('region', { name: 'Tailscale', exact: true });
  if (info.tailscale.state) await expect(region).toContainText(info.tailscale.state.backendState);
  else await expect(region).toContainText(info.tailscale.message!);
});
