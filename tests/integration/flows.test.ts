import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { startHomeAssistantSim, type HomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { startOllamaApiSim, type OllamaApiSim } from '../fixtures/ollama-api-sim.js';
import { waitFor } from '../support/wait-for.js';
import { silentWav } from '../support/wav.js';

/** The run records in this file take up to 15 s to settle on a loaded machine. */
const waitForRun = <T>(
  probe: () => Promise<T> | T,
  accept: (value: T) => boolean,
  opts: { timeoutMs?: number; what?: string } = {},
) => waitFor(probe, accept, { timeoutMs: 15_000, ...opts });

/** A plain HTTP endpoint for http_request stages: records requests, answers with the queued statuses. */
async function startEchoServer() {
  const requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const statuses: number[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    const status = statuses.shift() ?? 200;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: status < 400, echoed: body }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    statuses,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const MODEL = 'llama3.2:3b';

let agent: RunningAgent;
let ollama: OllamaApiSim;
let ha: HomeAssistantSim;
let echo: Awaited<ReturnType<typeof startEchoServer>>;
let owner: Client;
let alice: Client;
let bob: Client;
let aliceAccount: { email: string; password: string; role: string };

beforeAll(async () => {
  ollama = await startOllamaApiSim({ models: [{ name: MODEL, size: 2_019_393_189, loaded: true }] });
  ha = await startHomeAssistantSim();
  echo = await startEchoServer();
  agent = await startAgent({ env: { OLLAMA_URL: ollama.url, HA_URL: ha.url, HA_TOKEN: ha.token } });
  owner = new Client(agent.url);
  await signUp(owner, { name: 'Owner' });
  alice = new Client(agent.url);
  aliceAccount = await signUp(alice, { name: 'Alice' });
  expect(aliceAccount.role).toBe('user');
  bob = new Client(agent.url);
  await signUp(bob, { name: 'Bob' });
  // The echo server is on loopback, which members' http_request stages reach only when an admin allows it.
  const allowed = await owner.put('/api/settings/outbound', { allowList: [new URL(echo.url).host] });
  expect(allowed.status, allowed.text).toBe(200);
});

afterAll(async () => {
  await agent?.stop();
  await ollama?.stop();
  await ha?.stop();
  await echo?.stop();
});

const summariseFlow = {
  name: 'Summarise posts',
  trigger: { type: 'webhook' },
  stages: [
    {
      id: 'summary',
      name: 'Summarise',
      kind: 'llm',
      config: { prompt: 'Summarise: {{trigger.text}}', model: MODEL },
    },
    {
      id: 'tell',
      name: 'Notify me',
      kind: 'notify',
      config: { title: 'Summary', body: '{{stages.summary.text}}' },
    },
  ],
};

async function createFlow(client: Client, flow: unknown) {
  const res = await client.post('/api/flows', flow);
  expect(res.status, res.text).toBe(201);
  return res.json;
}

describe('flows', () => {
  it('stores flows per user; others get 404, admins see every flow, bad input is a 400', async () => {
    const flow = await createFlow(alice, summariseFlow);
    expect(flow).toMatchObject({ name: 'Summarise posts', status: 'draft', version: 1 });
    expect(flow.webhook.productionPath).toMatch(new RegExp(`^/api/hooks/${flow.id}/[A-Za-z0-9_-]{20,}$`));

    expect((await bob.get(`/api/flows/${flow.id}`)).status).toBe(404);
    expect((await bob.get('/api/flows')).json.some((f: any) => f.id === flow.id)).toBe(false);
    expect((await owner.get('/api/flows')).json.some((f: any) => f.id === flow.id)).toBe(true);
    expect((await new Client(agent.url).get('/api/flows')).status).toBe(401);

    const bad = [
      { ...summariseFlow, stages: [{ id: 'x', name: 'X', kind: 'teleport', config: {} }] },
      { ...summariseFlow, stages: [{ id: 'x', name: 'X', kind: 'llm', config: {} }] },
      { ...summariseFlow, trigger: { type: 'schedule', cron: 'every day' } },
      { ...summariseFlow, trigger: { type: 'schedule', cron: '61 * * * *' } },
      { ...summariseFlow, trigger: { type: 'schedule', cron: '0 7 * * *', timezone: 'Mars/Olympus' } },
      {
        ...summariseFlow,
        stages: [
          { id: 'a', name: 'A', kind: 'notify', config: { title: 'x' } },
          {
            id: 'b',
            name: 'B',
            kind: 'condition',
            config: { value: 'x', otherwise: { action: 'goto', stageId: 'a' } },
          },
        ],
      },
      { ...summariseFlow, stages: [summariseFlow.stages[0], summariseFlow.stages[0]] },
      'not json',
    ];
    for (const body of bad) {
      const res = await alice.post('/api/flows', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.json.message).toBe('string');
    }
    expect((await alice.get('/api/flows/abc')).status).toBe(400);
    expect((await alice.put(`/api/flows/${flow.id}/status`, { status: 'paused' })).status).toBe(400);
  });

  it('webhook: production URL runs an active flow with the body; test URL only while listening; wrong secret 404', async () => {
    const flow = await createFlow(alice, summariseFlow);
    const prod = flow.webhook.productionPath as string;
    const anonymous = new Client(agent.url);

    expect((await anonymous.post(prod, { text: 'early' })).status).toBe(404);
    expect((await anonymous.post(`${flow.webhook.testPath}`, { text: 'early' })).status).toBe(404);

    const listening = await alice.post(`/api/flows/${flow.id}/webhook/listen`);
    expect(listening.json.webhook.listeningUntil).not.toBeNull();
    const test = await anonymous.post(`${flow.webhook.testPath}?wait=true`, { text: 'The test event text.' });
    expect(test.status, test.text).toBe(200);
    expect(test.json).toMatchObject({ trigger: 'webhook_test', status: 'succeeded' });
    // One event per listen, as in n8n.
    expect((await anonymous.post(flow.webhook.testPath, { text: 'again' })).status).toBe(404);

    expect((await alice.put(`/api/flows/${flow.id}/status`, { status: 'active' })).json.status).toBe(
      'active',
    );
    const run = await anonymous.post(`${prod}?wait=true`, { text: 'The kettle is broken again.' });
    expect(run.status, run.text).toBe(200);
    expect(run.json.status).toBe('succeeded');
    expect(run.json.input).toEqual({ text: 'The kettle is broken again.' });
    const [llm, notify] = run.json.stages;
    expect(llm).toMatchObject({ stageId: 'summary', status: 'succeeded' });
    expect(llm.input.prompt).toBe('Summarise: The kettle is broken again.');
    expect(llm.output.model).toBe(MODEL);
    expect(llm.output.text).toContain('The kettle is broken again.');
    expect(typeof llm.durationMs).toBe('number');
    expect(ollama.chatRequests.at(-1)?.messages.at(-1)?.content).toBe(
      'Summarise: The kettle is broken again.',
    );
    expect(notify.status).toBe('succeeded');
    const notifications = (await alice.get('/api/notifications')).json;
    const list = notifications.notifications ?? notifications;
    expect(JSON.stringify(list)).toContain('The kettle is broken again.');

    // Answering at once, the run is recorded as it finishes.
    const started = await anonymous.post(prod, { text: 'Later.' });
    expect(started.status).toBe(202);
    await waitForRun(
      async () => (await alice.get(`/api/flows/runs/${started.json.id}`)).json,
      (r) => r.status === 'succeeded',
      { what: 'async webhook run' },
    );

    const wrong = prod.replace(/[^/]+$/, 'not-the-secret');
    expect((await anonymous.post(wrong, { text: 'x' })).status).toBe(404);
    expect((await anonymous.post(`/api/hooks/999999/whatever`, { text: 'x' })).status).toBe(404);
    expect((await anonymous.post(prod, '{broken', { 'content-type': 'application/json' })).status).toBe(400);
    // Someone else's runs are not theirs to read.
    expect((await bob.get(`/api/flows/runs/${run.json.id}`)).status).toBe(404);
  });

  it('a failing stage fails the run with its error and skips the rest; retry resumes from it', async () => {
    const flow = await createFlow(alice, {
      name: 'Post then notify',
      trigger: { type: 'api' },
      stages: [
        { id: 'first', name: 'Say hi', kind: 'notify', config: { title: 'hi {{trigger.who}}' } },
        {
          id: 'post',
          name: 'Post it',
          kind: 'http_request',
          config: { method: 'POST', url: `${echo.url}/hook`, body: '{"who":"{{trigger.who}}"}' },
        },
        { id: 'done', name: 'Tell me', kind: 'notify', config: { title: 'posted: {{stages.post.status}}' } },
      ],
    });
    echo.statuses.push(500);
    const failed = await alice.post(`/api/flows/${flow.id}/run?wait=true`, { input: { who: 'Ada' } });
    expect(failed.status, failed.text).toBe(200);
    expect(failed.json.status).toBe('failed');
    expect(failed.json.error).toContain('Post it');
    expect(failed.json.error).toContain('500');
    expect(failed.json.stages.map((s: any) => s.status)).toEqual(['succeeded', 'failed', 'skipped']);
    expect(failed.json.stages[1].output.status).toBe(500);
    expect(echo.requests.at(-1)?.body).toBe('{"who":"Ada"}');

    const retried = await alice.post(`/api/flows/runs/${failed.json.id}/retry?wait=true`);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.json).toMatchObject({ trigger: 'retry', status: 'succeeded', retryOf: failed.json.id });
    expect(retried.json.stages[0]).toMatchObject({ status: 'succeeded', reused: true });
    expect(retried.json.stages[2].input.title).toBe('posted: 200');
    expect((await alice.post(`/api/flows/runs/${retried.json.id}/retry`)).status).toBe(409);

    const replayed = await alice.post(`/api/flows/runs/${failed.json.id}/replay?wait=true`);
    expect(replayed.json).toMatchObject({ trigger: 'replay', status: 'succeeded', input: { who: 'Ada' } });
    expect(replayed.json.stages[0].reused).toBeUndefined();

    // Without a model and without a router rule for pipelines, the LLM stage says what to set.
    const unrouted = await createFlow(alice, {
      name: 'No model',
      trigger: { type: 'api' },
      stages: [{ id: 'ask', name: 'Ask', kind: 'llm', config: { prompt: 'hi' } }],
    });
    const noModel = await alice.post(`/api/flows/${unrouted.id}/run?wait=true`);
    expect(noModel.json.status).toBe('failed');
    expect(noModel.json.error).toContain("router's pipeline rule");

    // A summarising stage goes by the router's summarise rule, which an admin sets.
    const summarising = await createFlow(alice, {
      name: 'Summary by rule',
      trigger: { type: 'api' },
      stages: [
        {
          id: 'sum',
          name: 'Sum up',
          kind: 'llm',
          config: { prompt: 'Sum up: {{trigger.text}}', task: 'summarise' },
        },
      ],
    });
    const unset = await alice.post(`/api/flows/${summarising.id}/run?wait=true`);
    expect(unset.json.error).toContain("router's summarise rule");
    const providers = (await owner.get('/api/llm/providers')).json.providers as {
      id: number;
      builtIn: boolean;
    }[];
    const ollamaId = providers.find((p) => p.builtIn)!.id;
    const saved = await owner.put('/api/llm/router/rules/summarise', {
      targets: [{ providerId: ollamaId, model: MODEL }],
      timeoutMs: 5000,
    });
    expect(saved.status, saved.text).toBe(200);
    const routed = await alice.post(`/api/flows/${summarising.id}/run?wait=true`, {
      input: { text: 'a long day' },
    });
    expect(routed.json.status, JSON.stringify(routed.json)).toBe('succeeded');
    expect(routed.json.stages[0].input).toMatchObject({ task: 'summarise' });
    expect(routed.json.stages[0].output.model).toBe(MODEL);
    expect((await owner.request('DELETE', '/api/llm/router/rules/summarise')).status).toBeLessThan(300);

    // A stage that cannot reach its host fails the same way.
    const unreachable = await createFlow(alice, {
      name: 'Unreachable',
      trigger: { type: 'api' },
      stages: [
        {
          id: 'post',
          name: 'Post',
          kind: 'http_request',
          config: { url: 'http://127.0.0.1:1/x', timeoutMs: 2000 },
        },
        { id: 'never', name: 'Never', kind: 'notify', config: { title: 'never' } },
      ],
    });
    const down = await alice.post(`/api/flows/${unreachable.id}/run?wait=true`);
    expect(down.json.status).toBe('failed');
    expect(down.json.stages.map((s: any) => s.status)).toEqual(['failed', 'skipped']);
  });

  it('a condition stops the run or jumps ahead', async () => {
    const flow = await createFlow(alice, {
      name: 'Only lights',
      trigger: { type: 'api' },
      stages: [
        {
          id: 'check',
          name: 'Mentions a light?',
          kind: 'condition',
          config: {
            value: '{{trigger.text}}',
            operator: 'contains',
            compareTo: 'light',
            otherwise: { action: 'goto', stageId: 'fallback' },
          },
        },
        { id: 'yes', name: 'Yes', kind: 'notify', config: { title: 'light: {{trigger.text}}' } },
        { id: 'fallback', name: 'Always', kind: 'notify', config: { title: 'done' } },
      ],
    });
    const yes = await alice.post(`/api/flows/${flow.id}/run?wait=true`, {
      input: { text: 'Turn on the Light' },
    });
    expect(yes.json.stages.map((s: any) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const no = await alice.post(`/api/flows/${flow.id}/run?wait=true`, { input: { text: 'play music' } });
    expect(no.json.status).toBe('succeeded');
    expect(no.json.stages.map((s: any) => s.status)).toEqual(['succeeded', 'skipped', 'succeeded']);
    expect(no.json.stages[0].output).toEqual({ passed: false });
  });

  it('API keys: shown once, hashed at rest, scoped to flows, revocable, rate limited', async () => {
    const lights = await createFlow(alice, {
      name: 'Kitchen light',
      trigger: { type: 'api' },
      stages: [
        {
          id: 'on',
          name: 'Light on',
          kind: 'ha_call',
          config: {
            domain: 'light',
            service: 'turn_on',
            entityId: '{{trigger.entity}}',
            data: '{"brightness_pct": {{trigger.level}}}',
          },
        },
      ],
    });
    const other = await createFlow(alice, { name: 'Other', trigger: { type: 'api' }, stages: [] });
    const bobs = await createFlow(bob, { name: 'Bobs', trigger: { type: 'api' }, stages: [] });

    expect((await alice.post('/api/flows/api-keys', { name: 'x', flowIds: [bobs.id] })).status).toBe(400);
    expect((await alice.post('/api/flows/api-keys', { name: 'x', flowIds: [] })).status).toBe(400);
    const created = await alice.post('/api/flows/api-keys', { name: 'Kitchen tablet', flowIds: [lights.id] });
    expect(created.status, created.text).toBe(201);
    const key: string = created.json.key;
    expect(key).toMatch(/^nxf_[A-Za-z0-9_-]{40,}$/);
    expect(key.startsWith(created.json.apiKey.prefix)).toBe(true);
    const listed = (await alice.get('/api/flows/api-keys')).json;
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(key);
    expect((await bob.get('/api/flows/api-keys')).json).toHaveLength(0);

    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    const rows = db.prepare('select * from flow_api_keys').all() as Record<string, unknown>[];
    db.close();
    expect(JSON.stringify(rows)).not.toContain(key.slice(10));
    expect(rows[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);

    const program = new Client(agent.url, { authorization: `Bearer ${key}` });
    // Draft flows do not run from outside.
    expect((await program.post(`/api/flows/${lights.id}/run`, { input: {} })).status).toBe(409);
    await alice.put(`/api/flows/${lights.id}/status`, { status: 'active' });
    const before = ha.serviceCalls.length;
    const run = await program.post(`/api/flows/${lights.id}/run?wait=true`, {
      input: { entity: 'light.kitchen_ceiling', level: 40 },
    });
    expect(run.status, run.text).toBe(200);
    expect(run.json).toMatchObject({ trigger: 'api', status: 'succeeded' });
    await waitForRun(
      () => ha.serviceCalls.length,
      (n) => n > before,
      { what: 'the service call' },
    );
    const call = ha.serviceCalls.at(-1)!;
    expect(call).toMatchObject({ domain: 'light', service: 'turn_on', serviceData: { brightness_pct: 40 } });
    expect(call.target.entity_id).toEqual(['light.kitchen_ceiling']);

    expect((await program.post(`/api/flows/${other.id}/run`, { input: {} })).status).toBe(403);
    const stranger = new Client(agent.url, { authorization: 'Bearer nxf_not-a-key' });
    expect((await stranger.post(`/api/flows/${lights.id}/run`, { input: {} })).status).toBe(401);
    expect(
      (await program.post(`/api/flows/${lights.id}/run`, '[', { 'content-type': 'application/json' })).status,
    ).toBe(400);

    // The burst allowance runs out: 429 with Retry-After.
    let limited: Awaited<ReturnType<Client['post']>> | null = null;
    for (let i = 0; i < 40 && !limited; i++) {
      const res = await program.post(`/api/flows/${lights.id}/run`, {
        input: { entity: 'light.kitchen_ceiling', level: 1 },
      });
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(202);
    }
    expect(limited?.headers.get('retry-after')).toMatch(/^\d+$/);

    expect((await bob.post(`/api/flows/api-keys/${created.json.apiKey.id}/revoke`)).status).toBe(404);
    const revoked = await alice.post(`/api/flows/api-keys/${created.json.apiKey.id}/revoke`);
    expect(revoked.json.revokedAt).not.toBeNull();
    expect((await program.post(`/api/flows/${lights.id}/run`, { input: {} })).status).toBe(401);
  });

  it('schedule: next five runs shown; an active schedule flow runs on its own and stops when drafted', async () => {
    const preview = await alice.get(
      '/api/flows/schedule/preview?cron=0%207%20*%20*%201-5&timezone=Europe%2FBerlin',
    );
    expect(preview.status).toBe(200);
    expect(preview.json.nextRuns).toHaveLength(5);
    // 07:00 in Berlin is 05:00 or 06:00 UTC depending on daylight saving.
    for (const when of preview.json.nextRuns) expect(new Date(when).getUTCHours()).toBeOneOf([5, 6]);
    expect((await alice.get('/api/flows/schedule/preview?cron=nope')).status).toBe(400);

    const flow = await createFlow(alice, {
      name: 'Every second',
      trigger: { type: 'schedule', cron: '* * * * * *', timezone: 'UTC' },
      stages: [
        { id: 'tick', name: 'Tick', kind: 'notify', config: { title: 'tick at {{trigger.firedAt}}' } },
      ],
    });
    expect(flow.nextRuns).toHaveLength(5);
    await alice.put(`/api/flows/${flow.id}/status`, { status: 'active' });
    const runs = await waitForRun(
      async () => (await alice.get(`/api/flows/${flow.id}/runs`)).json,
      (list: any[]) => list.some((r) => r.trigger === 'schedule' && r.status === 'succeeded'),
      { what: 'a scheduled run' },
    );
    expect(runs[0].stages[0].input.title).toMatch(/^tick at \d{4}-/);
    await alice.put(`/api/flows/${flow.id}/status`, { status: 'draft' });
    // Drafting stops the job; a tick already in flight still finishes.
    await waitForRun(
      async () => (await alice.get(`/api/flows/${flow.id}/runs`)).json,
      (list: any[]) => list.every((r) => r.status !== 'running'),
      { what: 'the last tick to finish' },
    );
    expect((await alice.get(`/api/flows/${flow.id}`)).json.status).toBe('draft');
  });

  it('keeps every save as a version and restores one', async () => {
    const flow = await createFlow(alice, { ...summariseFlow, name: 'Versioned' });
    await alice.put(`/api/flows/${flow.id}`, { ...summariseFlow, name: 'Versioned v2' });
    await alice.put(`/api/flows/${flow.id}`, { ...summariseFlow, name: 'Versioned v3', stages: [] });
    const versions = (await alice.get(`/api/flows/${flow.id}/versions`)).json;
    expect(versions.map((v: any) => [v.version, v.name, v.stageCount])).toEqual([
      [3, 'Versioned v3', 0],
      [2, 'Versioned v2', 2],
      [1, 'Versioned', 2],
    ]);
    const restored = await alice.post(`/api/flows/${flow.id}/versions/1/restore`);
    expect(restored.json).toMatchObject({ name: 'Versioned', version: 4 });
    expect(restored.json.stages).toHaveLength(2);
    expect((await alice.post(`/api/flows/${flow.id}/versions/99/restore`)).status).toBe(404);
    expect((await bob.get(`/api/flows/${flow.id}/versions`)).status).toBe(404);
  });

  it('secret headers are sealed, used, never returned, kept on save and left out of exports', async () => {
    const flow = await createFlow(alice, {
      name: 'With a token',
      trigger: { type: 'api' },
      stages: [
        {
          id: 'call',
          name: 'Call',
          kind: 'http_request',
          config: {
            method: 'GET',
            url: `${echo.url}/secret`,
            headers: [
              { name: 'Authorization', value: 'Bearer s3cret-token-value', secret: true },
              { name: 'X-Plain', value: 'visible' },
            ],
          },
        },
      ],
    });
    expect(JSON.stringify(flow)).not.toContain('s3cret');
    expect(flow.stages[0].config.headers[0]).toMatchObject({ value: '', secret: true, hasValue: true });

    // Saving without the value keeps it.
    const resaved = await alice.put(`/api/flows/${flow.id}`, {
      name: 'With a token',
      trigger: { type: 'api' },
      stages: flow.stages,
    });
    expect(resaved.status, resaved.text).toBe(200);
    const run = await alice.post(`/api/flows/${flow.id}/run?wait=true`);
    expect(run.json.status).toBe('succeeded');
    expect(echo.requests.at(-1)?.headers.authorization).toBe('Bearer s3cret-token-value');
    expect(echo.requests.at(-1)?.headers['x-plain']).toBe('visible');
    expect(JSON.stringify(run.json)).not.toContain('s3cret');

    const exported = await alice.get(`/api/flows/${flow.id}/export`);
    expect(exported.json.format).toBe('nexus-flow');
    expect(exported.text).not.toContain('s3cret');
    expect(exported.text).not.toContain('hasValue');

    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    const stored =
      JSON.stringify(db.prepare('select * from flows').all()) +
      JSON.stringify(db.prepare('select * from flow_versions').all());
    db.close();
    expect(stored).not.toContain('s3cret');

    const imported = await bob.post('/api/flows/import', exported.json);
    expect(imported.status, imported.text).toBe(201);
    expect(imported.json.ownerName).toBe('Bob');
    expect(imported.json.stages[0].config.headers[0]).toMatchObject({ secret: true, hasValue: false });
    expect((await bob.post('/api/flows/import', { format: 'other', flow: {} })).status).toBe(400);
  });

  it('named secrets: {{secrets.NAME}} in a URL and body, sealed, masked in runs, kept on save, names-only in exports', async () => {
    const token = 'tok-9f8e7d6c5b4a';
    const flow = await createFlow(alice, {
      name: 'Named secret',
      trigger: { type: 'api' },
      secrets: [{ name: 'SERVICE_TOKEN', value: token }],
      stages: [
        {
          id: 'call',
          name: 'Call',
          kind: 'http_request',
          config: {
            method: 'POST',
            url: `${echo.url}/hook?key={{secrets.SERVICE_TOKEN}}`,
            body: '{"auth":"{{secrets.SERVICE_TOKEN}}","who":"{{trigger.who}}"}',
          },
        },
      ],
    });
    expect(flow.secrets).toEqual([{ name: 'SERVICE_TOKEN', value: '', hasValue: true }]);
    expect(JSON.stringify(flow)).not.toContain(token);

    const run = await alice.post(`/api/flows/${flow.id}/run?wait=true`, { input: { who: 'Ada' } });
    expect(run.json.status, JSON.stringify(run.json)).toBe('succeeded');
    // The service got the value; the run's record shows only a mask.
    expect(echo.requests.at(-1)?.url).toBe(`/hook?key=${token}`);
    expect(echo.requests.at(-1)?.body).toBe(`{"auth":"${token}","who":"Ada"}`);
    expect(JSON.stringify(run.json)).not.toContain(token);
    expect(run.json.stages[0].input.url).toBe(`${echo.url}/hook?key=••••`);

    // Saving without the value (or without the list at all) keeps it.
    const { id: _id, ...definition } = flow;
    for (const secrets of [[{ name: 'SERVICE_TOKEN' }], undefined]) {
      const saved = await alice.put(`/api/flows/${flow.id}`, {
        name: definition.name,
        trigger: definition.trigger,
        stages: definition.stages,
        secrets,
      });
      expect(saved.status, saved.text).toBe(200);
      expect(saved.json.secrets).toEqual([{ name: 'SERVICE_TOKEN', value: '', hasValue: true }]);
    }
    expect((await alice.post(`/api/flows/${flow.id}/run?wait=true`, { input: {} })).json.status).toBe(
      'succeeded',
    );

    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    const stored = JSON.stringify([
      db.prepare('select * from flows').all(),
      db.prepare('select * from flow_versions').all(),
      db.prepare('select * from flow_runs').all(),
    ]);
    db.close();
    expect(stored).not.toContain(token);

    // Exports name the secret without its value; an import has to be given it before runs work.
    const exported = await alice.get(`/api/flows/${flow.id}/export`);
    expect(exported.json.flow.secrets).toEqual([{ name: 'SERVICE_TOKEN', value: '' }]);
    expect(exported.text).not.toContain(token);
    const imported = await bob.post('/api/flows/import', exported.json);
    expect(imported.status, imported.text).toBe(201);
    expect(imported.json.secrets).toEqual([{ name: 'SERVICE_TOKEN', value: '', hasValue: false }]);
    const unset = await bob.post(`/api/flows/${imported.json.id}/run?wait=true`, { input: {} });
    expect(unset.json.status).toBe('failed');
    expect(unset.json.stages[0].error).toBe(
      "The secret SERVICE_TOKEN has no value: set it under the flow's Secrets",
    );

    // Bad names and short values are refused with the field named.
    const bad = await alice.post('/api/flows', {
      name: 'Bad secrets',
      trigger: { type: 'api' },
      secrets: [
        { name: '1st', value: 'long enough' },
        { name: 'OK', value: 'abc' },
      ],
      stages: [],
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json.details)).toContain('secrets');
  });

  it('voice: a WAV body starts the run and keeps the clip; without speech services VAD fails clearly', async () => {
    const flow = await createFlow(alice, {
      name: 'Voice',
      trigger: { type: 'voice' },
      stages: [
        { id: 'vad', name: 'Trim', kind: 'vad', config: {} },
        { id: 'stt', name: 'Transcribe', kind: 'stt', config: {} },
      ],
    });
    const wav = silentWav(0.1);
    const res = await fetch(`${agent.url}/api/flows/${flow.id}/run?wait=true`, {
      method: 'POST',
      headers: { 'content-type': 'audio/wav', cookie: `nexus_session=${alice.cookie('nexus_session')}` },
      body: wav,
    });
    const run = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(run.trigger).toBe('voice');
    expect(run.hasClip).toBe(true);
    expect(run.input).toEqual({ audio: { bytes: wav.length, format: 'wav' } });
    expect(['failed']).toContain(run.status);
    expect(run.stages[1].status).toBe('skipped');
    const clip = await fetch(`${agent.url}/api/flows/runs/${run.id}/audio`, {
      headers: { cookie: `nexus_session=${alice.cookie('nexus_session')}` },
    });
    expect(clip.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await clip.arrayBuffer()).equals(wav)).toBe(true);

    const notWav = await fetch(`${agent.url}/api/flows/${flow.id}/run`, {
      method: 'POST',
      headers: { 'content-type': 'audio/wav', cookie: `nexus_session=${alice.cookie('nexus_session')}` },
      body: Buffer.from('definitely not a wav file'),
    });
    expect(notWav.status).toBe(415);
    const tooLarge = await fetch(`${agent.url}/api/flows/${flow.id}/run`, {
      method: 'POST',
      headers: { 'content-type': 'audio/wav', cookie: `nexus_session=${alice.cookie('nexus_session')}` },
      body: Buffer.alloc(11 * 1024 * 1024),
    });
    expect(tooLarge.status).toBe(413);
    expect((await bob.get(`/api/flows/runs/${run.id}/audio`)).status).toBe(404);
  });

  it('streams a run stage by stage to its owner over the live channel, and to no one else', async () => {
    const flow = await createFlow(alice, {
      name: 'Live',
      trigger: { type: 'api' },
      stages: [
        { id: 'a', name: 'A', kind: 'notify', config: { title: 'a' } },
        { id: 'b', name: 'B', kind: 'notify', config: { title: 'b' } },
      ],
    });
    const topic = `flows.${flow.id}.runs`;
    const open = async (client: Client) => {
      const socket = new WebSocket(`${agent.url.replace('http', 'ws')}/api/live`, {
        headers: { cookie: `nexus_session=${client.cookie('nexus_session')}` },
      });
      const messages: any[] = [];
      socket.on('message', (raw) => messages.push(JSON.parse(raw.toString())));
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      socket.send(JSON.stringify({ type: 'subscribe', topic }));
      await waitForRun(
        () => messages,
        (m) => m.some((x) => x.type === 'subscribed' || x.type === 'error'),
      );
      return { socket, messages };
    };
    const mine = await open(alice);
    const theirs = await open(bob);
    expect(mine.messages.some((m) => m.type === 'subscribed')).toBe(true);
    expect(theirs.messages.some((m) => m.type === 'error')).toBe(true);

    const run = await alice.post(`/api/flows/${flow.id}/run?wait=true`);
    const events = await waitForRun(
      () => mine.messages.filter((m) => m.type === 'event' && m.topic === topic && m.data.id === run.json.id),
      (list) => list.some((e) => e.data.status === 'succeeded'),
      { what: 'the finished run event' },
    );
    const statuses = events.map((e) => e.data.stages.map((s: any) => s.status).join(','));
    expect(statuses).toContain('running,pending');
    expect(statuses).toContain('succeeded,running');
    expect(statuses.at(-1)).toBe('succeeded,succeeded');
    mine.socket.close();
    theirs.socket.close();
  });

  it('a flow can do no more in Home Assistant than its owner may', async () => {
    const restart = {
      name: 'Restart HA',
      trigger: { type: 'api' },
      stages: [
        {
          id: 'r',
          name: 'Restart',
          kind: 'ha_call',
          config: { domain: 'homeassistant', service: 'restart' },
        },
      ],
    };
    const mine = await createFlow(alice, restart);
    const refused = await alice.post(`/api/flows/${mine.id}/run?wait=true`);
    expect(refused.json.status).toBe('failed');
    expect(refused.json.error).toContain('Only administrators may call homeassistant services');
    const before = ha.serviceCalls.length;
    const admins = await createFlow(owner, restart);
    const allowed = await owner.post(`/api/flows/${admins.id}/run?wait=true`);
    expect(allowed.json.status, JSON.stringify(allowed.json)).toBe('succeeded');
    expect(
      ha.serviceCalls.slice(before).some((c) => c.domain === 'homeassistant' && c.service === 'restart'),
    ).toBe(true);
  });

  it("a member's ha_call stage reaches only what an admin allows members", async () => {
    const coffee = {
      name: 'Coffee',
      trigger: { type: 'api' },
      stages: [
        {
          id: 'c',
          name: 'Coffee on',
          kind: 'ha_call',
          config: { domain: 'switch', service: 'turn_on', entityId: 'switch.coffee_maker' },
        },
      ],
    };
    const flow = await createFlow(alice, coffee);
    const before = ha.serviceCalls.length;
    const refused = await alice.post(`/api/flows/${flow.id}/run?wait=true`);
    expect(refused.json.status).toBe('failed');
    expect(refused.json.error).toContain(
      'Members may not control switch.coffee_maker; an admin can allow it',
    );
    expect(ha.serviceCalls.length).toBe(before);

    const access = '/api/settings/home-assistant/member-access';
    expect((await owner.put(access, { domains: ['light'], entities: ['switch.coffee_maker'] })).status).toBe(
      200,
    );
    try {
      const allowed = await alice.post(`/api/flows/${flow.id}/run?wait=true`);
      expect(allowed.json.status, JSON.stringify(allowed.json)).toBe('succeeded');
      expect(ha.serviceCalls.at(-1)).toMatchObject({
        domain: 'switch',
        service: 'turn_on',
        target: { entity_id: ['switch.coffee_maker'] },
      });
    } finally {
      expect((await owner.put(access, { domains: ['light'], entities: [] })).status).toBe(200);
    }
  });

  it('keeps the newest 200 runs of a flow', async () => {
    const flow = await createFlow(alice, {
      name: 'Busy',
      trigger: { type: 'api' },
      stages: [{ id: 'c', name: 'Check', kind: 'condition', config: { value: 'x', operator: 'not_empty' } }],
    });
    const ids: number[] = [];
    for (let batch = 0; batch < 21; batch++) {
      const runs = await Promise.all(
        Array.from({ length: 10 }, () => alice.post(`/api/flows/${flow.id}/run?wait=true`)),
      );
      ids.push(...runs.map((r) => r.json.id as number));
    }
    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    const kept = db.prepare('select id from flow_runs where flow_id = ? order by id').all(flow.id) as {
      id: number;
    }[];
    db.close();
    ids.sort((a, b) => a - b);
    expect(kept).toHaveLength(200);
    expect(kept.map((r) => r.id)).toEqual(ids.slice(-200));
    expect((await alice.get(`/api/flows/runs/${ids[0]}`)).status).toBe(404);
    expect((await alice.get(`/api/flows/${flow.id}/runs`)).json).toHaveLength(50);
  });

  it('deleting a flow removes it, its runs and its webhook', async () => {
    const flow = await createFlow(alice, summariseFlow);
    await alice.put(`/api/flows/${flow.id}/status`, { status: 'active' });
    expect((await bob.delete(`/api/flows/${flow.id}`)).status).toBe(404);
    expect((await alice.delete(`/api/flows/${flow.id}`)).status).toBe(204);
    expect((await alice.get(`/api/flows/${flow.id}`)).status).toBe(404);
    expect((await new Client(agent.url).post(flow.webhook.productionPath, { text: 'x' })).status).toBe(404);
  });
  it('schedules start again with the agent; runs cut off by a stop are marked failed', async () => {
    const flow = await createFlow(alice, {
      name: 'Survives restarts',
      trigger: { type: 'schedule', cron: '* * * * * *', timezone: 'UTC' },
      stages: [{ id: 'tick', name: 'Tick', kind: 'notify', config: { title: 'tick' } }],
    });
    await alice.put(`/api/flows/${flow.id}/status`, { status: 'active' });
    await waitForRun(
      async () => (await alice.get(`/api/flows/${flow.id}/runs`)).json,
      (list: any[]) => list.length > 0,
      { what: 'a first scheduled run' },
    );
    const dataDir = agent.dataDir;
    await agent.stop();
    const db = new Database(path.join(dataDir, 'nexus.db'));
    const lastBefore = (db.prepare('select max(id) as id from flow_runs').get() as { id: number }).id;
    // As if the agent had died in the middle of a run.
    db.prepare("update flow_runs set status = 'running', finished_at = null where id = ?").run(lastBefore);
    db.close();

    agent = await startAgent({
      dataDir,
      env: { OLLAMA_URL: ollama.url, HA_URL: ha.url, HA_TOKEN: ha.token },
    });
    alice = new Client(agent.url);
    const login = await alice.post('/api/auth/login', {
      email: aliceAccount.email,
      password: aliceAccount.password,
    });
    expect(login.status, login.text).toBe(200);
    const runs = await waitForRun(
      async () => (await alice.get(`/api/flows/${flow.id}/runs`)).json,
      (list: any[]) =>
        list.some((r) => r.id > lastBefore && r.trigger === 'schedule' && r.status === 'succeeded'),
      { what: 'a scheduled run after the restart' },
    );
    const cut = runs.find((r: any) => r.id === lastBefore);
    expect(cut).toMatchObject({
      status: 'failed',
      error: 'The agent stopped while this run was in progress',
    });
    await alice.put(`/api/flows/${flow.id}/status`, { status: 'draft' });
  });
});
