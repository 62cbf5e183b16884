/**
 * Takes the README's screenshot: a real agent on a fresh data directory, an owner account, and the
 * dashboard in Debian's Chromium at 1280 × 800 (light theme), with this machine's live figures.
 *
 *   npm run build && npx tsx scripts/readme-screenshot.ts [out.png]
 */
import { chromium } from '@playwright/test';
import { startAgent } from '../tests/support/agent.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/chromium.js';

const out = process.argv[2] ?? 'docs/images/dashboard.png';
const agent = await startAgent({ env: { NEXUS_REGISTRATION: 'open' } });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  await fetch(`${agent.url}/api/setup/skip`, { method: 'POST' });
  const context = await browser.newContext({ baseURL: agent.url, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const registered = await page.request.post('/api/auth/register', {
    data: { name: 'Olive Owner', email: 'olive@example.com', password: 'correct horse battery staple' },
  });
  if (!registered.ok()) throw new Error(`registering failed: ${registered.status()}`);
  await page.goto('/dashboard');
  // The live figures have arrived when the CPU load shows a percentage and no card is loading.
  await page
    .getByText(/^\d+%$/)
    .first()
    .waitFor({ timeout: 15_000 });
  await page.locator('[aria-busy="true"]').waitFor({ state: 'detached', timeout: 15_000 });
  await page.screenshot({ path: out });
  process.stdout.write(`wrote ${out}\n`);
} finally {
  await browser.close();
  await agent.stop();
}
