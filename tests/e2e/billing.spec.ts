import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { expectNoSeriousAxeViolations } from './axe.js';
import { createAccount, type Account } from './shell-helpers.js';
import { expect, skipFirstBootWizard, test } from './support.js';

/**
 * Issue 22's screens against a real agent that trusts a vendor key made here (never committed):
 * activation from a licence file, from the store's activation link, refusals said in words, the
 * billing screen, the purchase history with its receipts, the grace banner and deactivation.
 */

const vendor = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('ed25519');
const DAY = 86_400;
const nowS = () => Math.floor(Date.now() / 1000);

interface Payload {
  lid: string;
  hub: string;
  plan: 'pro' | 'max';
  iat: number;
  exp: number;
  nbf?: number;
}

/** The format: NXL1.<base64url JSON>.<base64url Ed25519 signature of "NXL1.<payload>">. */
function licenceKey(payload: Payload, privateKey: KeyObject = vendor.privateKey): string {
  const signed = `NXL1.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${signed}.${sign(null, Buffer.from(signed, 'ascii'), privateKey).toString('base64url')}`;
}

const lid = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}`;

test.describe.configure({ mode: 'serial' });

let agent: RunningAgent;
let hubId: string;
let owner: { context: BrowserContext; page: Page };
let memberAccount: Account;
const keyFile = `/tmp/nexus-billing-e2e-${randomUUID()}.lic`;

async function contextFor(browser: Browser, account: Account) {
  const context = await browser.newContext({ baseURL: agent.url, acceptDownloads: true });
  await context.addCookies(account.cookies);
  return { context, page: await context.newPage() };
}

test.beforeAll(async ({ browser }) => {
  agent = await startAgent({
    env: {
      NEXUS_REGISTRATION: 'open',
      NEXUS_LICENCE_PUBLIC_KEY: vendor.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    },
  });
  await skipFirstBootWizard(agent.url);
  // The first account of a hub is its superadmin; the next is a member.
  owner = await contextFor(browser, await createAccount(agent, { name: 'Olive Owner' }));
  memberAccount = await createAccount(agent, { name: 'Milo Member' });
  const res = await owner.page.request.get('/api/subscription/status');
  expect(res.status()).toBe(200);
  hubId = ((await res.json()) as { hubId: string }).hubId;
});
test.afterAll(async () => {
  fs.rmSync(keyFile, { force: true });
  await owner?.context.close();
  await agent?.stop();
});

const keyField = (page: Page) => page.getByRole('textbox', { name: 'Licence key' });

test('checkout without a store says how to get a key, with the hub id; refused keys say why', async () => {
  const { page } = owner;
  await page.goto('/checkout');
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  // On the trial the Pro card is the current plan.
  await expect(page.getByTestId('plan-pro')).toContainText('Current plan (trial)');
  await expect(page.getByTestId('plan-free')).not.toContainText('Current plan');
  await expect(page.getByRole('region', { name: 'How to get a licence key' })).toContainText(
    'no store configured',
  );
  await expect(page.getByTestId('hub-id')).toHaveText(hubId);
  await expect(page.getByRole('link', { name: 'Get a Pro key' })).toHaveAttribute('href', '#get-a-key');

  const refused = page.getByTestId('activation-refused');
  const tryKey = async (key: string) => {
    await keyField(page).fill(key);
    await page.getByRole('button', { name: 'Activate licence' }).click();
  };
  const base = { lid: lid('refused'), hub: hubId, plan: 'pro' as const, iat: nowS() - DAY };

  await tryKey('not a licence key');
  await expect(refused).toContainText('This is not a licence key');
  await tryKey(licenceKey({ ...base, hub: 'some-other-hub', exp: nowS() + 30 * DAY }));
  await expect(refused).toContainText('This key was made for another hub');
  await tryKey(licenceKey({ ...base, exp: nowS() + 30 * DAY }, stranger.privateKey));
  await expect(refused).toContainText('was not signed by the vendor');
  await tryKey(licenceKey({ ...base, exp: nowS() - 30 * DAY }));
  await expect(refused).toContainText('This key has expired');
  await tryKey(licenceKey({ ...base, nbf: nowS() + 10 * DAY, exp: nowS() + 40 * DAY }));
  await expect(refused).toContainText('This key is not valid yet');
  await expectNoSeriousAxeViolations(page, '/checkout with a refusal');

  // Nothing of that was activated.
  await page.goto('/purchase-history');
  await expect(page.getByText('No licences yet')).toBeVisible();
});

const proLid = lid('pro');
const maxLid = lid('max');

test('a licence file chosen on /checkout activates Pro and the card is marked current', async () => {
  const { page } = owner;
  const exp = nowS() + 365 * DAY;
  // A licence file as a mail client may save it: the key wrapped over lines, with a final newline.
  const key = licenceKey({ lid: proLid, hub: hubId, plan: 'pro', iat: nowS() - 60, exp });
  fs.writeFileSync(keyFile, `${key.slice(0, 50)}\n${key.slice(50)}\n`);
  await page.goto('/checkout');
  await page.getByLabel('Licence file').setInputFiles(keyFile);
  await expect(keyField(page)).toHaveValue(key);
  await page.getByRole('button', { name: 'Activate licence' }).click();
  const result = page.getByTestId('activation-result');
  await expect(result).toContainText('Pro is active on this hub');
  await expect(result).toContainText(proLid);
  await expect(page.getByTestId('plan-pro').getByText('Current plan', { exact: true })).toBeVisible();
});

test('the activation link pre-fills the key and activates only once the admin confirms', async () => {
  const { page } = owner;
  const key = licenceKey({ lid: maxLid, hub: hubId, plan: 'max', iat: nowS() - 60, exp: nowS() + 400 * DAY });
  await page.goto(`/nexus-activation?key=${encodeURIComponent(key)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Nexus Activation' })).toBeVisible();
  await expect(page.getByTestId('hub-id')).toHaveText(hubId);
  await expect(page.getByTestId('link-confirm')).toContainText('Activate the licence from this link?');
  await expect(keyField(page)).toHaveValue(key);
  // Not activated by opening the link.
  await expect(page.getByTestId('activation-plan')).toHaveText('Pro');
  await expectNoSeriousAxeViolations(page, '/nexus-activation?key=…');
  await page.getByRole('button', { name: 'Activate this licence' }).click();
  await expect(page.getByTestId('activation-result')).toContainText('Max is active on this hub');
  await expect(page.getByTestId('activation-plan')).toHaveText('Max');
});

test('billing shows the plan, the licence, the usage against each limit and the 30-day chart', async () => {
  const { page } = owner;
  await page.goto('/billing');
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  await expect(page.getByTestId('current-plan')).toHaveText('Max');
  await expect(page.getByTestId('licence-lid')).toHaveText(maxLid);
  const plan = page.getByRole('region', { name: 'Plan', exact: true });
  await expect(plan).toContainText(hubId);
  await expect(plan.getByRole('button', { name: 'Deactivate licence' })).toBeVisible();
  const usage = page.getByRole('region', { name: 'Usage this month' });
  await expect(usage.getByTestId('limit-aiMessages')).toContainText('Unlimited');
  await expect(usage.getByTestId('limit-vpnAccess')).toContainText('Included');
  await expect(page.getByTestId('usage-chart')).toBeVisible();
  await expect(page.getByTestId('usage-chart').locator('.recharts-wrapper')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Change plan' })).toHaveAttribute('href', '/checkout');
  await expect(page.getByRole('link', { name: 'Purchase history' })).toHaveAttribute(
    'href',
    '/purchase-history',
  );
  await expectNoSeriousAxeViolations(page, '/billing');
});

test('the purchase history lists both licences and downloads a receipt; members see no receipts', async ({
  browser,
}) => {
  const { page } = owner;
  await page.goto('/purchase-history');
  const max = page.getByTestId(`licence-${maxLid}`);
  const pro = page.getByTestId(`licence-${proLid}`);
  await expect(max).toContainText('In force');
  await expect(pro).toContainText('Replaced');
  await expectNoSeriousAxeViolations(page, '/purchase-history');
  const download = page.waitForEvent('download');
  await max.getByRole('link', { name: `Receipt for licence ${maxLid}` }).click();
  const file = await download;
  const text = fs.readFileSync((await file.path())!, 'utf8');
  expect(text).toContain(maxLid);
  expect(text).toContain(hubId);

  const member = await contextFor(browser, memberAccount);
  try {
    await member.page.goto('/purchase-history');
    await expect(member.page.getByTestId(`licence-${maxLid}`)).toContainText('Administrators only');
    await expect(member.page.getByRole('link', { name: /Receipt for licence/ })).toHaveCount(0);
    await member.page.goto('/checkout');
    await expect(member.page.getByText('Activating a licence needs an administrator.')).toBeVisible();
    await expect(keyField(member.page)).toBeDisabled();
    await member.page.goto('/billing');
    await expect(member.page.getByTestId('current-plan')).toHaveText('Max');
    await expect(member.page.getByRole('button', { name: 'Deactivate licence' })).toHaveCount(0);
  } finally {
    await member.context.close();
  }
});

test('deactivation explains that nothing is deleted and returns the hub to the trial', async () => {
  const { page } = owner;
  await page.goto('/billing');
  await page.getByRole('button', { name: 'Deactivate licence' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Deactivate this licence?' });
  await expect(dialog).toContainText('Nothing is deleted');
  await expect(dialog).toContainText('goes back to the trial');
  await dialog.getByRole('button', { name: 'Deactivate licence' }).click();
  await expect(page.getByTestId('current-plan')).toHaveText('Pro');
  await expect(page.getByText('Free Trial Active')).toBeVisible();
  await expect(page.getByText('No licence is active on this hub.')).toBeVisible();
  await page.goto('/purchase-history');
  await expect(page.getByTestId(`licence-${maxLid}`)).toContainText('Deactivated');
  await page.goto('/dashboard');
  await expect(
    page.getByRole('region', { name: 'Subscription' }).getByText('Free Trial Active'),
  ).toBeVisible();
});

test('a licence past its expiry shows the grace banner on the dashboard and on billing', async () => {
  const { page } = owner;
  // Expires two seconds after activation: then it is in its 14 days of grace.
  const exp = nowS() + 2;
  const key = licenceKey({ lid: lid('grace'), hub: hubId, plan: 'pro', iat: nowS() - 60, exp });
  const res = await page.request.post('/api/subscription/licence', { data: { key } });
  expect(res.status(), await res.text()).toBe(200);
  await expect
    .poll(async () => {
      const status = await page.request.get('/api/subscription/status');
      return ((await status.json()) as { licence: { inGrace: boolean } | null }).licence?.inGrace;
    })
    .toBe(true);
  await page.goto('/dashboard');
  const banner = page.getByRole('region', { name: 'Subscription' }).getByTestId('grace-banner');
  await expect(banner).toContainText('Your licence expired on');
  await expect(banner).toContainText('it keeps working until');
  await page.goto('/billing');
  await expect(page.getByTestId('grace-banner')).toBeVisible();
  await expectNoSeriousAxeViolations(page, '/billing in grace');
});

test('on Free the bars show each limit, amber from 80 %, and the chart splits cloud from local', async () => {
  const { page } = owner;
  // The grace licence of the previous test goes, and the trial ended yesterday: Free is in force.
  expect((await page.request.delete('/api/subscription/licence')).status()).toBe(200);
  const today = new Date().toISOString().slice(0, 10);
  const db = new Database(path.join(agent.dataDir, 'nexus.db'));
  try {
    db.prepare('update subscription set trial_ends_at = ?').run(Date.now() - DAY * 1000);
    // 85 of Free's 100 cloud messages this month, and local ones that never count.
    const insert = db.prepare(
      'insert into ai_usage_events (user_id, model, provider_name, model_class, day, at) values (1, ?, ?, ?, ?, ?)',
    );
    for (let i = 0; i < 85; i++) insert.run('gpt-4o-mini', 'OpenAI', 'cloud', today, Date.now());
    for (let i = 0; i < 7; i++) insert.run('llama3.2', 'Ollama', 'local', today, Date.now());
  } finally {
    db.close();
  }
  await page.goto('/billing');
  await expect(page.getByTestId('current-plan')).toHaveText('Free');
  const messages = page.getByTestId('limit-aiMessages');
  await expect(messages).toContainText('85 of 100');
  const bar = messages.getByRole('progressbar');
  await expect(bar).toHaveAccessibleName('Cloud AI messages this month: 85 of 100 (85%)');
  await expect(bar).toHaveAttribute('data-warning', 'true');
  await expect(messages).toContainText('85% used');
  const entities = page.getByTestId('limit-homeAssistantEntities').getByRole('progressbar');
  await expect(entities).toHaveAccessibleName(/^Home Assistant entities: \d+ of 50/);
  await expect(entities).not.toHaveAttribute('data-warning', 'true');
  await expect(page.getByTestId('limit-vpnAccess')).toContainText('Not included');
  await expect(page.getByTestId('usage-chart')).toHaveAccessibleName(
    'AI messages per day over the last 30 days: 85 answered by cloud models, 7 by models on this hub',
  );
  await expect(page.getByTestId('usage-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expectNoSeriousAxeViolations(page, '/billing on Free past 80 %');
  // The Free card is the current plan at checkout, and the dashboard offers the upgrade.
  await page.goto('/checkout');
  await expect(page.getByTestId('plan-free').getByText('Current plan', { exact: true })).toBeVisible();
  await expectNoSeriousAxeViolations(page, '/checkout on Free');
});

test('with a store configured, "Buy" opens it in a new tab with this hub and the plan', async ({
  browser,
}) => {
  const shop = await startAgent({
    env: { NEXUS_REGISTRATION: 'open', NEXUS_LICENCE_STORE_URL: 'https://store.example/buy?ref=hub' },
  });
  try {
    await skipFirstBootWizard(shop.url);
    const account = await createAccount(shop, { name: 'Store Owner' });
    const context = await browser.newContext({ baseURL: shop.url });
    await context.addCookies(account.cookies);
    const page = await context.newPage();
    const id = ((await (await page.request.get('/api/subscription/status')).json()) as { hubId: string })
      .hubId;
    await page.goto('/checkout');
    // Only the link's address is checked: the test never leaves loopback.
    const buy = page.getByRole('link', { name: /^Buy Max/ });
    await expect(buy).toHaveAttribute('target', '_blank');
    await expect(buy).toHaveAttribute('rel', 'noopener noreferrer');
    const href = new URL((await buy.getAttribute('href'))!);
    expect(`${href.origin}${href.pathname}`).toBe('https://store.example/buy');
    expect(Object.fromEntries(href.searchParams)).toEqual({ ref: 'hub', hub: id, plan: 'max' });
    await expect(page.getByRole('region', { name: 'How to get a licence key' })).toHaveCount(0);
    await context.close();
  } finally {
    await shop.stop();
  }
});
