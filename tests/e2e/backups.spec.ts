import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { expectNoSeriousAxeViolations } from './axe.js';
import { expect, skipFirstBootWizard, test } from './support.js';

/**
 * Issue 20's backups in the browser: back up now through the dialog, the list, download, delete,
 * the schedule, a restore refused for a wrong passphrase, a full restore that restarts the agent
 * into the restored state, and the first-boot wizard restoring a fresh hub from that backup.
 */

const PASSWORD = 'correct horse battery staple';
const PASSPHRASE = 'a long backup passphrase';
/** The exit code with which the agent asks its supervisor to start it again (a restore). */
const RESTART_EXIT_CODE = 75;

/**
 * An agent that comes back when it exits with 75, on the same port and data directory, as systemd
 * or the container's restart policy would start it again: the browser keeps its address.
 */
interface RestartableHub {
  url: string;
  dataDir: string;
  current: RunningAgent;
  restarts: number;
  stop(): Promise<void>;
}

async function startRestartableHub(env: Record<string, string> = {}): Promise<RestartableHub> {
  const first = await startAgent({ env });
  let stopped = false;
  let restarting: Promise<unknown> = Promise.resolve();
  const hub: RestartableHub = {
    url: first.url,
    dataDir: first.dataDir,
    current: first,
    restarts: 0,
    async stop() {
      stopped = true;
      await restarting;
      await hub.current.stop();
    },
  };
  const watch = (agent: RunningAgent) =>
    agent.process.once('exit', (code) => {
      if (stopped || code !== RESTART_EXIT_CODE) return;
      restarting = startAgent({ dataDir: hub.dataDir, env: { ...env, PORT: String(first.port) } }).then(
        (next) => {
          hub.current = next;
          hub.restarts += 1;
          watch(next);
        },
      );
    });
  watch(first);
  return hub;
}

test.describe.configure({ mode: 'serial' });

let hub: RestartableHub;
let owner: { context: BrowserContext; page: Page; email: string };
/** The backup the full restore put back, for the first-boot wizard's restore. */
let restoredBackup: { buffer: Buffer; hubName: string } | null = null;
const cleanup: (() => Promise<unknown>)[] = [];

test.beforeAll(async ({ browser }) => {
  hub = await startRestartableHub({ NEXUS_REGISTRATION: 'open' });
  await skipFirstBootWizard(hub.url);
  owner = await register(browser, hub.url, 'owner');
});
test.afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  await owner?.context.close();
  await hub?.stop();
});

async function register(browser: Browser, url: string, tag: string) {
  const context = await browser.newContext({ baseURL: url });
  const page = await context.newPage();
  const email = `${tag}-${randomUUID().slice(0, 8)}@example.com`;
  const res = await page.request.post('/api/auth/register', {
    data: { name: `Person ${tag}`, email, password: PASSWORD },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { context, page, email };
}

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const toast = (page: Page, title: string): Locator =>
  page.locator('[data-slot=toast]').filter({ has: page.getByText(title, { exact: true }) });

async function signInThroughUi(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

async function setHubName(page: Page, hubName: string) {
  const res = await page.request.put('/api/nexus/identity', { data: { hubName, timeZone: 'UTC' } });
  expect(res.status(), await res.text()).toBe(200);
}

async function hubName(page: Page): Promise<string> {
  const res = await page.request.get('/api/nexus/overview');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { identity: { hubName: string } }).identity.hubName;
}

/** A backup made and downloaded through the API, as the file a person would pick. */
async function backupFile(page: Page): Promise<Buffer> {
  const made = await page.request.post('/api/backups', { data: { passphrase: PASSPHRASE } });
  expect(made.status(), await made.text()).toBe(201);
  const { id } = (await made.json()) as { id: string };
  const file = await page.request.get(`/api/backups/${id}/download`);
  expect(file.status()).toBe(200);
  return file.body();
}

async function chooseBackup(scope: Locator | Page, buffer: Buffer, passphrase: string) {
  await scope.getByLabel('Backup file').setInputFiles({
    name: 'hub.nexusbackup',
    mimeType: 'application/octet-stream',
    buffer,
  });
  await scope.getByLabel('Backup passphrase').fill(passphrase);
}

test('back up now through the dialog, see it listed, download it and delete it', async () => {
  const { page } = owner;
  await page.goto('/nexus-management');
  const backups = region(page, 'Backups');
  await expect(backups.getByText('No backups yet')).toBeVisible();

  await backups.getByRole('button', { name: 'Back up now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Back up this hub' });
  await expect(dialog.getByText('nobody (not the hub, not support) can recover it')).toBeVisible();
  // Too short, then two that differ: refused in the dialog, nothing sent.
  await dialog.getByLabel('Passphrase', { exact: true }).fill('short');
  await expect(dialog.getByText('Too short: use at least 10 characters')).toBeVisible();
  await dialog.getByLabel('Type the passphrase again').fill('short');
  await dialog.getByRole('button', { name: 'Make the backup' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Use a passphrase of at least 10 characters.');
  await dialog.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
  await dialog.getByLabel('Type the passphrase again').fill(`${PASSPHRASE}!`);
  await dialog.getByRole('button', { name: 'Make the backup' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The two passphrases do not match.');

  await dialog.getByLabel('Type the passphrase again').fill(PASSPHRASE);
  await dialog.getByRole('button', { name: 'Make the backup' }).click();
  await expect(toast(page, 'Backup made')).toBeVisible();
  await expect(dialog).toBeHidden();

  const rows = backups.getByRole('table').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('By hand');
  await expect(backups.getByTestId('backup-last-run')).toContainText('succeeded');
  await expectNoSeriousAxeViolations(page, 'backups section with one backup');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    rows
      .first()
      .getByRole('link', { name: /^Download the backup of/ })
      .click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.nexusbackup$/);
  const file = fs.readFileSync(await download.path());
  expect(file.subarray(0, 8).toString('latin1')).toBe('NEXUSBAK');

  await rows
    .first()
    .getByRole('button', { name: /^Delete the backup of/ })
    .click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toast(page, 'Backup deleted')).toBeVisible();
  await expect(backups.getByText('No backups yet')).toBeVisible();
});

test('the schedule: on, an hour, how many to keep, and a stored passphrase', async () => {
  const { page } = owner;
  await page.goto('/nexus-management');
  const schedule = region(page, 'Schedule');
  await expect(schedule.getByText('No passphrase stored: scheduled backups cannot run')).toBeVisible();

  // Daily by default, but it cannot run before a passphrase is stored: saving it so is refused in words.
  await expect(schedule.getByRole('switch', { name: 'Back up every day' })).toBeChecked();
  await schedule.getByRole('button', { name: 'Save the schedule' }).click();
  await expect(schedule.getByRole('alert')).toHaveText('Scheduled backups need a passphrase: set one below.');

  await schedule.getByRole('combobox', { name: 'Hour of the daily backup' }).click();
  await page.getByRole('option', { name: '05:00' }).click();
  await schedule.getByLabel('Scheduled backups to keep').fill('3');
  await schedule.getByLabel("Scheduled backups' passphrase").fill(PASSPHRASE);
  await schedule.getByLabel('Type the passphrase again').fill(PASSPHRASE);
  await expectNoSeriousAxeViolations(page, 'backup schedule being edited');
  await schedule.getByRole('button', { name: 'Save the schedule' }).click();
  await expect(toast(page, 'Schedule saved')).toBeVisible();

  await expect(schedule.getByText('A passphrase is stored for scheduled backups.')).toBeVisible();
  await expect(schedule.getByText('No passphrase stored: scheduled backups cannot run')).toHaveCount(0);
  const saved = await page.request.get('/api/backups/schedule');
  expect(await saved.json()).toMatchObject({ enabled: true, hour: 5, keep: 3, hasPassphrase: true });

  // A reload shows what was saved.
  await page.reload();
  await expect(schedule.getByRole('switch', { name: 'Back up every day' })).toBeChecked();
  await expect(schedule.getByRole('combobox', { name: 'Hour of the daily backup' })).toHaveText('05:00');
  await expect(schedule.getByLabel('Scheduled backups to keep')).toHaveValue('3');

  // Off again, the stored passphrase kept.
  await schedule.getByRole('switch', { name: 'Back up every day' }).click();
  await schedule.getByRole('button', { name: 'Save the schedule' }).click();
  await expect(toast(page, 'Schedule saved')).toBeVisible();
  expect(await (await page.request.get('/api/backups/schedule')).json()).toMatchObject({
    enabled: false,
    hasPassphrase: true,
  });
});

test('a restore with a wrong passphrase shows why and changes nothing', async () => {
  const { page } = owner;
  await setHubName(page, 'Wrong Passphrase Hub');
  const buffer = await backupFile(page);
  await page.goto('/nexus-management');
  const restore = region(page, 'Restore');
  await chooseBackup(restore, buffer, 'not the passphrase at all');
  await restore.getByRole('button', { name: 'Restore', exact: true }).click();
  await page
    .getByRole('alertdialog', { name: 'Replace everything on this hub?' })
    .getByRole('button', {
      name: 'Replace and restart',
    })
    .click();

  await expect(restore.getByRole('alert')).toContainText(/passphrase/i);
  await expect(restore.getByText('Restarting…')).toHaveCount(0);
  expect(hub.restarts).toBe(0);
  expect(await hubName(page)).toBe('Wrong Passphrase Hub');
  const list = (await (await page.request.get('/api/backups')).json()) as { pendingRestore: unknown };
  expect(list.pendingRestore).toBeNull();
});

test('a full restore restarts the hub into the backup, signs out, and waits to be kept', async () => {
  test.setTimeout(120_000);
  const { page, email } = owner;
  await setHubName(page, 'Before Restore');
  const buffer = await backupFile(page);
  await setHubName(page, 'After Restore');

  await page.goto('/nexus-management');
  const restore = region(page, 'Restore');
  await chooseBackup(restore, buffer, PASSPHRASE);
  await restore.getByRole('button', { name: 'Restore', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Replace everything on this hub?' });
  await expect(confirm).toContainText('replaces this hub');
  await confirm.getByRole('button', { name: 'Replace and restart' }).click();

  await expect(page.getByText('Restarting…')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(/from Before Restore/)).toBeVisible();
  // The agent exits (75), comes back with the restored data, and the console sends the user to sign in.
  await page.waitForURL('**/auth', { timeout: 60_000 });
  expect(hub.restarts).toBe(1);
  await signInThroughUi(page, email);
  await page.waitForURL('**/dashboard');
  expect(await hubName(page)).toBe('Before Restore');

  await page.goto('/nexus-management');
  const banner = page.getByTestId('pending-restore');
  await expect(banner).toContainText(/Restored from the backup of .+ on Before Restore/);
  await expectNoSeriousAxeViolations(page, 'pending restore banner');
  await banner.getByRole('button', { name: 'Keep restored data' }).click();
  await expect(toast(page, 'Restored data kept')).toBeVisible();
  await expect(banner).toHaveCount(0);
  restoredBackup = { buffer, hubName: 'Before Restore' };
});

test('"Go back" after a restore restarts the hub with the data it had before', async () => {
  test.setTimeout(120_000);
  const { page, email } = owner;
  await setHubName(page, 'In The Backup');
  const buffer = await backupFile(page);
  await setHubName(page, 'Before The Restore');
  const restarts = hub.restarts;
  const res = await page.request.post('/api/backups/restore', {
    multipart: {
      passphrase: PASSPHRASE,
      file: { name: 'hub.nexusbackup', mimeType: 'application/octet-stream', buffer },
    },
  });
  expect(res.status(), await res.text()).toBe(202);
  await expect.poll(() => hub.restarts, { timeout: 60_000 }).toBe(restarts + 1);

  await page.goto('/auth');
  await page.request.post('/api/auth/logout');
  await page.reload();
  await signInThroughUi(page, email);
  await page.waitForURL('**/dashboard');
  expect(await hubName(page)).toBe('In The Backup');
  await page.goto('/nexus-management');
  const banner = page.getByTestId('pending-restore');
  await expect(banner).toContainText('on In The Backup');
  await banner.getByRole('button', { name: 'Go back' }).click();
  await page
    .getByRole('alertdialog', { name: 'Go back to the data from before the restore?' })
    .getByRole('button', { name: 'Go back and restart' })
    .click();
  await expect(page.getByText('Restarting…')).toBeVisible({ timeout: 15_000 });
  await page.waitForURL('**/auth', { timeout: 60_000 });
  expect(hub.restarts).toBe(restarts + 2);
  await signInThroughUi(page, email);
  await page.waitForURL('**/dashboard');
  expect(await hubName(page)).toBe('Before The Restore');
  await page.goto('/nexus-management');
  await expect(page.getByRole('region', { name: 'Backups', exact: true })).toBeVisible();
  await expect(page.getByTestId('pending-restore')).toHaveCount(0);
});

test('the first-boot wizard restores a fresh hub from a backup', async ({ browser }) => {
  test.setTimeout(120_000);
  expect(restoredBackup, 'the full restore test makes the backup this one restores').not.toBeNull();
  const fresh = await startRestartableHub();
  cleanup.push(() => fresh.stop());
  const context = await browser.newContext({ baseURL: fresh.url });
  cleanup.push(() => context.close());
  const page = await context.newPage();

  await page.goto('/');
  await page.waitForURL('**/install');
  await page.getByRole('button', { name: 'Restore from a backup' }).click();
  await expect(page.getByRole('heading', { name: 'Restore from a backup' })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'wizard restore step');

  // A wrong passphrase first: the answer in words, and the fresh hub still needs setting up.
  await chooseBackup(page, restoredBackup!.buffer, 'not the passphrase at all');
  await page.getByRole('button', { name: 'Restore this backup' }).click();
  await expect(page.getByRole('alert')).toContainText(/passphrase/i);
  const status = await page.request.get('/api/setup/status');
  expect(await status.json()).toMatchObject({ needsSetup: true });

  await page.getByLabel('Backup passphrase').fill(PASSPHRASE);
  await page.getByRole('button', { name: 'Restore this backup' }).click();
  await expect(page.getByText('Restarting…')).toBeVisible({ timeout: 15_000 });
  await page.waitForURL('**/auth', { timeout: 60_000 });
  expect(fresh.restarts).toBe(1);

  // The old hub's owner signs in on the new one.
  await signInThroughUi(page, owner.email);
  await page.waitForURL('**/dashboard');
  expect(await hubName(page)).toBe(restoredBackup!.hubName);
});
