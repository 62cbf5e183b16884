import path from 'node:path';
import Database from 'better-sqlite3';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatStreamEventSchema,
  llmModelListSchema,
  subscriptionStatusSchema,
  subscriptionUsageSchema,
  type ChatStreamEvent,
} from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { waitFor } from '../support/wait-for.js';
import { silentWav } from '../support/wav.js';
import { startOllamaApiSim, type OllamaApiSim } from '../fixtures/ollama-api-sim.js';
import { startOpenAiSim, type OpenAiSim } from '../fixtures/openai-sim.js';
import { startHomeAssistantSim, type HomeAssistantSim } from '../fixtures/home-assistant-sim.js';

/**
 * Issue 22: every plan limit at its edge, against the real agent and the simulators. The plan is
 * switched as time would switch it: the trial (Pro) ending moves the hub to Free.
 */

const CLOUD_KEY = 'sk-sim-plan-limits-0123456789';
const DAY = 24 * 60 * 60 * 1000;

let agent: RunningAgent;
let ollama: OllamaApiSim;
let cloud: OpenAiSim;
let ha: HomeAssistantSim;
let owner: Client;

interface ChatResult {
  status: number;
  json?: any;
  events: ChatStreamEvent[];
  text: string;
}

async function chat(
  body: unknown,
  opts: { signal?: AbortSignal; onEvent?: (e: ChatStreamEvent) => void } = {},
): Promise<ChatResult> {
  const res = await fetch(`${owner.baseUrl}/api/llm/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `nexus_session=${owner.cookie('nexus_session')}` },
    body: JSON.stringify(body),
    signal: opts.signal,
  });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: res.status, json: await res.json(), events: [], text: '' };
  }
  const events: ChatStreamEvent[] = [];
  const reader = res
    .body!.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const event = chatStreamEventSchema.parse(JSON.parse(value.data));
    events.push(event);
    opts.onEvent?.(event);
  }
  const text = events.map((e) => (e.type === 'delta' ? e.content : '')).join('');
  return { status: res.status, events, text };
}

const say = (model: string, content: string) => ({ model, messages: [{ role: 'user', content }] });

function withDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(path.join(agent.dataDir, 'nexus.db'));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** The trial (Pro) ends or runs: the hub's plan is Free or Pro. */
function setPlan(plan: 'free' | 'pro') {
  withDb((db) =>
    db
      .prepare('update subscription set trial_ends_at = ?')
      .run(Date.now() + (plan === 'free' ? -DAY : 10 * DAY)),
  );
}

async function status() {
  return subscriptionStatusSchema.parse((await owner.get('/api/subscription/status')).json);
}

beforeAll(async () => {
  ollama = await startOllamaApiSim({
    models: [
      { name: 'llama3.2:3b', size: 2_019_393_189, loaded: true },
      { name: 'qwen2.5:7b', size: 4_683_087_332 },
    ],
  });
  cloud = await startOpenAiSim({ apiKey: CLOUD_KEY, models: ['gpt-4o-mini'] });
  ha = await startHomeAssistantSim();
  agent = await startAgent({ env: { OLLAMA_URL: ollama.url, HA_URL: ha.url, HA_TOKEN: ha.token } });
  owner = new Client(agent.url);
  await signUp(owner, { name: 'Olive Owner' });
  const created = await owner.post('/api/llm/providers', {
    kind: 'openai',
    name: 'cloud',
    baseUrl: cloud.baseUrl,
    apiKey: CLOUD_KEY,
    priority: 50,
  });
  expect(created.status, created.text).toBe(201);
});

afterAll(async () => {
  await agent?.stop();
  await Promise.all([ollama?.close(), cloud?.close(), ha?.stop()]);
});

describe('parallelProcessing: the cloud queue', () => {
  it('on Free a second cloud chat waits with position 1, then answers after the first', async () => {
    setPlan('free');
    const before = cloud.chatRequests.length;
    cloud.firstChunkDelayMs = 1500;
    const firstEvents: string[] = [];
    const first = chat(say('gpt-4o-mini', 'first'), { onEvent: (e) => firstEvents.push(e.type) });
    await waitFor(() => cloud.chatRequests.length === before + 1, Boolean);
    cloud.firstChunkDelayMs = 0;
    const secondEvents: ChatStreamEvent[] = [];
    let firstDoneWhenSecondStarted: boolean | null = null;
    const second = chat(say('gpt-4o-mini', 'second'), {
      onEvent: (e) => {
        if (e.type === 'meta') firstDoneWhenSecondStarted = firstEvents.includes('done');
        secondEvents.push(e);
      },
    });
    await waitFor(() => secondEvents.length > 0, Boolean);
    expect(secondEvents[0]).toEqual({ type: 'queued', position: 1 });
    // The second has not reached the cloud while the first holds the turn.
    expect(cloud.chatRequests.length).toBe(before + 1);
    const [a, b] = await Promise.all([first, second]);
    expect(a.events.at(-1)).toMatchObject({ type: 'done' });
    expect(a.events.some((e) => e.type === 'queued')).toBe(false);
    expect(b.text).toBe('Cloud gpt-4o-mini says: second');
    expect(b.events.map((e) => e.type)).toEqual(['queued', 'meta', ...b.events.slice(2).map((e) => e.type)]);
    expect(firstDoneWhenSecondStarted).toBe(true);
  });

  it('a waiting chat that is cancelled leaves the queue; a failing one does not block the next', async () => {
    setPlan('free');
    const before = cloud.chatRequests.length;
    cloud.firstChunkDelayMs = 1500;
    const first = chat(say('gpt-4o-mini', 'holding'));
    await waitFor(() => cloud.chatRequests.length === before + 1, Boolean);
    cloud.firstChunkDelayMs = 0;
    const cancel = new AbortController();
    let queued = false;
    const gone = chat(say('gpt-4o-mini', 'never mind'), {
      signal: cancel.signal,
      onEvent: (e) => (queued ||= e.type === 'queued'),
    }).catch((err: unknown) => err);
    await waitFor(() => queued, Boolean);
    cancel.abort();
    await gone;
    await first;
    // The cancelled chat never reached the cloud.
    expect(cloud.chatRequests.slice(before).map((r) => r.messages.at(-1)?.content)).toEqual(['holding']);
    // A cloud failure gives the turn back.
    cloud.failStatus = 500;
    const failed = await chat(say('gpt-4o-mini', 'fails'));
    cloud.failStatus = null;
    expect(failed.status).toBe(502);
    const next = await chat(say('gpt-4o-mini', 'after the failure'));
    expect(next.text).toBe('Cloud gpt-4o-mini says: after the failure');
  });

  it('on Pro two cloud chats run at once', async () => {
    setPlan('pro');
    const before = cloud.chatRequests.length;
    cloud.firstChunkDelayMs = 1000;
    const both = Promise.all([chat(say('gpt-4o-mini', 'one')), chat(say('gpt-4o-mini', 'two'))]);
    // Both reach the cloud while neither has answered.
    await waitFor(() => cloud.chatRequests.length === before + 2, Boolean);
    cloud.firstChunkDelayMs = 0;
    const results = await both;
    for (const r of results) {
      expect(r.events.some((e) => e.type === 'queued')).toBe(false);
      expect(r.events.at(-1)).toMatchObject({ type: 'done' });
    }
  });
});

describe('parallelProcessing in flows', () => {
  it('a flow’s LLM stage waiting for the cloud shows its place in the queue, then answers', async () => {
    setPlan('free');
    const before = cloud.chatRequests.length;
    cloud.firstChunkDelayMs = 1500;
    const holding = chat(say('gpt-4o-mini', 'holding the turn'));
    await waitFor(() => cloud.chatRequests.length === before + 1, Boolean);
    cloud.firstChunkDelayMs = 0;
    const flow = (
      await owner.post('/api/flows', {
        name: 'Ask the cloud',
        trigger: { type: 'api' },
        stages: [
          { id: 'ask', name: 'Ask', kind: 'llm', config: { model: 'gpt-4o-mini', prompt: 'from a flow' } },
        ],
      })
    ).json;
    const started = await owner.post(`/api/flows/${flow.id}/run`);
    expect(started.status, started.text).toBe(202);
    const waiting = await waitFor(
      async () => (await owner.get(`/api/flows/runs/${started.json.id}`)).json,
      (run) => run.stages[0]?.output?.waiting !== undefined,
    );
    expect(waiting.stages[0]).toMatchObject({ status: 'running', output: { waiting: { position: 1 } } });
    await holding;
    const done = await waitFor(
      async () => (await owner.get(`/api/flows/runs/${started.json.id}`)).json,
      (run) => run.status !== 'running',
    );
    expect(done.status).toBe('succeeded');
    expect(done.stages[0].output).toMatchObject({ text: 'Cloud gpt-4o-mini says: from a flow' });
  });
});

describe('aiMessages: cloud messages per month', () => {
  it('answers the 100th cloud message on Free, refuses the 101st with 429, and local models keep answering', async () => {
    setPlan('free');
    const used = (await status()).usage.aiMessages;
    expect(used).toBeGreaterThan(0);
    const today = new Date().toISOString().slice(0, 10);
    withDb((db) => {
      const insert = db.prepare(
        `insert into ai_usage_events (user_id, model, provider_name, model_class, day, at) values (999, 'gpt-4o-mini', 'cloud', 'cloud', ?, ?)`,
      );
      for (let i = used; i < 99; i++) insert.run(today, Date.now());
    });
    expect((await status()).usage).toEqual({ aiMessages: 99, remainingMessages: 1 });
    expect((await status()).warnings).toContainEqual({
      limit: 'aiMessages',
      used: 99,
      allowed: 100,
      upgradeTo: 'pro',
    });

    const last = await chat(say('gpt-4o-mini', 'the hundredth'));
    expect(last.events.at(-1)).toMatchObject({ type: 'done' });
    expect((await status()).usage).toEqual({ aiMessages: 100, remainingMessages: 0 });

    const refused = await chat(say('gpt-4o-mini', 'one more'));
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({
      message: expect.stringMatching(
        /used all 100 cloud AI messages of the Free plan this month.*Upgrade to Pro to lift this limit\./,
      ),
      details: { limit: 'aiMessages', used: 100, allowed: 100, plan: 'free', upgradeTo: 'pro' },
    });

    // The hub's own model is never limited.
    const local = await chat(say('llama3.2:3b', 'still here?'));
    expect(local.events.at(-1)).toMatchObject({ type: 'done' });
    expect((await status()).usage.aiMessages).toBe(100);

    const usage = subscriptionUsageSchema.parse((await owner.get('/api/subscription/usage?days=30')).json);
    expect(usage.days).toHaveLength(30);
    expect(usage.days.at(-1)).toMatchObject({ date: today });
    expect(usage.days.at(-1)!.cloudMessages).toBeGreaterThanOrEqual(100);
    expect(usage.days.at(-1)!.localMessages).toBeGreaterThanOrEqual(1);
    expect(usage.limits[0]).toEqual({ limit: 'aiMessages', used: 100, allowed: 100 });
    expect((await owner.get('/api/subscription/usage?days=0')).status).toBe(400);
    expect((await new Client(agent.url).get('/api/subscription/usage')).status).toBe(401);

    // Pro lifts it.
    setPlan('pro');
    expect((await chat(say('gpt-4o-mini', 'on Pro'))).events.at(-1)).toMatchObject({ type: 'done' });
  });
});

describe('maxModels: extra models become read-only when the trial ends, nothing is deleted', () => {
  it('keeps both models listed, the oldest usable and the other refused with 403 until Pro again', async () => {
    setPlan('pro');
    const onPro = llmModelListSchema.parse((await owner.get('/api/llm/models')).json);
    const local = (name: string, list: typeof onPro) =>
      list.models.find((m) => m.name === name && m.modelClass === 'local')!;
    expect(local('llama3.2:3b', onPro).allowed).toBe(true);
    expect(local('qwen2.5:7b', onPro).allowed).toBe(true);

    setPlan('free');
    const onFree = llmModelListSchema.parse((await owner.get('/api/llm/models')).json);
    expect(local('llama3.2:3b', onFree).allowed).toBe(true);
    expect(local('qwen2.5:7b', onFree).allowed).toBe(false);
    const refused = await chat(say('qwen2.5:7b', 'hello'));
    expect(refused.status).toBe(403);
    expect(refused.json.details).toEqual({
      limit: 'maxModels',
      used: 2,
      allowed: 1,
      plan: 'free',
      upgradeTo: 'pro',
    });
    expect(refused.json.message).toMatch(/qwen2\.5:7b is kept but read-only.*Upgrade to Pro/);
    expect((await chat(say('llama3.2:3b', 'hello'))).events.at(-1)).toMatchObject({ type: 'done' });
    const pull = await owner.post('/api/llm/pulls', { model: 'tinyllama:1.1b' });
    expect(pull.status).toBe(403);
    expect(pull.json.details).toMatchObject({ limit: 'maxModels', used: 2, allowed: 1 });
    // Nothing deleted: the models are still on the hub.
    expect(ollama.requests.some((r: string) => r.startsWith('DELETE'))).toBe(false);
    expect((await status()).warnings).toContainEqual({
      limit: 'maxModels',
      used: 2,
      allowed: 1,
      upgradeTo: 'pro',
    });

    setPlan('pro');
    expect((await chat(say('qwen2.5:7b', 'back again'))).events.at(-1)).toMatchObject({ type: 'done' });
  });
});

describe('homeAssistantEntities: what automations act on', () => {
  it('on Free a flow acts on the 50th entity, is refused on the 51st, and a person still controls it', async () => {
    setPlan('free');
    // Automations already used 49 entities.
    withDb((db) =>
      db
        .prepare('insert or replace into settings (key, value, updated_at) values (?, ?, ?)')
        .run(
          'plan.haEntities',
          JSON.stringify(Array.from({ length: 49 }, (_, i) => `sensor.used_${i}`)),
          Date.now(),
        ),
    );
    const lightFlow = (entityId: string) => ({
      name: `Light ${entityId}`,
      trigger: { type: 'api' },
      stages: [
        {
          id: 'on',
          name: 'Light on',
          kind: 'ha_call',
          config: { domain: 'light', service: 'turn_on', entityId },
        },
      ],
    });
    const fiftieth = (await owner.post('/api/flows', lightFlow('light.kitchen_ceiling'))).json;
    const ran = await owner.post(`/api/flows/${fiftieth.id}/run?wait=true`);
    expect(ran.json.status, JSON.stringify(ran.json)).toBe('succeeded');

    const fiftyFirst = (await owner.post('/api/flows', lightFlow('light.bedroom_lamp'))).json;
    const before = ha.serviceCalls.length;
    const refused = await owner.post(`/api/flows/${fiftyFirst.id}/run?wait=true`);
    expect(refused.json.status).toBe('failed');
    expect(refused.json.error).toMatch(
      /Free plan lets automations act on 50 Home Assistant entities and light\.bedroom_lamp would be beyond them.*Upgrade to Pro/,
    );
    expect(ha.serviceCalls.length).toBe(before);

    // No limit stops the home's voice: the same flow started by a spoken command still acts.
    const spoken = await fetch(`${agent.url}/api/flows/${fiftyFirst.id}/run?wait=true`, {
      method: 'POST',
      headers: { 'content-type': 'audio/wav', cookie: `nexus_session=${owner.cookie('nexus_session')}` },
      body: silentWav(0.1),
    });
    const spokenRun = (await spoken.json()) as { trigger: string; status: string };
    expect(spokenRun.trigger).toBe('voice');
    expect(spokenRun.status, JSON.stringify(spokenRun)).toBe('succeeded');
    expect(ha.serviceCalls.length).toBe(before + 1);

    // A person's own control from the device screens is never limited, even on an expired hub.
    const manual = await owner.post('/api/ha/services/light/turn_on', { entity_id: 'light.bedroom_lamp' });
    expect(manual.status, manual.text).toBe(200);
    expect(ha.serviceCalls.slice(before).some((c) => JSON.stringify(c).includes('light.bedroom_lamp'))).toBe(
      true,
    );

    expect((await status()).warnings).toContainEqual({
      limit: 'homeAssistantEntities',
      used: 50,
      allowed: 50,
      upgradeTo: 'pro',
    });
    setPlan('pro');
    const onPro = await owner.post(`/api/flows/${fiftyFirst.id}/run?wait=true`);
    expect(onPro.json.status).toBe('succeeded');
  });
});

describe('vpnAccess: failover through provider tunnels', () => {
  it('is refused on Free with 403 and allowed on Pro', async () => {
    const failover = { activeProvider: 'wireguard', backupProvider: 'tailscale' };
    setPlan('free');
    const refused = await owner.put('/api/vpn/failover', failover);
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({
      message: expect.stringMatching(
        /Free plan does not include VPN failover.*WireGuard remote access keeps working.*Upgrade to Pro/,
      ),
      details: { limit: 'vpnAccess', used: null, allowed: false, plan: 'free', upgradeTo: 'pro' },
    });
    setPlan('pro');
    expect((await owner.put('/api/vpn/failover', failover)).status).toBe(200);
  });
});
