import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { createInviteCode } from './shell-helpers.js';
import { expect, test } from './support.js';

/**
 * The diagnostics screen (/system-diagnostics and its aliases) and /network-info against the real
 * agent: charts drawn from the metrics window and kept moving by the live stream, disks, the
 * busiest processes, the agent's own footprint, the admin's bundle download, and the network.
 */

const PASSWORD = 'correct-horse-battery';
/** The first hour of samples is parsed and drawn once: allow for a busy machine. */
const FIRST_DATA_TIMEOUT_MS = 15_000;

interface SystemInfo {
  hostname: string;
  os: { kernel: string };
  disks: { mount: string }[];
  agent: { pid: number; version: string };
}

interface NetworkInfo {
  hostname: string;
  interfaces: { name: string; ip4: string | null }[];
  defaultGateway: string | null;
  dns: { nameservers: string[] };
  listening: { port: number; protocol: string }[];
}

async function api<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path);
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

function panel(page: Page, name: string): Locator {
  return page.getByRole('region', { name, exact: true });
}

async function chartPoints(scope: Locator): Promise<number> {
  return Number(await scope.locator('[data-chart-points]').first().getAttribute('data-chart-points'));
}

async function expectNoSeriousA11yProblems(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.describe('system diagnostics', () => {
  // A hub of its own, so the first account here is its superadmin.
  let agent: RunningAgent;
  let owner: { context: BrowserContext; page: Page; email: string };

  async function signedIn(browser: Browser, name: string) {
    const context = await browser.newContext({ baseURL: agent.url, locale: 'en-US', acceptDownloads: true });
    const page = await context.newPage();
    const email = `diag-${randomUUID().slice(0, 8)}@example.com`;
    // After the owner, people join with an invite the owner makes, as in a household.
    const inviteCode = owner ? await createInviteCode(owner.page.request) : undefined;
    const res = await page.request.post('/api/auth/register', {
      data: { name, email, password: PASSWORD, inviteCode },
    });
    expect(res.status(), await res.text()).toBe(201);
    return { context, page, email };
  }

  test.beforeAll(async ({ browser }) => {
    agent = await startAgent();
    owner = await signedIn(browser, 'Olive Owner');
  });

  test.afterAll(async () => {
    await owner?.context.close();
    await agent?.stop();
  });

  test('charts draw the hub’s metrics and keep moving with the live stream', async () => {
    const { page } = owner;
    await page.goto('/system-diagnostics');
    await expect(page.getByRole('heading', { level: 1, name: 'System Diagnostics' })).toBeVisible();
    await expect(page.getByText('Live', { exact: true })).toBeVisible();

    for (const name of ['CPU', 'Memory', 'Network', 'Disk I/O']) {
      const chart = panel(page, name);
      await expect(chart.locator('[data-chart-points]')).toBeVisible({ timeout: FIRST_DATA_TIMEOUT_MS });
      expect(await chartPoints(chart)).toBeGreaterThan(0);
      // recharts drew a real curve through the points.
      await expect(chart.locator('path.recharts-curve').first()).toHaveAttribute('d', /^M[\d.,\s-]+[LC]/);
    }

    // Temperatures: a line per sensor the kernel reports, or the sentence saying there are none.
    const series = await api<{ samples: { temps: Record<string, number> }[] }>(
      page.request,
      '/api/system/metrics?window=1h',
    );
    const sensors = new Set(series.samples.flatMap((s) => Object.keys(s.temps)));
    const temperatures = panel(page, 'Temperatures');
    if (sensors.size === 0) {
      await expect(temperatures.getByText('reports no temperature sensors')).toBeVisible();
    } else {
      await expect(temperatures.locator('path.recharts-curve')).toHaveCount(sensors.size);
    }

    // One sample a second arrives over the live topic and the CPU chart grows with it.
    const cpu = panel(page, 'CPU');
    const before = await chartPoints(cpu);
    await expect.poll(() => chartPoints(cpu), { timeout: 10_000 }).toBeGreaterThanOrEqual(before + 2);
    await expect(cpu.locator('[data-stat="CPU:Now"]')).toHaveText(/^\d+%$/);
  });

  test('host, disks, processes and the agent’s own footprint are the agent’s figures', async () => {
    const { page } = owner;
    await page.goto('/system-diagnostics');
    const info = await api<SystemInfo>(page.request, '/api/system/info');

    const host = panel(page, 'Host');
    await expect(host.getByText(info.hostname, { exact: true })).toBeVisible();
    await expect(host.locator('dt:text-is("Kernel") + dd')).toContainText(info.os.kernel);

    const agentPanel = panel(page, 'Agent process');
    await expect(
      agentPanel.getByText(`Nexus agent v${info.agent.version}, pid ${info.agent.pid}`),
    ).toBeVisible();
    expect(info.agent.pid).toBe(agent.process.pid);
    await expect(agentPanel.locator('[data-stat="Agent:RSS"]')).toHaveText(/^\d+(\.\d)? (MiB|GiB)$/);

    const disks = panel(page, 'Disks');
    await expect(disks.getByRole('row')).toHaveCount(info.disks.length + 1);
    for (const disk of info.disks) {
      await expect(disks.getByRole('cell', { name: disk.mount, exact: true })).toBeVisible();
    }

    // Top processes, busiest first; sorting by memory asks the agent again and reorders.
    const processes = panel(page, 'Top processes');
    await expect(processes.getByRole('row').nth(1)).toBeVisible();
    const memRequest = page.waitForRequest((req) => req.url().includes('/api/system/processes?sort=mem'));
    await processes.getByRole('button', { name: 'Memory' }).click();
    await memRequest;
    await expect(processes.getByRole('button', { name: 'Memory' })).toHaveAttribute('aria-pressed', 'true');
    await expect(processes.getByRole('columnheader', { name: 'Memory' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect
      .poll(async () => {
        const column = await processes.locator('tbody tr td:nth-child(5)').allTextContents();
        const values = column.map((v) => Number.parseFloat(v));
        return values.length > 1 && values.every((v, i) => i === 0 || values[i - 1]! >= v);
      })
      .toBe(true);
  });

  test('the day window comes from the agent’s minute series', async () => {
    const { page } = owner;
    await page.goto('/system-diagnostics');
    await expect(panel(page, 'CPU').locator('[data-chart-points]')).toBeVisible({
      timeout: FIRST_DATA_TIMEOUT_MS,
    });
    const dayRequest = page.waitForResponse((res) => res.url().includes('/api/system/metrics?window=24h'));
    await page.getByRole('button', { name: 'Last 24 hours' }).click();
    const day = (await (await dayRequest).json()) as { samples: unknown[] };
    const cpu = panel(page, 'CPU');
    if (day.samples.length === 0) {
      // A hub that started less than a minute ago has no full minute yet.
      await expect(cpu.getByText(/No samples yet/)).toBeVisible();
    } else {
      await expect.poll(() => chartPoints(cpu)).toBe(Math.min(day.samples.length, 240));
    }
  });

  test('an admin downloads the diagnostics bundle, secrets redacted', async () => {
    const { page } = owner;
    await page.goto('/system-diagnostics');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download diagnostics bundle' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^nexus-diagnostics-.+\.json$/);
    const text = fs.readFileSync((await download.path())!, 'utf8');
    const bundle = JSON.parse(text) as {
      generatedAt: string;
      host: { hostname: string };
      agent: { pid: number };
      logs: unknown[];
    };
    expect(bundle.host.hostname).toBe((await api<SystemInfo>(page.request, '/api/system/info')).hostname);
    expect(bundle.agent.pid).toBe(agent.process.pid);
    expect(bundle.logs.length).toBeGreaterThan(0);
    const cookies = await page.context().cookies();
    for (const secret of [PASSWORD, ...cookies.map((c) => c.value)]) expect(text).not.toContain(secret);
    // Radix copies a toast's text into a screen-reader announcer: match the toast itself.
    await expect(
      page.locator('[data-slot=toast]').filter({ has: page.getByText('Diagnostics bundle downloaded') }),
    ).toBeVisible();
  });

  test('a member sees the figures but not the bundle', async ({ browser }) => {
    const member = await signedIn(browser, 'Mo Member');
    await member.page.goto('/system-diagnostics');
    await expect(panel(member.page, 'CPU').locator('[data-chart-points]')).toBeVisible({
      timeout: FIRST_DATA_TIMEOUT_MS,
    });
    await expect(member.page.getByRole('button', { name: 'Download diagnostics bundle' })).toHaveCount(0);
    expect((await member.page.request.get('/api/diagnostics/bundle')).status()).toBe(403);
    await member.context.close();
  });

  test('every diagnostics address opens the same screen', async () => {
    // Four full screens, each waiting for its first metrics: more than one screen's time budget.
    test.slow();
    const { page } = owner;
    for (const path of ['/system-updates', '/admin-diagnostics', '/nexus-status', '/system-diagnostics']) {
      await page.goto(path);
      // A full page load per address (and two chunks for /nexus-status's section) on a busy machine.
      await expect(page.getByRole('heading', { level: 1, name: 'System Diagnostics' })).toBeVisible({
        timeout: FIRST_DATA_TIMEOUT_MS,
      });
      await expect(panel(page, 'CPU')).toBeVisible();
    }
  });

  test('/network-info shows interfaces, addresses, gateway, DNS and listening ports', async () => {
    const { page } = owner;
    await page.goto('/network-info');
    await expect(page.getByRole('heading', { level: 1, name: 'Network Info' })).toBeVisible();
    const network = await api<NetworkInfo>(page.request, '/api/system/network');

    const overview = panel(page, 'Overview');
    await expect(overview.locator('dt:text-is("Hostname") + dd')).toHaveText(network.hostname);
    await expect(overview.locator('dt:text-is("Gateway") + dd')).toHaveText(
      network.defaultGateway ?? 'No default route',
    );
    for (const server of network.dns.nameservers)
      await expect(overview.getByText(server, { exact: true })).toBeVisible();

    for (const iface of network.interfaces) {
      const group = page.getByRole('group', { name: `Interface ${iface.name}` });
      await expect(group).toBeVisible();
      if (iface.ip4) await expect(group.getByText(iface.ip4)).toBeVisible();
    }

    const ports = panel(page, 'Listening ports');
    if (network.listening.length === 0) {
      await expect(ports.getByText('No listening sockets were reported')).toBeVisible();
    } else {
      await expect(ports.getByRole('row')).toHaveCount(network.listening.length + 1);
      // The agent itself listens: its own port is in the list.
      expect(network.listening.map((l) => l.port)).toContain(agent.port);
      await expect(ports.getByRole('cell', { name: String(agent.port), exact: true })).toBeVisible();
    }
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`diagnostics and network info have no serious accessibility problems in the ${theme} theme`, async () => {
      // axe walks every node of five live SVG charts: slower than the other checks.
      test.slow();
      const { page } = owner;
      await page.goto('/system-diagnostics');
      await page.evaluate((value) => window.localStorage.setItem('theme', value), theme);
      await page.reload();
      await expect(panel(page, 'CPU').locator('[data-chart-points]')).toBeVisible({
        timeout: FIRST_DATA_TIMEOUT_MS,
      });
      await expect(panel(page, 'Top processes').getByRole('row').nth(1)).toBeVisible();
      await expect(panel(page, 'Disks')).toBeVisible();
      await expectNoSeriousA11yProblems(page);

      await page.goto('/network-info');
      await expect(panel(page, 'Listening ports')).toBeVisible();
      await expectNoSeriousA11yProblems(page);
    });
  }
});
