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
    // The screens read Home Assistant's state once and then every 30 s: on a loaded machine the
    // agent may still be connecting when the first test opens its screen, so wait for the connection.
    await expect
      .poll(
        async () => {
          const answer = await page.request.get('/api/ha/status');
          return answer.ok() ? ((await answer.json()) as { state: string }).state : `HTTP ${answer.status()}`;
        },
        { timeout: 30_000, message: 'the agent connects to the Home Assistant simulator' },
      )
      .toBe('connected');
    await use(account);
  },
});

export { expect };
