import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import {
  request,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { satelliteListSchema } from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { startHomeAssistantSim, type HomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { expectNoSeriousAxeViolations } from './axe.js';
import { createInviteCode } from './shell-helpers.js';
import { expect, skipFirstBootWizard, test } from './support.js';

/**
 * The satellite screens against the real agent.
 * - Without Home Assistant: the fleet says why HA satellites are missing and how to get satellites;
 *   on the legacy screen an admin adds a Nexus-API satellite, gets its token once, and the satellite
 *   checks in with it (as a device would, without a session); a Wyoming satellite added by host and
 *   port whose port is closed shows offline with the reason; members only look.
 * - With the Home Assistant simulator's voice satellites: the fleet lists them with their source,
 *   area, signal and wake word, a control reaches Home Assistant as a service call on the device's
 *   own entity, and /sat1-control finds the Satellite1.
 */

const password = 'correct horse battery staple';

async function signedUp(browser: Browser, hub: RunningAgent, name: string, admin?: APIRequestContext) {
  const context = await browser.newContext({ baseURL: hub.url });
  const page = await context.newPage();
  const email = `sat-${randomBytes(3).toString('hex')}@example.com`;
  // After the owner, people join with an invite the owner makes, as in a household.
  const inviteCode = admin ? await createInviteCode(admin) : undefined;
  const res = await page.request.post('/api/auth/register', { data: { name, email, password, inviteCode } });
  expect(res.status(), await res.text()).toBe(201);
  const { user } = (await res.json()) as { user: { role: string } };
  return { context, page, role: user.role };
}

async function satelliteNamed(page: Page, name: string) {
  const res = await page.request.get('/api/devices/satellite');
  expect(res.ok()).toBe(true);
  const found = satelliteListSchema.parse(await res.json()).find((s) => s.name === name);
  expect(found, `satellite "${name}"`).toBeDefined();
  return found!;
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });
const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

/** A loopback port nothing listens on: bound, then closed again. */
async function closedLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test.describe('without Home Assistant', () => {
  // A hub of its own: the worker's hub may already hold accounts and satellites from other specs,
  // and this one needs its first account to be the superadmin and its list to start empty.
  let hub: RunningAgent;
  let owner: { context: BrowserContext; page: Page };
  /** Speaks to the hub as a satellite does: a bearer token and no session cookie. */
  let device: APIRequestContext;
  let kitchen: { id: number; token: string };

  function heartbeat(id: number, token: string) {
    return device.post(`/api/devices/satellite/${id}/heartbeat`, {
      headers: { authorization: `Bearer ${token}` },
      data: { signalStrength: -55, activeWakeWord: 'hey nexus', firmwareVersion: '1.2.3' },
    });
  }

  test.describe.configure({ mode: 'serial' });

  test.beforeAll(async ({ browser }) => {
    hub = await startAgent();
    await skipFirstBootWizard(hub.url);
    const first = await signedUp(browser, hub, 'Sam Owner');
    expect(first.role).toBe('superadmin');
    owner = first;
    // Time runs as usual until a test moves it on, so the list's 15 s refresh comes when asked for.
    await owner.page.clock.install();
    device = await request.newContext({ baseURL: hub.url });
  });

  test.afterAll(async () => {
    await device?.dispose();
    await owner?.context.close();
    await hub?.stop();
  });

  test('an empty fleet says how to get satellites and why Home Assistant ones are missing', async () => {
    const { page } = owner;
    await page.goto('/satellite-management');
    // The screen's code loads when it is first opened, which takes a while on a busy machine.
    await expect(heading(page, 'Satellite Management')).toBeVisible({ timeout: 15_000 });
    await expect(page).toHaveTitle(/^Satellite Management · .* · Nexus Console$/);
    await expect(page.getByRole('heading', { name: 'No satellites yet' })).toBeVisible();
    await expect(page.getByText(/adopt it in Home Assistant/)).toBeVisible();
    await expect(page.getByText(/add it by host and port with Add Wyoming satellite/)).toBeVisible();
    await expect(page.getByText(/add it with Add Nexus satellite/)).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    // Home Assistant is not connected on this hub: the screen says so, and where to connect it.
    const notice = page.locator('[data-source-notice="home-assistant"]');
    await expect(notice).toContainText('Home Assistant satellites are not shown');
    await expect(notice.getByRole('link', { name: 'HA Connection Setup' })).toHaveAttribute(
      'href',
      '/ha-connection-setup',
    );
    await expect(page.getByRole('button', { name: 'Add Wyoming satellite' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Nexus satellite' })).toBeVisible();
    await expectNoSeriousAxeViolations(page);

    // No Satellite1 either: how to adopt one, and the way back to the fleet.
    await page.goto('/sat1-control');
    await expect(heading(page, 'Satellite1 Control')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('heading', { name: 'No Satellite1 on this hub' })).toBeVisible();
    await expect(page.getByText(/the ESPHome integration shows it as discovered/)).toBeVisible();
    await expect(
      page.getByRole('main').getByRole('link', { name: 'Satellite Management' }).last(),
    ).toHaveAttribute('href', '/satellite-management');
    await expectNoSeriousAxeViolations(page);

    // An id the hub does not know.
    await page.goto('/satellite-controls/999');
    await expect(page.getByRole('heading', { name: 'No such satellite' })).toBeVisible({ timeout: 15_000 });
    await expect(page).toHaveTitle(/^Satellite Controls · .* · Nexus Console$/);
  });

  test('legacy screen: a Nexus satellite gets its token once, heartbeats and shows online', async () => {
    const { page } = owner;
    await page.goto('/satellite-management-legacy');
    await expect(heading(page, 'Satellite Management (Legacy)')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(/heartbeat with/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No Nexus satellites yet' })).toBeVisible();

    await page.getByRole('button', { name: 'Add Nexus satellite' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Kitchen');
    await dialog.getByLabel('Room (optional)').fill('By the fridge');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();

    await expect(dialog.getByRole('heading', { name: 'Kitchen is added' })).toBeVisible();
    await expect(dialog.getByText('it is shown only this once')).toBeVisible();
    const token = (await dialog.getByTestId('satellite-token').textContent()) ?? '';
    expect(token).toMatch(/^nxsat_[\w-]{40,}$/);
    const { id } = await satelliteNamed(page, 'Kitchen');
    // How to set it up, with this hub's address as the browser reaches it.
    await expect(dialog).toContainText(`${hub.url}/api/devices/satellite/${id}/heartbeat`);
    await expect(dialog).toContainText(`${hub.url}/api/flows/<flow id>/run?satellite=${id}`);
    await expect(dialog).toContainText(`${hub.url}/api/wake-words/<wake word id>/samples?satellite=${id}`);
    await expect(dialog).toContainText(`Authorization: Bearer ${token}`);
    await expect(dialog.getByRole('button', { name: 'Copy the token' })).toBeVisible();
    await expectNoSeriousAxeViolations(page);

    await dialog.getByRole('button', { name: 'I have stored it' }).click();
    await expect(dialog).toHaveCount(0);
    // Never again: not on the screen, not from the API.
    await expect(page.getByText(token)).toHaveCount(0);
    expect(await (await page.request.get(`/api/devices/satellite/${id}`)).text()).not.toContain(token);

    const kitchenRow = row(page, 'Kitchen');
    await expect(kitchenRow.getByText('By the fridge')).toBeVisible();
    await expect(kitchenRow.getByText('Offline', { exact: true })).toBeVisible();
    await expect(kitchenRow.getByText('Never', { exact: true })).toBeVisible();

    const beat = await heartbeat(id, token);
    expect(beat.status(), await beat.text()).toBe(200);
    await page.clock.runFor(15_000);
    await expect(kitchenRow.getByText('Online', { exact: true })).toBeVisible();
    await expect(kitchenRow.getByText('-55 dBm', { exact: true })).toBeVisible();
    await expect(kitchenRow.getByText('hey nexus', { exact: true })).toBeVisible();
    await expect(kitchenRow.getByText('1.2.3', { exact: true })).toBeVisible();
    await expect(kitchenRow.getByText(/127\.0\.0\.1/)).toBeVisible();
    await expect(kitchenRow.getByText('Never', { exact: true })).toHaveCount(0);
    await expectNoSeriousAxeViolations(page);
    kitchen = { id, token };

    // In the fleet it is a Nexus satellite API device, whose controls page says why it has none.
    await page.goto('/satellite-management');
    const fleetRow = row(page, 'Kitchen');
    await expect(fleetRow.getByText('Nexus satellite API', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(fleetRow.getByText('Online', { exact: true })).toBeVisible();
    await expect(fleetRow.getByText('By the fridge', { exact: true })).toBeVisible();
    // The 24 h chart loads when asked for, not with the table.
    const expand = fleetRow.getByRole('button', { name: 'Signal over 24 h for Kitchen' });
    await expect(expand).toHaveAttribute('aria-expanded', 'false');
    await expand.click();
    await expect(expand).toHaveAttribute('aria-expanded', 'true');
    await expect(
      page.getByRole('img', { name: /^Signal of Kitchen over the last 24 hours: 1 readings/ }),
    ).toBeVisible();
    await fleetRow.getByRole('link', { name: 'Controls of Kitchen' }).click();
    await expect(page).toHaveURL(new RegExp(`/satellite-controls/${id}$`));
    await expect(heading(page, 'Kitchen')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('no-controls')).toContainText('uses the Nexus satellite API');
    await expect(page.getByRole('slider')).toHaveCount(0);
    await expectNoSeriousAxeViolations(page);
  });

  test('a new token shuts the old one out at once and works itself', async () => {
    const { page } = owner;
    await page.goto('/satellite-management-legacy');
    await row(page, 'Kitchen').getByRole('button', { name: 'New token for Kitchen' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('The current token stops working at once');
    await confirm.getByRole('button', { name: 'Issue a new token' }).click();

    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'New token for Kitchen' })).toBeVisible();
    const fresh = (await dialog.getByTestId('satellite-token').textContent()) ?? '';
    expect(fresh).toMatch(/^nxsat_[\w-]{40,}$/);
    expect(fresh).not.toBe(kitchen.token);
    await expect(dialog).toContainText(`Authorization: Bearer ${fresh}`);
    await dialog.getByRole('button', { name: 'I have stored it' }).click();
    await expect(dialog).toHaveCount(0);

    expect((await heartbeat(kitchen.id, kitchen.token)).status()).toBe(401);
    // The old token opens none of the satellite's other doors either.
    const clip = {
      headers: { authorization: `Bearer ${kitchen.token}`, 'content-type': 'audio/wav' },
      data: Buffer.from('RIFF'),
    };
    expect((await device.post(`/api/flows/1/run?satellite=${kitchen.id}`, clip)).status()).toBe(401);
    expect((await device.post(`/api/wake-words/1/samples?satellite=${kitchen.id}`, clip)).status()).toBe(401);

    const beat = await heartbeat(kitchen.id, fresh);
    expect(beat.status(), await beat.text()).toBe(200);
    kitchen = { id: kitchen.id, token: fresh };
  });

  test('a Wyoming satellite at a closed port is listed as Wyoming, offline with the reason', async () => {
    const { page } = owner;
    await page.goto('/satellite-management');
    await page.getByRole('button', { name: 'Add Wyoming satellite' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('Port')).toHaveValue('10700');
    // The contract's rules, checked before anything is sent.
    await dialog.getByLabel('Port').fill('70000');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog.getByText('Give the host')).toBeVisible();
    await expect(dialog.getByText('Give a port number between 1 and 65535')).toBeVisible();
    await expect(dialog.getByLabel('Host')).toHaveAttribute('aria-invalid', 'true');
    await dialog.getByLabel('Host').fill('http://pi.local/');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog.getByText(/without http:\/\/ or a port/)).toBeVisible();
    await expectNoSeriousAxeViolations(page);

    const port = await closedLoopbackPort();
    await dialog.getByLabel('Name (optional)').fill('Porch Pi');
    await dialog.getByLabel('Host').fill('127.0.0.1');
    await dialog.getByLabel('Port').fill(String(port));
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog).toHaveCount(0);

    const porch = row(page, 'Porch Pi');
    await expect(porch.getByText('Wyoming', { exact: true })).toBeVisible();
    // The connection is refused; the list follows over the live channel.
    await expect(porch.getByText('Offline', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(porch.getByTestId('status-reason')).not.toBeEmpty();
    const listed = await satelliteNamed(page, 'Porch Pi');
    expect(listed.source).toBe('wyoming');
    expect(listed.wyoming).toMatchObject({ host: '127.0.0.1', port, connection: expect.any(String) });
    // The reason names the address it could not reach (its retry countdown moves on, so no exact text).
    await expect(porch.getByTestId('status-reason')).toContainText(`127.0.0.1:${port}`);

    // Its details name where the hub connects and how that goes.
    await porch.getByRole('link', { name: 'Controls of Porch Pi' }).click();
    const details = page.getByRole('definition');
    await expect(details.getByText(`127.0.0.1:${port}`, { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(details.getByText(/^(Disconnected|Connecting)/)).toBeVisible();
    await expectNoSeriousAxeViolations(page);
  });

  test('a member sees the fleet and the legacy list but none of the admin controls', async ({ browser }) => {
    const member = await signedUp(browser, hub, 'Milo Member', owner.page.request);
    expect(member.role).toBe('user');
    const { page } = member;
    await page.goto('/satellite-management');
    await expect(heading(page, 'Satellite Management')).toBeVisible({ timeout: 15_000 });
    await expect(row(page, 'Kitchen').getByText('Online', { exact: true })).toBeVisible();
    await expect(row(page, 'Porch Pi')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Wyoming satellite' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add Nexus satellite' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Remove Porch Pi' })).toHaveCount(0);

    await page.goto('/satellite-management-legacy');
    const kitchenRow = row(page, 'Kitchen');
    await expect(kitchenRow.getByText('Online', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(kitchenRow.getByText('-55 dBm', { exact: true })).toBeVisible();
    await expect(kitchenRow.getByText('hey nexus', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Nexus satellite' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'New token for Kitchen' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit Kitchen' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Remove Kitchen' })).toHaveCount(0);
    // The Wyoming satellite is not a Nexus-API device.
    await expect(row(page, 'Porch Pi')).toHaveCount(0);
    // Hidden controls are not the guard: the agent refuses a member too.
    expect((await page.request.post('/api/devices/satellite', { data: { name: 'Mine' } })).status()).toBe(
      403,
    );
    expect((await page.request.post(`/api/devices/satellite/${kitchen.id}/token`)).status()).toBe(403);
    expect(
      (
        await page.request.post('/api/devices/satellite/wyoming', { data: { host: '127.0.0.1', port: 9 } })
      ).status(),
    ).toBe(403);
    await expectNoSeriousAxeViolations(page);
    await member.context.close();
  });

  test('an admin renames a Nexus satellite, then removes it, and its token goes with it', async () => {
    const { page } = owner;
    await page.goto('/satellite-management-legacy');
    await row(page, 'Kitchen').getByRole('button', { name: 'Edit Kitchen' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Pantry');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row(page, 'Pantry').getByText('By the fridge')).toBeVisible();

    await row(page, 'Pantry').getByRole('button', { name: 'Remove Pantry' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByRole('heading', { name: 'No Nexus satellites yet' })).toBeVisible();
    expect((await heartbeat(kitchen.id, kitchen.token)).status()).toBe(401);
  });
});

test.describe('with Home Assistant voice satellites', () => {
  let hub: RunningAgent;
  let sim: HomeAssistantSim;
  let owner: { context: BrowserContext; page: Page; role: string };

  test.describe.configure({ mode: 'serial' });

  test.beforeAll(async ({ browser }) => {
    sim = await startHomeAssistantSim({ voiceSatellites: true });
    hub = await startAgent();
    await skipFirstBootWizard(hub.url);
    owner = await signedUp(browser, hub, 'Hana Owner');
    expect(owner.role).toBe('superadmin');
    const connected = await owner.page.request.put('/api/settings/home-assistant', {
      data: { url: sim.url, token: sim.token },
    });
    expect(connected.ok(), await connected.text()).toBe(true);
  });

  test.afterAll(async () => {
    await owner?.context.close();
    await hub?.stop();
    await sim?.stop();
  });

  test('the fleet lists the satellites Home Assistant has adopted, the unavailable one offline', async () => {
    const { page } = owner;
    await page.goto('/satellite-management');
    await expect(heading(page, 'Satellite Management')).toBeVisible({ timeout: 15_000 });
    const living = row(page, 'Living Room Voice');
    await expect(living.getByText('Home Assistant', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(living.getByText('Living Room', { exact: true })).toBeVisible();
    await expect(living.getByText('Online', { exact: true })).toBeVisible();
    await expect(living.getByText('-48 dBm', { exact: true })).toBeVisible();
    await expect(living.getByText('Okay Nabu', { exact: true })).toBeVisible();

    const office = row(page, 'Office Satellite');
    await expect(office.getByText('Office', { exact: true })).toBeVisible();
    await expect(office.getByText('-67 dBm', { exact: true })).toBeVisible();
    await expect(office.getByText('Hey Jarvis', { exact: true })).toBeVisible();
    await expect(office.getByText('Online', { exact: true })).toBeVisible();

    const bedroom = row(page, 'Bedroom Voice');
    await expect(bedroom.getByText('Offline', { exact: true })).toBeVisible();
    await expect(bedroom.getByTestId('status-reason')).not.toBeEmpty();
    await expect(page.locator('[data-source-notice="home-assistant"]')).toHaveCount(0);
    await expectNoSeriousAxeViolations(page);

    // The dashboard's card reads the same merged list.
    await page.goto('/dashboard');
    const card = page
      .locator('[data-slot="card"]')
      .filter({ has: page.getByText('Satellite1', { exact: true }) });
    await expect(card.getByText('Active', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(card.getByText('2 of 3 online')).toBeVisible();
    await expect(card.locator('[data-source="home-assistant"]').first()).toContainText('Home Assistant');
  });

  test("a volume change on Office Satellite's controls reaches Home Assistant", async () => {
    const { page } = owner;
    await page.goto('/satellite-management');
    await row(page, 'Office Satellite').getByRole('link', { name: 'Controls of Office Satellite' }).click();
    await expect(heading(page, 'Office Satellite')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('button', { name: 'Restart Office Satellite' })).toBeVisible();
    await expect(page.getByText('FutureProofHomes')).toBeVisible();
    await expectNoSeriousAxeViolations(page);

    const volume = page.getByRole('slider', { name: 'Volume of Office Satellite' });
    const before = Number(await volume.getAttribute('aria-valuenow'));
    const callsBefore = sim.serviceCalls.length;
    await volume.focus();
    // One step down (or up from silence): Radix commits a keyboard change at once.
    await page.keyboard.press(before > 0 ? 'ArrowLeft' : 'ArrowRight');
    const wanted = before > 0 ? before - 1 : 1;
    await expect(volume).toHaveAttribute('aria-valuenow', String(wanted));
    await expect
      .poll(() => sim.serviceCalls.slice(callsBefore).find((c) => c.service === 'volume_set'))
      .toMatchObject({ domain: 'media_player', service: 'volume_set' });
    const call = sim.serviceCalls.slice(callsBefore).find((c) => c.service === 'volume_set')!;
    expect(call.serviceData.volume_level).toBeCloseTo(wanted / 100, 2);
    expect(call.target.entity_id?.[0]).toMatch(/^media_player\./);

    // The wake-word select reads ESPHome's raw no_wake_word as words; a choice reaches the device's select.
    await page.getByRole('combobox', { name: 'Wake word' }).click();
    await expect(page.getByRole('option', { name: 'No wake word' })).toBeVisible();
    const selectsBefore = sim.serviceCalls.length;
    await page.getByRole('option', { name: 'Hey Mycroft' }).click();
    await expect
      .poll(() => sim.serviceCalls.slice(selectsBefore).find((c) => c.service === 'select_option'))
      .toMatchObject({ domain: 'select', serviceData: { option: 'Hey Mycroft' } });

    // The server's refusal reaches the owner in words (here a 409 the device would give).
    await page.route('**/api/devices/satellite/*/control', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Office Satellite has no announce entity' }),
      }),
    );
    await page.getByLabel('Announcement').fill('Dinner is ready');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText('Office Satellite has no announce entity', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Announcement')).toHaveValue('Dinner is ready');
    await page.unroute('**/api/devices/satellite/*/control');
  });

  test('Living Room Voice has no restart button, and members cannot use admin controls', async ({
    browser,
  }) => {
    const { page } = owner;
    const living = await satelliteNamed(page, 'Living Room Voice');
    await page.goto(`/satellite-controls/${living.id}`);
    await expect(heading(page, 'Living Room Voice')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('slider', { name: 'Volume of Living Room Voice' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Restart/ })).toHaveCount(0);

    const member = await signedUp(browser, hub, 'Mia Member', page.request);
    expect(member.role).toBe('user');
    const office = await satelliteNamed(page, 'Office Satellite');
    await member.page.goto(`/satellite-controls/${office.id}`);
    await expect(heading(member.page, 'Office Satellite')).toBeVisible({ timeout: 15_000 });
    await expect(member.page.getByRole('slider', { name: 'Volume of Office Satellite' })).toBeEnabled();
    await expect(member.page.getByRole('button', { name: 'Restart Office Satellite' })).toBeDisabled();
    await expect(
      member.page.getByText('Only an administrator of this hub changes this setting.').first(),
    ).toBeVisible();
    expect(
      (
        await member.page.request.post(`/api/devices/satellite/${office.id}/control`, {
          data: { action: 'restart' },
        })
      ).status(),
    ).toBe(403);
    await member.context.close();
  });

  test('/sat1-control shows the Satellite1', async () => {
    const { page } = owner;
    await page.goto('/sat1-control');
    await expect(heading(page, 'Satellite1 Control')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('sat1-name')).toHaveText('Office Satellite');
    await expect(page.getByRole('slider', { name: 'Volume of Office Satellite' })).toBeVisible();
    await expectNoSeriousAxeViolations(page);
  });
});
