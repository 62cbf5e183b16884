import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/support/chromium.js';

/**
 * Browser tests drive Debian's Chromium (scripts/ensure-test-deps.sh installs it); Playwright's
 * own browser download cannot reach its servers here. Each spec file starts its own agent on a
 * fresh data directory (tests/e2e/support.ts), so specs never share accounts.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
});
