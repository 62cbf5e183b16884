import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOW_TEMPLATES } from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { Recordings } from '../fixtures/recordings.js';

/**
 * Issue 21: FlowForge's templates on a fresh hub (no Ollama, no Home Assistant, no speech
 * services). Each one either runs, or its run says which service it needs and where that service is
 * set up, by the console path of the fix; never a message that names nothing a person can do.
 */

/** The console paths that set up the services a template may need. */
const FIXES = ['/nexus-deploy?app=ollama', '/nexus-deploy?app=wyoming-whisper', '/ha-connection-setup'];

let agent: RunningAgent;
let owner: Client;
const recordings = new Recordings();

beforeAll(async () => {
  // Nothing answers at these loopback ports: the hub's Ollama and Home Assistant are not there.
  agent = await startAgent({ env: { OLLAMA_URL: 'http://127.0.0.1:9', HA_URL: '' } });
  owner = new Client(agent.url);
  await signUp(owner, { name: 'Owner' });
});

afterAll(async () => {
  await agent?.stop();
  recordings.cleanup();
});

describe('every FlowForge template on a fresh hub', () => {
  for (const template of FLOW_TEMPLATES) {
    it(`${template.id} runs, or names the service it needs and its link`, async () => {
      const created = await owner.post('/api/flows', template.flow);
      expect(created.status, created.text).toBe(201);
      const id = created.json.id as number;
      const run =
        template.flow.trigger.type === 'voice'
          ? await fetch(`${agent.url}/api/flows/${id}/run?wait=true`, {
              method: 'POST',
              headers: {
                'content-type': 'audio/wav',
                cookie: `nexus_session=${owner.cookie('nexus_session')}`,
              },
              // A spoken command, so the run gets past the silence trim to the services.
              body: fs.readFileSync(recordings.speak('turn on the kitchen light')),
            }).then(async (res) => ({ status: res.status, text: '', json: (await res.json()) as any }))
          : await owner.post(`/api/flows/${id}/run?wait=true`, {
              input: { text: 'The boiler was serviced.' },
            });
      expect(run.status, JSON.stringify(run.json)).toBe(200);
      if (run.json.status === 'succeeded') return;
      expect(run.json.status).toBe('failed');
      const failed = (run.json.stages as { status: string; error: string | null }[]).find(
        (s) => s.status === 'failed',
      );
      expect(failed?.error, JSON.stringify(run.json)).toBeTruthy();
      expect(
        FIXES.some((fix) => failed!.error!.includes(fix)),
        `"${failed!.error}" should name the service and the page that sets it up`,
      ).toBe(true);
      // The template says up front what it needs, with the same link.
      expect(template.needs.map((n) => n.href).some((href) => failed!.error!.includes(href))).toBe(true);
    });
  }
});
