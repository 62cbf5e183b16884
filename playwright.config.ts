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
  // A screen's first render waits for its code, which a 2-core CI machine running two browsers and
  // their agents can take longer than Playwright's 5 s to fetch and run; a passing test never waits
  // for the timeout, so a longer one costs nothing there.
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    // A failed test keeps its trace: actions, DOM snapshots, network and console. Not its screencast:
    // capturing frames throughout every test took about 40 % of the suite's CPU (two spec files,
    // one worker: 59 s of CPU with it, 38 s without, 34 s with no trace at all), and on a 2-core
    // machine that starved the browsers and agents into timeouts.
    trace: { mode: 'retain-on-failure', screenshots: false },
  },
});
