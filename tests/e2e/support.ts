import { test as base, expect } from '@playwright/test';
import { startAgent, type RunningAgent } from '../support/agent.js';

/**
 * Each Playwright worker runs its own real agent on a fresh data directory, serving the built
 * console. Tests get `agent` (its URL and data dir) and a `page` whose baseURL points at it.
 */
export const test = base.extend<object, { agent: RunningAgent }>({
  agent: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
    async ({}, use) => {
      const agent = await startAgent();
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
