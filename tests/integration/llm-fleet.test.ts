import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatStreamEventSchema,
  llmEndpointListSchema,
  usageReportSchema,
  type ChatStreamEvent,
} from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { waitFor } from '../support/wait-for.js';
import { startOllamaApiSim, type OllamaApiSim } from '../fixtures/ollama-api-sim.js';
import {
  simNode,
  simService,
  simTask,
  startSwarmEngineSim,
  type SwarmEngineSim,
} from '../fixtures/swarm-engine-sim.js';

/**
 * The LLM across the fleet (issue 24): two Ollama simulators on loopback addresses of their own
 * (127.0.0.2 and 127.0.0.3) stand in for two Jetsons; the agent finds them as the swarm reports
 * them (a protocol-faithful Engine API simulator answering /services, /tasks and /nodes, the
 * agent's DOCKER_HOST), beside the hub's own Ollama at OLLAMA_URL, which lacks the model.
 */

const MODEL = 'llama3.2:3b';
const OLLAMA_PORT = 11434;

let hubOllama: OllamaApiSim;
let agx: OllamaApiSim;
let nano: OllamaApiSim;
let engine: SwarmEngineSim;
let agent: RunningAgent;
let owner: Client;
let member: Client;

interface Chat {
  status: number;
  json?: { message: string };
  events: ChatStreamEvent[];
  meta?: Extract<ChatStreamEvent, { type: 'meta' }>;
  text: string;
}

/** POSTs /api/llm/chat as the console does; `onMeta` is called as soon as the answer starts. */
async function chat(
  c: Client,
  body: unknown,
  onMeta?: (node: string | null | undefined) => void,
): Promise<Chat> {
  const res = await fetch(`${c.baseUrl}/api/llm/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `nexus_session=${c.cookie('nexus_session')}` },
    body: JSON.stringify(body),
  });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: res.status, json: (await res.json()) as { message: string }, events: [], text: '' };
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
    if (event.type === 'meta') onMeta?.(event.node);
  }
  const meta = events.find((e) => e.type === 'meta');
  const text = events.map((e) => (e.type === 'delta' ? e.content : '')).join('');
  return { status: res.status, events, meta, text };
}

const ask = (c: Client, content: string) => chat(c, { model: MODEL, messages: [{ role: 'user', content }] });

const endpoints = async () => {
  const res = await owner.get('/api/llm/endpoints');
  expect(res.status, res.text).toBe(200);
  return llmEndpointListSchema.parse(res.json).endpoints;
};

/** A gate a simulator waits at before its second chunk, so a chat stays open. */
function gate() {
  let open!: () => void;
  const until = new Promise<void>((r) => (open = r));
  return { at: 1, until, open };
}

beforeAll(async () => {
  hubOllama = await startOllamaApiSim({ models: [{ name: 'qwen2.5:0.5b', size: 397_821_319 }] });
  agx = await startOllamaApiSim({ host: '127.0.0.2', models: [{ name: MODEL, size: 2_019_393_189 }] });
  nano = await startOllamaApiSim({ host: '127.0.0.3', models: [{ name: MODEL, size: 2_019_393_189 }] });
  const port = (sim: OllamaApiSim) => Number(new URL(sim.url).port);
  engine = await startSwarmEngineSim();
  engine.nodes = [
    simNode('n0hub000000000000000000a', 'hub', '127.0.0.1', 'manager'),
    simNode('n1agx0000000000000000000', 'orin-agx', '127.0.0.2'),
    simNode('n2nano000000000000000000', 'orin-nano', '127.0.0.3'),
  ];
  engine.services = [
    // The official image, and a Jetson build of Ollama that says what it is by its label.
    simService('s1ollama00000000000000000', 'ai_ollama', 'ollama/ollama:0.6.5@sha256:' + 'a'.repeat(64), {
      publish: [{ target: OLLAMA_PORT, published: port(agx) }],
    }),
    simService('s2jetson00000000000000000', 'ai_ollama-nano', 'dustynv/ollama:r36.4.0', {
      labels: { 'nexus.llm': 'ollama' },
    }),
    simService('s3web0000000000000000000', 'web_nginx', 'nginx:1.27', {
      publish: [{ target: 80, published: 8080 }],
    }),
  ];
  engine.tasks = [
    simTask('t1agx000000000000000000', 's1ollama00000000000000000', 'n1agx0000000000000000000', 'running', [
      { target: OLLAMA_PORT, published: port(agx) },
    ]),
    simTask('t2nano00000000000000000', 's2jetson00000000000000000', 'n2nano000000000000000000', 'running', [
      { target: OLLAMA_PORT, published: port(nano) },
    ]),
    // Not endpoints: an old task shut down, one still pending, and a service that is not Ollama.
    simTask('t3old000000000000000000', 's1ollama00000000000000000', 'n2nano000000000000000000', 'shutdown'),
    simTask('t4pend00000000000000000', 's1ollama00000000000000000', 'n0hub000000000000000000a', 'pending'),
    simTask('t5web000000000000000000', 's3web0000000000000000000', 'n0hub000000000000000000a', 'running', [
      { target: 80, published: 8080 },
    ]),
  ];
  agent = await startAgent({ env: { OLLAMA_URL: hubOllama.url, DOCKER_HOST: engine.url } });
  owner = new Client(agent.url);
  member = new Client(agent.url);
  await signUp(owner, { name: 'Olive Owner' });
  await signUp(member, { name: 'Mo Member' });
});

afterAll(async () => {
  await agent?.stop();
  await Promise.all([hubOllama?.close(), agx?.close(), nano?.close(), engine?.close()]);
});

describe('the LLM across the fleet', () => {
  it('lists the endpoints the swarm runs Ollama on, to admins only', async () => {
    expect((await member.get('/api/llm/endpoints')).status).toBe(403);
    expect((await new Client(agent.url).get('/api/llm/endpoints')).status).toBe(401);
    const list = await endpoints();
    expect(list).toHaveLength(3);
    expect(Object.fromEntries(list.map((e) => [e.url, [e.node, e.healthy, e.outstanding]]))).toEqual({
      [agx.url]: ['orin-agx', true, 0],
      [nano.url]: ['orin-nano', true, 0],
      [hubOllama.url]: [expect.any(String), true, 0],
    });
    expect(list.find((e) => e.url === agx.url)?.models).toEqual([MODEL]);
    expect(list.find((e) => e.id === 'hub')?.models).toEqual(['qwen2.5:0.5b']);
    expect(engine.requests).toEqual(expect.arrayContaining(['GET /services', 'GET /tasks', 'GET /nodes']));
  });

  it('sends a chat to a node that has the model, streaming, and the next to the one with fewer outstanding requests', async () => {
    const held = [gate(), gate()];
    agx.gate = held[0]!;
    nano.gate = held[1]!;
    const nodes: (string | null | undefined)[] = [];
    let started!: () => void;
    const firstStarted = new Promise<void>((r) => (started = r));
    const first = chat(
      member,
      { model: MODEL, messages: [{ role: 'user', content: 'one two three four' }] },
      (n) => {
        nodes.push(n);
        started();
      },
    );
    // The first answer is held open on its node; the second chat must go to the other node.
    await firstStarted;
    const second = chat(
      member,
      { model: MODEL, messages: [{ role: 'user', content: 'five six seven' }] },
      (n) => nodes.push(n),
    );
    await waitFor(
      () => agx.activeChats + nano.activeChats,
      (n) => n === 2,
      { what: 'both nodes streaming one chat each' },
    );
    expect(agx.activeChats).toBe(1);
    expect(nano.activeChats).toBe(1);
    const during = await endpoints();
    expect(during.filter((e) => e.id !== 'hub').map((e) => e.outstanding)).toEqual([1, 1]);
    held.forEach((g) => g.open());
    const [a, b] = await Promise.all([first, second]);
    agx.gate = null;
    nano.gate = null;
    for (const r of [a, b]) {
      expect(r.events.at(-1)?.type).toBe('done');
      // Still a stream: one delta per word.
      expect(r.events.filter((e) => e.type === 'delta').length).toBeGreaterThan(1);
    }
    expect(new Set(nodes)).toEqual(new Set(['orin-agx', 'orin-nano']));
    expect(hubOllama.chatRequests).toHaveLength(0);
  });

  it('skips a node that is down without an error, and uses it again once it is back', async () => {
    await nano.stop();
    const answered: (string | null | undefined)[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await ask(member, `question ${i}`);
      expect(r.status).toBe(200);
      expect(r.events.some((e) => e.type === 'error')).toBe(false);
      expect(r.events.at(-1)?.type).toBe('done');
      answered.push(r.meta?.node);
    }
    expect(new Set(answered)).toEqual(new Set(['orin-agx']));
    const down = (await endpoints()).find((e) => e.url === nano.url)!;
    expect(down).toMatchObject({ healthy: false, outstanding: 0 });
    expect(down.lastError).toBeTruthy();
    expect(Date.parse(down.retryAt!)).toBeGreaterThan(Date.now());

    // Back: after its rest (5 s) it is tried again and answers again.
    await nano.start();
    await waitFor(
      async () => (await ask(member, 'are you back')).meta?.node,
      (node) => node === 'orin-nano',
      { timeoutMs: 20_000, what: 'orin-nano answering again' },
    );
    const back = (await endpoints()).find((e) => e.url === nano.url)!;
    expect(back).toMatchObject({ healthy: true, lastError: null, retryAt: null });
  }, 30_000);

  it('answers on the hub’s own Ollama what only it has', async () => {
    const r = await chat(member, { model: 'qwen2.5:0.5b', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.events.at(-1)?.type).toBe('done');
    expect(r.meta?.node).toBe((await endpoints()).find((e) => e.id === 'hub')!.node);
  });

  it('lets no member choose where a chat goes: extra fields naming an address are ignored', async () => {
    // A listener on an address of its own that nothing should ever dial.
    const dialled: string[] = [];
    const trap = net.createServer((s) => {
      dialled.push('connection');
      s.destroy();
    });
    await new Promise<void>((r) => trap.listen(0, '127.0.0.9', r));
    const trapUrl = `http://127.0.0.9:${(trap.address() as AddressInfo).port}`;
    try {
      const r = await chat(member, {
        model: MODEL,
        messages: [{ role: 'user', content: 'where do you go' }],
        endpoint: trapUrl,
        url: trapUrl,
        baseUrl: trapUrl,
        node: trapUrl,
      });
      expect(r.events.at(-1)?.type).toBe('done');
      expect(['orin-agx', 'orin-nano']).toContain(r.meta?.node);
      expect(dialled).toEqual([]);
      expect((await endpoints()).map((e) => e.url)).not.toContain(trapUrl);
    } finally {
      await new Promise<void>((r) => trap.close(() => r()));
    }
  });

  it('records on each usage row the node that answered, with totals per node', async () => {
    const res = await owner.get('/api/llm/usage?days=1');
    expect(res.status).toBe(200);
    const report = usageReportSchema.parse(res.json);
    const nodes = new Set(report.rows.map((r) => r.node));
    expect(nodes.size).toBe(3);
    expect([...nodes]).toEqual(expect.arrayContaining(['orin-agx', 'orin-nano']));
    expect(nodes.has(null)).toBe(false);
    const agxTotal = report.nodes.find((n) => n.node === 'orin-agx')!;
    expect(agxTotal.messages).toBe(
      report.rows.filter((r) => r.node === 'orin-agx').reduce((n, r) => n + r.messages, 0),
    );
    expect(agxTotal.messages).toBeGreaterThanOrEqual(5);
    // A member's own report names the nodes too.
    const own = usageReportSchema.parse((await member.get('/api/llm/usage?days=1')).json);
    expect(own.scope).toBe('own');
    expect(own.rows.every((r) => r.node !== null)).toBe(true);
  });
});
