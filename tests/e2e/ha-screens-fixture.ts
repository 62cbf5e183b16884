import { test as base, expect } from '@playwright/test';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { startHomeAssistantSim, type HomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { createAccount, signIn, type Account } from './shell-helpers.js';
import { skipFirstBootWizard } from './support.js';

/**
 * The issue-19 screens (/automations, /smart-home-devices, /integrations) against the HA
 * simulator: one agent per worker, connected to its own simulator through HA_URL and HA_TOKEN
 * (the connection screens themselves are home-assistant.spec.ts's), with an admin signed in.
 */
export const test = base.extend<{ admin: Account }, { haAgent: RunningAgent; sim: HomeAssistantSim }>({
  sim: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
    async ({}, use) => {
      const sim = await startHomeAssistantSim();
      await use(sim);
      await sim.stop();
    },
    { scope: 'worker' },
  ],
  haAgent: [
    async ({ sim }, use) => {
      const agent = await startAgent({
        env: { HA_URL: sim.url, HA_TOKEN: sim.token, NEXUS_REGISTRATION: 'open' },
      });
      await skipFirstBootWizard(agent.url);
      await use(agent);
      await agent.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ haAgent }, use) => {
    await use(haAgent.url);
  },
  admin: async ({ haAgent, page }, use) => {
    const account = await createAccount(haAgent, { name: 'Ada Admin', role: 'admin' });
    await signIn(page, account);
    await use(account);
  },
});

export { expect };
