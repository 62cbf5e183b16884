import path from 'node:path';
import Database from 'better-sqlite3';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatStreamEventSchema,
  conversationDetailSchema,
  llmModelListSchema,
  llmPipelineStatusSchema,
  llmProviderSchema,
  llmProvidersHealthSchema,
  pullJobListSchema,
  routerStateSchema,
  subscriptionStatusSchema,
  subscriptionUsageSchema,
  tokenizeResultSchema,
  usageReportSchema,
  type ChatStreamEvent,
  type PullJob,
} from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { startOllamaApiSim, type OllamaApiSim } from '../fixtures/ollama-api-sim.js';
import { startOpenAiSim, type OpenAiSim } from '../fixtures/openai-sim.js';
import { waitFor } from '../support/wait-for.js';

const CLOUD_KEY = 'sk-sim-0123456789abcdef-never-shown';

interface ChatResult {
  status: number;
  contentType: string | null;
  /** The JSON error body when the chat was refused before streaming. */
  json?: any;
  headers: Headers;
  events: ChatStreamEvent[];
  text: string;
}

/** POSTs /api/llm/chat as the client's browser would and reads the event stream to its end. */
async function chat(
  c: Client,
  body: unknown,
  opts: { signal?: AbortSignal; onEvent?: (e: ChatStreamEvent) => void } = {},
): Promise<ChatResult> {
  const res = await fetch(`${c.baseUrl}/api/llm/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `nexus_session=${c.cookie('nexus_session')}` },
    body: JSON.stringify(body),
    signal: opts.signal,
  });
  const contentType = res.headers.get('content-type');
  if (!contentType?.startsWith('text/event-stream')) {
    return {
      status: res.status,
      contentType,
      json: await res.json(),
      headers: res.headers,
      events: [],
      text: '',
    };
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
    expect(value.event).toBe(event.type);
    events.push(event);
    opts.onEvent?.(event);
  }
  const text = events.map((e) => (e.type === 'delta' ? e.content : '')).join('');
  return { status: res.status, contentType, headers: res.headers, events, text };
}

const user = (content: string) => [{ role: 'user' as const, content }];

let ollama: OllamaApiSim;
let hub2: OllamaApiSim;
let cloud: OpenAiSim;
let agent: RunningAgent;
let owner: Client;
let member: Client;
let builtInId: number;
let cloudId: number;
let hub2Id: number;

/** Every answered message the hub recorded (cloud and local; only cloud ones count toward the plan). */
const monthMessages = async () =>
  subscriptionUsageSchema
    .parse((await owner.get('/api/subscription/usage?days=366')).json)
    .days.reduce((n, d) => n + d.cloudMessages + d.localMessages, 0);

beforeAll(async () => {
  ollama = await startOllamaApiSim({
    models: [
      { name: 'llama3.2:3b', size: 2_019_393_189, loaded: true, contextLength: 131_072 },
      {
        name: 'qwen2.5:7b',
        size: 4_683_087_332,
        family: 'qwen2',
        parameterSize: '7.6B',
        quantization: 'Q4_0',
      },
    ],
    registry: [
      { name: 'tinyllama:1.1b', size: 637_700_138, parameterSize: '1B', quantization: 'Q4_0' },
      { name: 'phi3:mini', size: 2_176_178_913, family: 'phi3', parameterSize: '3.8B' },
    ],
  });
  hub2 = await startOllamaApiSim({ models: [{ name: 'llama3.2:3b', size: 2_019_393_189 }] });
  cloud = await startOpenAiSim({ apiKey: CLOUD_KEY, models: ['gpt-4o-mini', 'gpt-4.1'] });
  agent = await startAgent({ env: { OLLAMA_URL: ollama.url } });
  owner = new Client(agent.url);
  member = new Client(agent.url);
  await signUp(owner, { name: 'Olive Owner' });
  await signUp(member, { name: 'Mo Member' });
});

afterAll(async () => {
  await agent?.stop();
  await Promise.all([ollama?.close(), hub2?.close(), cloud?.close()]);
});

describe('providers (admin)', () => {
  it('starts with the hub’s own Ollama at OLLAMA_URL; people who are not admins are refused', async () => {
    expect((await member.get('/api/llm/providers')).status).toBe(403);
    expect((await new Client(agent.url).get('/api/llm/providers')).status).toBe(401);
    const res = await owner.get('/api/llm/providers');
    expect(res.status).toBe(200);
    const [builtIn] = res.json.providers.map((p: unknown) => llmProviderSchema.parse(p));
    expect(builtIn).toMatchObject({
      kind: 'ollama',
      name: 'ollama',
      baseUrl: ollama.url,
      builtIn: true,
      local: true,
    });
    builtInId = builtIn.id;
    expect(
      (await owner.request('PATCH', `/api/llm/providers/${builtInId}`, { baseUrl: 'http://127.0.0.1:1' }))
        .status,
    ).toBe(400);
    expect((await owner.delete(`/api/llm/providers/${builtInId}`)).status).toBe(409);
  });

  it('adds an OpenAI-compatible endpoint whose API key is stored sealed and never returned', async () => {
    const created = await owner.post('/api/llm/providers', {
      kind: 'openai',
      name: 'cloud',
      baseUrl: cloud.baseUrl,
      apiKey: CLOUD_KEY,
      priority: 50,
    });
    expect(created.status).toBe(201);
    expect(created.text).not.toContain(CLOUD_KEY);
    const provider = llmProviderSchema.parse(created.json.provider);
    expect(provider).toMatchObject({
      kind: 'openai',
      name: 'cloud',
      hasApiKey: true,
      local: false,
      builtIn: false,
    });
    expect(created.json.provider).not.toHaveProperty('apiKey');
    cloudId = provider.id;

    const list = await owner.get('/api/llm/providers');
    expect(list.text).not.toContain(CLOUD_KEY);
    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    try {
      const row = db.prepare('select api_key_sealed from llm_providers where id = ?').get(cloudId) as {
        api_key_sealed: string;
      };
      expect(row.api_key_sealed).toMatch(/^v1:/);
      expect(row.api_key_sealed).not.toContain(CLOUD_KEY);
    } finally {
      db.close();
    }
    expect(agent.logs.join('\n')).not.toContain(CLOUD_KEY);

    // The saved key follows no address change: another origin needs the key entered again.
    const moved = await owner.request('PATCH', `/api/llm/providers/${cloudId}`, {
      baseUrl: 'http://127.0.0.1:9/v1',
    });
    expect(moved.status).toBe(400);
    expect(moved.json.message).toContain('Enter the API key again for the new address');
    const samePlace = await owner.request('PATCH', `/api/llm/providers/${cloudId}`, {
      baseUrl: `${cloud.baseUrl}/`,
    });
    expect(samePlace.status, samePlace.text).toBe(200);

    expect(
      (await owner.post('/api/llm/providers', { kind: 'openai', name: 'cloud', baseUrl: cloud.baseUrl }))
        .status,
    ).toBe(409);
    const bad = await owner.post('/api/llm/providers', { kind: 'openai', name: 'x', baseUrl: 'ftp://nope' });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/baseUrl/);
    expect(
      (await member.post('/api/llm/providers', { kind: 'ollama', name: 'y', baseUrl: hub2.url })).status,
    ).toBe(403);
  });

  it('adds a second Ollama hub, and reports health and latency per provider', async () => {
    const created = await owner.post('/api/llm/providers', {
      kind: 'ollama',
      name: 'hub-2',
      baseUrl: hub2.url,
    });
    expect(created.status).toBe(201);
    hub2Id = created.json.provider.id;
    const health = llmProvidersHealthSchema.parse((await owner.get('/api/llm/providers/health')).json);
    const byName = Object.fromEntries(health.providers.map((h) => [h.name, h]));
    expect(byName.ollama).toMatchObject({ status: 'online', version: '0.6.5', error: null });
    expect(byName['hub-2']).toMatchObject({ status: 'online' });
    expect(byName.cloud).toMatchObject({ status: 'online', version: null });
    for (const h of health.providers) expect(h.latencyMs).toBeGreaterThanOrEqual(0);
    expect(cloud.authorizations).toContain(`Bearer ${CLOUD_KEY}`);
  });
});

describe('models', () => {
  it('lists every provider’s models with size, family, quantisation, loaded and VRAM', async () => {
    const list = llmModelListSchema.parse((await member.get('/api/llm/models')).json);
    expect(list.unreachable).toEqual([]);
    const llama = list.models.find((m) => m.providerName === 'ollama' && m.name === 'llama3.2:3b');
    expect(llama).toMatchObject({
      providerKind: 'ollama',
      modelClass: 'local',
      size: 2_019_393_189,
      family: 'llama',
      parameterSize: '3.2B',
      quantization: 'Q4_K_M',
      loaded: true,
      sizeVram: 2_019_393_189,
      allowed: true,
    });
    expect(list.models.find((m) => m.name === 'qwen2.5:7b')).toMatchObject({
      loaded: false,
      sizeVram: null,
      quantization: 'Q4_0',
    });
    expect(list.models.find((m) => m.name === 'gpt-4o-mini')).toMatchObject({
      providerName: 'cloud',
      modelClass: 'cloud',
      size: null,
    });
    expect(list.models.filter((m) => m.providerName === 'hub-2').map((m) => m.name)).toEqual(['llama3.2:3b']);
  });

  it('shows a model’s details (context length, template, parameters) to admins', async () => {
    const q = `providerId=${builtInId}&name=llama3.2:3b`;
    expect((await member.get(`/api/llm/models/show?${q}`)).status).toBe(403);
    const res = await owner.get(`/api/llm/models/show?${q}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      contextLength: 131_072,
      family: 'llama',
      parameterCount: 3_212_749_888,
    });
    expect(res.json.template).toContain('{{ .Prompt }}');
    expect(res.json.parameters).toContain('num_ctx');
    const missing = await owner.get(`/api/llm/models/show?providerId=${builtInId}&name=nope`);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe("model 'nope' not found");
  });
});

describe('chat', () => {
  let conversationId: number;

  it('streams the answer as the model produces it, with the provider’s counters', async () => {
    const before = await monthMessages();
    // The simulator holds the answer after three chunks until the browser has shown them: proof
    // that pieces are passed on as the model produces them, not gathered until the end.
    let open!: () => void;
    ollama.gate = { at: 3, until: new Promise<void>((resolve) => (open = resolve)) };
    let deltasWhileHeld = 0;
    const pending = chat(
      member,
      { model: 'llama3.2:3b', messages: user('Hello there') },
      {
        onEvent: (e) => {
          if (e.type === 'delta' && ++deltasWhileHeld === 3) open();
        },
      },
    );
    const res = await pending.finally(() => (ollama.gate = null));
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/event-stream/);
    expect(res.events[0]).toMatchObject({
      type: 'meta',
      providerName: 'ollama',
      model: 'llama3.2:3b',
      fellBackFrom: [],
    });
    const expected = 'You said: Hello there. This is **llama3.2:3b** answering.';
    expect(res.text).toBe(expected);
    const pieces = expected.match(/\S+\s*/g)!.length;
    // One event per chunk.
    expect(res.events.filter((e) => e.type === 'delta')).toHaveLength(pieces);
    const done = res.events.at(-1)!;
    expect(done).toMatchObject({
      type: 'done',
      counters: {
        completionTokens: pieces,
        promptTokens: 2,
        tokensPerSecond: 40,
        doneReason: 'stop',
        loadDurationMs: 100,
      },
    });
    const meta = res.events[0]!;
    conversationId = meta.type === 'meta' ? meta.conversationId! : 0;
    expect(ollama.chatRequests.at(-1)).toEqual({ model: 'llama3.2:3b', messages: user('Hello there') });
    expect(await monthMessages()).toBe(before + 1);
  });

  it('saves the conversation for its owner only, and continues it', async () => {
    const list = await member.get('/api/llm/conversations');
    expect(list.json.conversations).toEqual([
      expect.objectContaining({ id: conversationId, title: 'Hello there', model: 'llama3.2:3b' }),
    ]);
    expect((await owner.get(`/api/llm/conversations/${conversationId}`)).status).toBe(404);
    expect((await owner.get('/api/llm/conversations')).json.conversations).toEqual([]);

    const history = [
      ...user('Hello there'),
      { role: 'assistant' as const, content: 'You said: Hello there. This is **llama3.2:3b** answering.' },
      ...user('And again'),
    ];
    const res = await chat(member, { model: 'llama3.2:3b', messages: history, conversationId });
    expect(res.events[0]).toMatchObject({ type: 'meta', conversationId });
    expect(ollama.chatRequests.at(-1)!.messages).toEqual(history);

    const detail = conversationDetailSchema.parse(
      (await member.get(`/api/llm/conversations/${conversationId}`)).json,
    );
    expect(detail.messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(detail.messages[1]).toMatchObject({
      model: 'llama3.2:3b',
      providerName: 'ollama',
      tokensPerSecond: 40,
    });
    expect((await chat(owner, { model: 'llama3.2:3b', messages: user('x'), conversationId })).status).toBe(
      404,
    );
  });

  it('counts answered messages in the usage report (by user, model and day) and the pipeline status', async () => {
    const own = usageReportSchema.parse((await member.get('/api/llm/usage?days=7')).json);
    expect(own.scope).toBe('own');
    const today = new Date().toISOString().slice(0, 10);
    expect(own.rows).toEqual([
      expect.objectContaining({
        day: today,
        userName: 'Mo Member',
        model: 'llama3.2:3b',
        providerName: 'ollama',
        messages: 2,
      }),
    ]);
    expect(own.rows[0]!.completionTokens).toBeGreaterThan(0);
    const all = usageReportSchema.parse((await owner.get('/api/llm/usage')).json);
    expect(all.scope).toBe('all');
    const status = llmPipelineStatusSchema.parse((await member.get('/api/llm/pipeline/status')).json);
    expect(status.totalRequests).toBe(2);
    expect(status.pipelineType).toBe('hybrid');
    expect(status.models).toEqual(
      expect.arrayContaining([
        { name: 'llama3.2:3b', status: 'running', provider: 'ollama', sizeBytes: 2_019_393_189 },
        { name: 'gpt-4o-mini', status: 'available', provider: 'cloud', sizeBytes: null },
      ]),
    );
    expect(status.providers.find((p) => p.name === 'ollama')).toMatchObject({
      status: 'online',
      servedRequests: 2,
    });
  });

  it('refuses bad input with 400 before anything streams', async () => {
    expect((await chat(member, { model: 'llama3.2:3b', messages: [] })).status).toBe(400);
    const last = await chat(member, {
      model: 'llama3.2:3b',
      messages: [{ role: 'assistant', content: 'hi' }],
    });
    expect(last.status).toBe(400);
    expect(last.json.message).toMatch(/last message must be from the user/);
    expect((await chat(member, { messages: user('no model, no rule') })).status).toBe(400);
    expect((await chat(member, { model: 'llama3.2:3b', messages: user('x'), provider: 9999 })).status).toBe(
      404,
    );
  });

  it('answers an unknown model with 404 and Ollama’s own message', async () => {
    const before = await monthMessages();
    const res = await chat(member, { model: 'mistral:7b', messages: user('hi') });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ message: 'model "mistral:7b" not found, try pulling it first' });
    expect(await monthMessages()).toBe(before);
  });

  it('ends the browser’s stream with an error event when Ollama’s stream is cut mid-way', async () => {
    const before = await monthMessages();
    ollama.cutAfterChunks = 3;
    try {
      const res = await chat(member, { model: 'llama3.2:3b', messages: user('cut me off please now') });
      expect(res.status).toBe(200);
      expect(res.events.filter((e) => e.type === 'delta')).toHaveLength(3);
      const last = res.events.at(-1)!;
      expect(last).toMatchObject({ type: 'error', status: 502 });
      expect(last.type === 'error' && last.message).toMatch(/closed the stream/);
    } finally {
      ollama.cutAfterChunks = null;
    }
    expect(await monthMessages()).toBe(before);
    const conv = (await member.get('/api/llm/conversations')).json.conversations[0];
    const detail = conversationDetailSchema.parse(
      (await member.get(`/api/llm/conversations/${conv.id}`)).json,
    );
    expect(detail.messages.at(-1)).toMatchObject({
      role: 'assistant',
      status: 'error',
      content: 'You said: cut ',
    });
  });

  it('passes on an error Ollama reports mid-stream', async () => {
    ollama.errorAfterChunks = 2;
    try {
      const res = await chat(member, { model: 'llama3.2:3b', messages: user('error please') });
      expect(res.events.at(-1)).toMatchObject({ type: 'error', status: 502 });
      const last = res.events.at(-1)!;
      expect(last.type === 'error' && last.message).toContain(
        'an error was encountered while running the model',
      );
    } finally {
      ollama.errorAfterChunks = null;
    }
  });

  it('stops the model when the person presses stop, keeping what came so far', async () => {
    ollama.chunkDelayMs = 100;
    ollama.answer = () => Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const controller = new AbortController();
    let deltas = 0;
    try {
      await chat(
        member,
        { model: 'llama3.2:3b', messages: user('a long answer please') },
        {
          signal: controller.signal,
          onEvent: (e) => {
            if (e.type === 'delta' && ++deltas === 2) controller.abort();
          },
        },
      ).catch((err: unknown) => {
        if (!(err instanceof Error && err.name === 'AbortError')) throw err;
      });
      await waitFor(
        () => ollama.activeChats,
        (n) => n === 0,
        { what: 'Ollama to see the chat closed' },
      );
      const conv = (await member.get('/api/llm/conversations')).json.conversations[0];
      const detail = await waitFor(
        async () =>
          conversationDetailSchema.parse((await member.get(`/api/llm/conversations/${conv.id}`)).json),
        (d) => d.messages.at(-1)?.role === 'assistant',
        { what: 'the stopped answer to be saved' },
      );
      expect(detail.messages.at(-1)).toMatchObject({ status: 'stopped' });
      expect(detail.messages.at(-1)!.content).toMatch(/^word0 word1 /);
      expect(detail.messages.at(-1)!.content.length).toBeLessThan(100);
    } finally {
      ollama.chunkDelayMs = 0;
      ollama.answer = (model, messages) =>
        `You said: ${messages.at(-1)?.content ?? ''}. This is **${model}** answering.`;
    }
  });

  it('streams a cloud model through the OpenAI-compatible API with the stored key', async () => {
    const res = await chat(member, { model: 'gpt-4o-mini', messages: user('Hi cloud') });
    expect(res.events[0]).toMatchObject({ type: 'meta', providerName: 'cloud', model: 'gpt-4o-mini' });
    expect(res.text).toBe('Cloud gpt-4o-mini says: Hi cloud');
    expect(res.events.at(-1)).toMatchObject({
      type: 'done',
      counters: { promptTokens: 2, completionTokens: 5, doneReason: 'stop' },
    });
    expect(cloud.chatRequests.at(-1)).toMatchObject({
      model: 'gpt-4o-mini',
      streamOptions: { include_usage: true },
    });
    expect(cloud.authorizations.at(-1)).toBe(`Bearer ${CLOUD_KEY}`);
    const unknown = await chat(member, { model: 'gpt-9', messages: user('x'), provider: cloudId });
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe('The model `gpt-9` does not exist or you do not have access to it.');
    cloud.cutAfterChunks = 2;
    try {
      const cut = await chat(member, { model: 'gpt-4o-mini', messages: user('cut the cloud') });
      expect(cut.events.at(-1)).toMatchObject({ type: 'error', status: 502 });
    } finally {
      cloud.cutAfterChunks = null;
    }
  });
});

describe('router', () => {
  it('saves rules per task (admins only)', async () => {
    const rule = {
      targets: [
        { providerId: builtInId, model: 'llama3.2:3b' },
        { providerId: hub2Id, model: 'llama3.2:3b' },
      ],
      timeoutMs: 1000,
    };
    expect((await member.put('/api/llm/router/rules/chat', rule)).status).toBe(403);
    expect((await owner.put('/api/llm/router/rules/dance', rule)).status).toBe(400);
    expect((await owner.put('/api/llm/router/rules/chat', { targets: [] })).status).toBe(400);
    const saved = await owner.put('/api/llm/router/rules/chat', rule);
    expect(saved.status).toBe(200);
    expect(saved.json.rule).toMatchObject({
      task: 'chat',
      strategy: 'failover',
      timeoutMs: 1000,
      enabled: true,
    });
    const state = routerStateSchema.parse((await owner.get('/api/llm/router')).json);
    expect(state.rules.map((r) => r.task)).toEqual(['chat']);
  });

  it('falls back to the next target when the first provider is down', async () => {
    await ollama.stop();
    try {
      const res = await chat(member, { model: 'llama3.2:3b', messages: user('Anyone home?') });
      expect(res.events[0]).toMatchObject({
        type: 'meta',
        providerName: 'hub-2',
        fellBackFrom: [{ providerName: 'ollama', model: 'llama3.2:3b' }],
      });
      expect(res.events.at(-1)).toMatchObject({ type: 'done' });
      expect(hub2.chatRequests).toHaveLength(1);

      // Without a rule there is nothing to fall back to: 502.
      const down = await chat(member, {
        model: 'qwen2.5:7b',
        messages: user('x'),
        provider: builtInId,
        task: 'summarise',
      });
      expect(down.status).toBe(502);
      expect(down.json.message).toMatch(/cannot be reached/);
    } finally {
      await ollama.start();
    }
  });

  it('falls back when the first provider is too slow, and answers 504 when nothing else can', async () => {
    ollama.firstChunkDelayMs = 4000;
    try {
      const res = await chat(member, { model: 'llama3.2:3b', messages: user('Quick!') });
      expect(res.events[0]).toMatchObject({ type: 'meta', providerName: 'hub-2' });
      const meta = res.events[0]!;
      expect(meta.type === 'meta' && meta.fellBackFrom[0]!.reason).toMatch(/1000 ms|sent nothing/);

      await owner.put('/api/llm/router/rules/summarise', {
        targets: [{ providerId: builtInId, model: 'llama3.2:3b' }],
        timeoutMs: 300,
      });
      const slow = await chat(member, { messages: user('Summarise this'), task: 'summarise' });
      expect(slow.status).toBe(504);
    } finally {
      ollama.firstChunkDelayMs = 0;
    }
  });

  it('ends the stream with a 504 error event when the model goes quiet mid-answer', async () => {
    await owner.put('/api/llm/router/rules/summarise', {
      targets: [{ providerId: builtInId, model: 'llama3.2:3b' }],
      timeoutMs: 1000,
    });
    ollama.hangAfterChunks = 2;
    try {
      const res = await chat(member, { messages: user('Summarise the day please'), task: 'summarise' });
      expect(res.events.filter((e) => e.type === 'delta')).toHaveLength(2);
      expect(res.events.at(-1)).toMatchObject({ type: 'error', status: 504 });
      const last = res.events.at(-1)!;
      expect(last.type === 'error' && last.message).toMatch(/sent nothing for 1000 ms/);
      await waitFor(
        () => ollama.activeChats,
        (n) => n === 0,
        { what: 'the stalled chat to be closed' },
      );
    } finally {
      ollama.hangAfterChunks = null;
    }
  });

  it('spreads chats over several Ollama hubs, visible in the pipeline status', async () => {
    await owner.put('/api/llm/router/rules/chat', {
      targets: [
        { providerId: builtInId, model: 'llama3.2:3b' },
        { providerId: hub2Id, model: 'llama3.2:3b' },
      ],
      strategy: 'spread',
      timeoutMs: 5000,
    });
    ollama.chunkDelayMs = 30;
    hub2.chunkDelayMs = 30;
    const before = { a: ollama.chatRequests.length, b: hub2.chatRequests.length };
    try {
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          chat(member, { model: 'llama3.2:3b', messages: user(`spread ${i}`) }),
        ),
      );
      for (const r of results) expect(r.events.at(-1)).toMatchObject({ type: 'done' });
    } finally {
      ollama.chunkDelayMs = 0;
      hub2.chunkDelayMs = 0;
    }
    const a = ollama.chatRequests.length - before.a;
    const b = hub2.chatRequests.length - before.b;
    expect(a + b).toBe(6);
    expect(a).toBeGreaterThanOrEqual(2);
    expect(b).toBeGreaterThanOrEqual(2);
    const state = routerStateSchema.parse((await owner.get('/api/llm/router')).json);
    expect(state.providers.find((p) => p.name === 'hub-2')!.servedRequests).toBeGreaterThanOrEqual(3);
    const status = await waitFor(
      async () => llmPipelineStatusSchema.parse((await member.get('/api/llm/pipeline/status')).json),
      (s) => (s.providers.find((p) => p.name === 'hub-2')?.servedRequests ?? 0) >= 3,
      { what: 'the pipeline status to show hub-2’s share' },
    );
    expect(status.models).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'llama3.2:3b', provider: 'hub-2' })]),
    );
    await owner.delete('/api/llm/router/rules/chat');
    await owner.delete('/api/llm/router/rules/summarise');
  });
});

describe('pulls, deletes and the Ollama proxy (admin)', () => {
  /** The live channel subscribed to llm.pulls, collecting job lists. */
  async function livePulls(c: Client) {
    const socket = new WebSocket(`${agent.url.replace('http', 'ws')}/api/live`, {
      headers: { cookie: `nexus_session=${c.cookie('nexus_session')}` },
    });
    const lists: PullJob[][] = [];
    const errors: string[] = [];
    socket.on('message', (raw) => {
      const m = JSON.parse(raw.toString());
      if (m.type === 'event' && m.topic === 'llm.pulls') lists.push(pullJobListSchema.parse(m.data).pulls);
      if (m.type === 'error') errors.push(m.message);
    });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ type: 'subscribe', topic: 'llm.pulls' }));
    return { socket, lists, errors };
  }

  it('pulls a model as a job with live per-layer progress', async () => {
    ollama.pullSteps = 5;
    ollama.pullStepDelayMs = 20;
    const live = await livePulls(owner);
    try {
      await waitFor(
        () => live.lists.length >= 0,
        () => true,
      );
      expect((await member.post('/api/llm/pulls', { model: 'tinyllama:1.1b' })).status).toBe(403);
      expect((await owner.post('/api/llm/pulls', { model: 'bad name!' })).status).toBe(400);
      const started = await owner.post('/api/llm/pulls', { model: 'tinyllama:1.1b' });
      expect(started.status).toBe(202);
      expect(started.json.pull).toMatchObject({
        model: 'tinyllama:1.1b',
        providerName: 'ollama',
        status: 'running',
      });
      const id = started.json.pull.id;
      const finished = await waitFor(
        async () =>
          pullJobListSchema.parse((await owner.get('/api/llm/pulls')).json).pulls.find((p) => p.id === id)!,
        (p) => p.status !== 'running',
        { what: 'the pull to finish' },
      );
      expect(finished).toMatchObject({
        status: 'success',
        phase: 'success',
        error: null,
        total: 637_700_138,
        completed: 637_700_138,
      });
      expect(finished.layers).toHaveLength(2);
      // Progress arrived live while it ran, layer by layer.
      await waitFor(
        () => live.lists.at(-1)?.find((p) => p.id === id)?.status,
        (s) => s === 'success',
        { what: 'live success' },
      );
      const progress = live.lists
        .map((l) => l.find((p) => p.id === id))
        .filter((p) => p?.status === 'running');
      expect(progress.some((p) => p!.completed > 0 && p!.completed < p!.total)).toBe(true);
      // Both wordings of a layer's progress (the docs' "downloading", the server's "pulling").
      expect(progress.some((p) => p!.phase.startsWith('downloading sha256:'))).toBe(true);
      expect(progress.some((p) => p!.phase.startsWith('pulling '))).toBe(true);
      const models = llmModelListSchema.parse((await owner.get('/api/llm/models')).json);
      expect(models.models.some((m) => m.name === 'tinyllama:1.1b' && m.providerName === 'ollama')).toBe(
        true,
      );
    } finally {
      live.socket.close();
    }
  });

  it('keeps the job running when nobody watches and re-attaches; cancels on request', async () => {
    ollama.pullSteps = 50;
    ollama.pullStepDelayMs = 50;
    const started = await owner.post('/api/llm/pulls', { model: 'phi3:mini' });
    const id = started.json.pull.id;
    // A page reload: a new browser session lists the jobs and follows along.
    const again = await owner.post('/api/llm/pulls', { model: 'phi3:mini' });
    expect(again.json.pull.id).toBe(id);
    const live = await livePulls(owner);
    try {
      await waitFor(
        () => live.lists.at(-1)?.find((p) => p.id === id),
        (p) => (p?.completed ?? 0) > 0,
        { what: 'progress after re-attaching' },
      );
      const cancelled = await owner.delete(`/api/llm/pulls/${id}`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.json.pull).toMatchObject({ status: 'cancelled' });
      await waitFor(
        () => ollama.abandonedPulls,
        (a) => a.includes('phi3:mini'),
        { what: 'Ollama to see the pull stop' },
      );
      expect((await owner.delete(`/api/llm/pulls/${id}`)).status).toBe(409);
    } finally {
      live.socket.close();
      ollama.pullStepDelayMs = 5;
    }
  });

  it('reports a pull Ollama cannot do, and refuses the topic to people who are not admins', async () => {
    const started = await owner.post('/api/llm/pulls', { model: 'does-not-exist:1b' });
    const failed = await waitFor(
      async () =>
        pullJobListSchema
          .parse((await owner.get('/api/llm/pulls')).json)
          .pulls.find((p) => p.id === started.json.pull.id)!,
      (p) => p.status !== 'running',
    );
    expect(failed).toMatchObject({ status: 'error' });
    expect(failed.error).toContain('file does not exist');
    const live = await livePulls(member);
    try {
      await waitFor(
        () => live.errors,
        (e) => e.length > 0,
        { what: 'a refusal' },
      );
    } finally {
      live.socket.close();
    }
  });

  it('deletes a model, passing Ollama’s 404 for one that is not there', async () => {
    const q = `providerId=${builtInId}&name=tinyllama:1.1b`;
    expect((await member.delete(`/api/llm/models?${q}`)).status).toBe(403);
    expect((await owner.delete(`/api/llm/models?${q}`)).status).toBe(200);
    expect(ollama.models.map((m) => m.name)).not.toContain('tinyllama:1.1b');
    const again = await owner.delete(`/api/llm/models?${q}`);
    expect(again.status).toBe(404);
    expect(again.json.message).toBe("model 'tinyllama:1.1b' not found");
  });

  it('proxies Ollama’s API at /api/ollama for admins only', async () => {
    expect((await new Client(agent.url).get('/api/ollama/tags')).status).toBe(401);
    expect((await member.get('/api/ollama/tags')).status).toBe(403);
    const tags = await owner.get('/api/ollama/tags');
    expect(tags.status).toBe(200);
    expect(tags.json.models.map((m: { name: string }) => m.name)).toEqual(['llama3.2:3b', 'qwen2.5:7b']);
    expect((await owner.get('/api/ollama/version')).json).toEqual({ version: '0.6.5' });
    const streamed = await owner.post('/api/ollama/chat', { model: 'qwen2.5:7b', messages: user('raw') });
    expect(streamed.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = streamed.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ done: true, eval_count: lines.length - 1 });
    const unknown = await owner.post('/api/ollama/show', { model: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: "model 'nope' not found" });
  });
});

describe('tokenizer', () => {
  it('splits text into tokens with a real BPE encoding', async () => {
    const res = await member.post('/api/llm/tokenize', {
      text: 'Hello world, tokenizers!',
      encoding: 'o200k_base',
    });
    expect(res.status).toBe(200);
    const result = tokenizeResultSchema.parse(res.json);
    expect(result.tokens.map((t) => t.text).join('')).toBe('Hello world, tokenizers!');
    expect(result.tokens[0]).toEqual({ id: 13225, text: 'Hello' });
    expect(result.characters).toBe(24);
    const cl = tokenizeResultSchema.parse(
      (await member.post('/api/llm/tokenize', { text: 'Hello world', encoding: 'cl100k_base' })).json,
    );
    expect(cl.tokens.map((t) => t.id)).toEqual([9906, 1917]);
    expect((await member.post('/api/llm/tokenize', { text: 'x', encoding: 'nope' })).status).toBe(400);
  });
});

describe('plan limits', () => {
  function setPlanFree() {
    const db = new Database(path.join(agent.dataDir, 'nexus.db'));
    try {
      // The trial ended yesterday and nothing was bought: the Free plan is in force.
      db.prepare('update subscription set trial_ends_at = ?').run(Date.now() - 24 * 60 * 60 * 1000);
    } finally {
      db.close();
    }
  }

  it('on the Free plan, cloud models are allowed and the hub keeps one usable model, the rest read-only', async () => {
    setPlanFree();
    const sub = subscriptionStatusSchema.parse((await member.get('/api/subscription/status')).json);
    expect(sub.plan).toBe('free');
    const list = llmModelListSchema.parse((await member.get('/api/llm/models')).json);
    expect(list.models.find((m) => m.name === 'gpt-4o-mini')!.allowed).toBe(true);
    // The oldest installed model on the built-in Ollama stays usable; the others are kept, read-only.
    expect(list.models.find((m) => m.name === 'llama3.2:3b' && m.providerName === 'ollama')!.allowed).toBe(
      true,
    );
    expect(list.models.find((m) => m.name === 'qwen2.5:7b' && m.providerName === 'ollama')!.allowed).toBe(
      false,
    );
    const res = await chat(member, { model: 'qwen2.5:7b', messages: user('read-only?') });
    expect(res.status).toBe(403);
    expect(res.json.message).toMatch(/Free plan allows 1 model on the hub.*Upgrade to Pro/);
    // The Free plan's one model: more cannot be pulled while the hub has models.
    const pull = await owner.post('/api/llm/pulls', { model: 'tinyllama:1.1b' });
    expect(pull.status).toBe(403);
    expect(pull.json.message).toMatch(/Free plan allows 1 model/);
  });

  it('on the Free plan, the month’s 100 cloud messages are enforced with 429 and an offer of Pro', async () => {
    const db = new Database(path.join(agent.dataDir, 'nexus.db'));
    const today = new Date().toISOString().slice(0, 10);
    try {
      const used = (
        db
          .prepare("select count(*) as n from ai_usage_events where model_class = 'cloud' and day >= ?")
          .get(today.slice(0, 8) + '01') as { n: number }
      ).n;
      // Another account used the rest of the month's cloud messages.
      const insert = db.prepare(
        "insert into ai_usage_events (user_id, model, provider_name, model_class, day, at) values (999, 'gpt-4o-mini', 'cloud', 'cloud', ?, ?)",
      );
      for (let i = used; i < 99; i++) insert.run(today, Date.now());
    } finally {
      db.close();
    }
    const last = await chat(member, { model: 'gpt-4o-mini', messages: user('the hundredth') });
    expect(last.events.at(-1)).toMatchObject({ type: 'done' });
    const status = async () =>
      subscriptionStatusSchema.parse((await owner.get('/api/subscription/status')).json);
    expect((await status()).usage).toEqual({ aiMessages: 100, remainingMessages: 0 });
    const refused = await chat(member, { model: 'gpt-4o-mini', messages: user('one more') });
    expect(refused.status).toBe(429);
    expect(refused.json.message).toBe(
      'This hub has used all 100 cloud AI messages of the Free plan this month (100 answered). Models on the hub keep answering without limit. Upgrade to Pro to lift this limit.',
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The hub's own model keeps answering.
    const local = await chat(member, { model: 'llama3.2:3b', messages: user('still here') });
    expect(local.events.at(-1)).toMatchObject({ type: 'done' });
    expect((await status()).usage.aiMessages).toBe(100);
  });
});
