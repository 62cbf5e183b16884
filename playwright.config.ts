import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/support/chromium.js';

/**
 * Browser tests drive Debian's Chromium (scripts/ensure-test-deps.sh installs it); Playwright's
 * own browser download cannot reach its servers here. Each worker starts its own agent on a fresh
 * data directory (tests/e2e/support.ts); the spec files a worker runs one after another share it, so
 * a spec never assumes it made the hub's first (superadmin) account: it gives its accounts the roles
 * they need with the owner's command line (shell-helpers.ts setRole), or starts an agent of its own.
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
