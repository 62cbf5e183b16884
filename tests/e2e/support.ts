import { test as base, expect } from '@playwright/test';
import { startAgent, type RunningAgent } from '../support/agent.js';

/**
 * A fresh hub sends every visitor to the first-boot wizard (/install) until an account exists.
 * The specs test the console after that moment, so their hub skips the wizard for the sign-in
 * screen, as an owner may (POST /api/setup/skip); the first account registered is still the
 * superadmin. Specs of the wizard itself start their own agents (tests/e2e/install.spec.ts).
 */
export async function skipFirstBootWizard(agentUrl: string): Promise<void> {
  const res = await fetch(`${agentUrl}/api/setup/skip`, { method: 'POST' });
  // 409: nothing to skip any more (already skipped, or an account exists), which is what was wanted.
  if (!res.ok && res.status !== 409) {
    throw new Error(`skipping the setup wizard failed: ${res.status} ${await res.text()}`);
  }
}

/**
 * Each Playwright worker runs its own real agent on a fresh data directory, serving the built
 * console. Tests get `agent` (its URL and data dir) and a `page` whose baseURL points at it.
 */
export const test = base.extend<object, { agent: RunningAgent }>({
  agent: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
    async ({}, use) => {
      // The specs of this worker share the hub, each as a new visitor who registers: registration is
      // open here on purpose (invite mode, the default, is tested in registration.spec.ts).
      const agent = await startAgent({ env: { NEXUS_REGISTRATION: 'open' } });
      await skipFirstBootWizard(agent.url);
      await use(agent);
      await agent.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ agent }, use) => {
    await use(agent.url);
  },
});

export { expect };
