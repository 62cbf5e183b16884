import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { pathWithoutVpnTools, type PathWithoutVpnTools } from '../support/without-vpn-tools.js';
import { expectNoSeriousAxeViolations } from './axe.js';
import { expect, skipFirstBootWizard, test } from './support.js';

/**
 * /connections and /unifi-teleport against the real agent (issue 17).
 *
 * The browser test's hub must not create WireGuard interfaces on this machine (tests touch only
 * loopback and namespaces they make), so its agent runs with a PATH that lacks `ip`, `wg` and
 * `wireguard-go`: a real hub without the WireGuard tools. Its server therefore cannot come up, and
 * the screen has to say so in words; everything else (settings, devices, their one-time config,
 * uplinks' validation) works as on any hub.
 */

const PASSWORD = 'correct horse battery staple';

test.describe.configure({ mode: 'serial' });

let hub: RunningAgent;
let tools: PathWithoutVpnTools | undefined;
let owner: { context: BrowserContext; page: Page };

async function register(browser: Browser, tag: string) {
  const context = await browser.newContext({ baseURL: hub.url });
  const page = await context.newPage();
  const res = await page.request.post('/api/auth/register', {
    data: {
      name: `Person ${tag}`,
      email: `${tag}-${randomUUID().slice(0, 8)}@example.com`,
      password: PASSWORD,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { context, page };
}

test.beforeAll(async ({ browser }) => {
  tools = pathWithoutVpnTools();
  hub = await startAgent({ env: { NEXUS_REGISTRATION: 'open', PATH: tools.PATH } });
  await skipFirstBootWizard(hub.url);
  owner = await register(browser, 'owner');
});

test.afterAll(async () => {
  await owner?.context.close();
  await hub?.stop();
  tools?.remove();
});

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

test('/connections shows the VPN status and an empty server state', async () => {
  const { page } = owner;
  await page.goto('/connections');
  await expect(page.getByRole('heading', { level: 1, name: 'VPN Connections' })).toBeVisible();
  const status = region(page, 'VPN status');
  await expect(status.getByTestId('vpn-status')).toHaveText('Disconnected');
  await expect(status.getByText('WireGuard').or(status.getByText('None')).first()).toBeVisible();
  const server = region(page, "The hub's WireGuard server");
  await expect(
    server.getByText("Set up the hub's WireGuard server to reach it from your phone"),
  ).toBeVisible();
  await expect(region(page, 'Devices').getByText('No device yet.')).toBeVisible();
  await expect(region(page, 'Events').getByText('No switch yet.')).toBeVisible();
  await expectNoSeriousAxeViolations(page, '/connections, empty');
});

test('configuring the server without WireGuard tools shows the problem in words', async () => {
  const { page } = owner;
  await page.goto('/connections');
  const server = region(page, "The hub's WireGuard server");
  await server.getByLabel('Listen port').fill('70000');
  await server.getByLabel('Public endpoint').fill('hub.example.org:51820');
  await server.getByRole('button', { name: 'Set up the server' }).click();
  await expect(server.getByText('Enter a port from 1 to 65535.')).toBeVisible();
  await expect(server.getByLabel('Listen port')).toHaveAttribute('aria-invalid', 'true');

  await server.getByLabel('Listen port').fill('51820');
  await server.getByRole('button', { name: 'Set up the server' }).click();
  await expect(server.getByTestId('server-state')).toHaveText('Not running');
  const problem = server.getByTestId('server-problem');
  await expect(problem).toContainText('The WireGuard server is not running');
  await expect(problem).toContainText('wireguard-tools');
  // The agent made the server's keys even though the interface could not come up.
  await expect(server.getByTestId('server-public-key')).toHaveText(/^[A-Za-z0-9+/]{43}=$/);
  await expectNoSeriousAxeViolations(page, '/connections, server not running');
});

test('adding a device shows its config and QR code once; it can be switched off and removed', async () => {
  const { page } = owner;
  await page.goto('/connections');
  const devices = region(page, 'Devices');
  await devices.getByRole('button', { name: 'Add device' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Device name').fill("Anna's phone");
  await dialog.getByRole('button', { name: 'Add device' }).click();

  const shown = dialog.getByTestId('peer-config');
  await expect(shown.getByText('This config is shown once')).toBeVisible();
  const config = shown.getByLabel("Anna's phone's WireGuard config");
  await expect(config).toContainText('[Interface]');
  await expect(config).toContainText('PrivateKey = ');
  await expect(config).toContainText('Endpoint = hub.example.org:51820');
  const qr = shown.getByRole('img', { name: "QR code of Anna's phone's WireGuard config" });
  await expect(qr).toHaveAttribute('src', /^data:image\/svg\+xml/);
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const download = page.waitForEvent('download');
  await shown.getByRole('button', { name: 'Download config' }).click();
  expect((await download).suggestedFilename()).toBe('Anna-s-phone.conf');
  await expectNoSeriousAxeViolations(page, '/connections, device added');
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // A second visit: the device is listed, its private key nowhere on the page.
  await page.reload();
  const row = devices.getByTestId("peer-Anna's phone");
  await expect(row).toContainText('10.8.0.2/32');
  await expect(row).toContainText('Offline');
  await expect(row).toContainText('last handshake never');
  await expect(page.getByText('PrivateKey')).toHaveCount(0);
  await expect(page.getByText('This config is shown once')).toHaveCount(0);

  const enabled = row.getByRole('switch', { name: "Anna's phone enabled" });
  await expect(enabled).toBeChecked();
  await enabled.click();
  await expect(enabled).not.toBeChecked();
  await page.reload();
  await expect(devices.getByTestId("peer-Anna's phone").getByRole('switch')).not.toBeChecked();

  await devices.getByRole('button', { name: "Remove Anna's phone" }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(devices.getByText('No device yet.')).toBeVisible();
});

test('the uplinks form names its bad fields', async () => {
  const { page } = owner;
  await page.goto('/connections');
  const uplinks = region(page, 'Uplinks and failover');
  await expect(uplinks.getByText('No uplink yet.')).toBeVisible();
  await uplinks.getByLabel('Probe every (seconds)').fill('0');
  await uplinks.getByLabel('Switch to backup after (failed probes)').fill('2.5');
  await uplinks.getByRole('button', { name: 'Save uplinks' }).click();
  await expect(uplinks.getByText(/Enter an IP address \(pinged\) or host:port/)).toBeVisible();
  await expect(uplinks.getByText('Enter a whole number of seconds from 1 to 600.')).toBeVisible();
  await expect(uplinks.getByText('Enter a whole number of failed probes from 1 to 100.')).toBeVisible();
  await expect(uplinks.getByLabel('Probe target')).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousAxeViolations(page, '/connections, uplinks refused');
});

test('a member sees the status only', async ({ browser }) => {
  const member = await register(browser, 'member');
  try {
    await member.page.goto('/connections');
    await expect(region(member.page, 'VPN status').getByTestId('vpn-status')).toBeVisible();
    await expect(member.page.getByText('An admin sets up the hub')).toBeVisible();
    await expect(region(member.page, "The hub's WireGuard server")).toHaveCount(0);
    await expect(member.page.getByRole('button', { name: 'Add device' })).toHaveCount(0);
  } finally {
    await member.context.close();
  }
});

test('/unifi-teleport tells a loopback visitor they are on the LAN', async () => {
  const { page } = owner;
  await page.goto('/unifi-teleport');
  await expect(page.getByRole('heading', { level: 1, name: 'UniFi Teleport' })).toBeVisible();
  const result = page.getByTestId('visitor-result');
  await expect(result).toHaveAttribute('data-kind', 'lan');
  await expect(result).toContainText('You are on the hub’s own network, not a VPN.');
  await expect(result).toContainText('127.0.0.1');
  await expect(page.getByText('192.168.2.0/24').first()).toBeVisible();
  await expectNoSeriousAxeViolations(page, '/unifi-teleport');
});
