import { defineConfig } from '@playwright/test';

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
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
  },
});
