/**
 * Benchmark: what the fleet's LLM router adds to a chat (issue 24: under 2 ms p95 per request).
 *
 *   npx tsc -b agent && npx tsx scripts/bench/llm-router.ts
 *
 * Two measurements, each side by side in one run so both sides see the same machine load:
 *
 * 1. The choice itself, in this process: the endpoint pool (agent/src/features/llm/endpoints.service.ts)
 *    with 3 endpoints whose model lists are cached, `acquire` + `release` per request: the work the
 *    router does on every chat.
 * 2. Whole chats: the same short answer (8 words) from the Ollama simulator three ways, in turn:
 *    directly with the ollama JS library; through an agent whose built-in provider is the hub's
 *    Ollama alone (no fleet); and through an agent whose router spreads over 3 endpoints (the
 *    hub's Ollama and two "nodes" on 127.0.0.2/127.0.0.3, found through the Engine API simulator).
 *    Request to last chunk, client side. The router's cost is fleet − hub-only.
 */
import os from 'node:os';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { Ollama } from 'ollama';
import { createEndpointPool } from '../../agent/src/features/llm/endpoints.service.js';
import type { Logger } from '../../agent/src/lib/logger.js';
import { startAgent, type RunningAgent } from '../../tests/support/agent.js';
import { signUp } from '../../tests/support/auth.js';
import { Client } from '../../tests/support/http.js';
import { startOllamaApiSim, type OllamaApiSim } from '../../tests/fixtures/ollama-api-sim.js';
import { simNode, simService, simTask, startSwarmEngineSim } from '../../tests/fixtures/swarm-engine-sim.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 150);
const PICKS = Number(process.env.BENCH_PICKS ?? 20_000);
const MODEL = 'llama3.2:3b';
const out = (line: string) => process.stdout.write(`${line}\n`);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const stats = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), mean: s.reduce((a, b) => a + b, 0) / s.length };
};
const fmt = (x: number, digits = 2) => x.toFixed(digits);

const model = { name: MODEL, size: 2_019_393_189, loaded: true };
const sims: OllamaApiSim[] = [
  await startOllamaApiSim({ models: [model] }),
  await startOllamaApiSim({ host: '127.0.0.2', models: [model] }),
  await startOllamaApiSim({ host: '127.0.0.3', models: [model] }),
];
for (const s of sims) s.answer = () => 'one two three four five six seven eight';
const [hub, agx, nano] = sims as [OllamaApiSim, OllamaApiSim, OllamaApiSim];
const port = (s: OllamaApiSim) => Number(new URL(s.url).port);

out(`LLM router benchmark, ${new Date().toISOString()}`);
out(
  `load average before: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (${os.cpus().length} cores)`,
);

// ---- 1. the choice, in process -------------------------------------------------------------
const quiet = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;
const pool = createEndpointPool({
  hubUrl: hub.url,
  hubNode: 'hub',
  source: {
    list: async () => [
      { id: 'agx', node: 'orin-agx', url: agx.url },
      { id: 'nano', node: 'orin-nano', url: nano.url },
    ],
  },
  log: quiet,
});
const none = new Set<string>();
await pool.models({ fresh: true });
const pickUs: number[] = [];
for (let i = 0; i < PICKS; i++) {
  const t0 = performance.now();
  const lease = await pool.acquire(MODEL, none);
  lease!.release();
  pickUs.push((performance.now() - t0) * 1000);
}
const pick = stats(pickUs);
out('');
out(`1. Choosing an endpoint among 3 (acquire + release), ${PICKS} times:`);
out(`   p50 ${fmt(pick.p50)} µs, p95 ${fmt(pick.p95)} µs, mean ${fmt(pick.mean)} µs`);

// ---- 2. whole chats ------------------------------------------------------------------------
const engine = await startSwarmEngineSim();
engine.nodes = [simNode('n1', 'orin-agx', '127.0.0.2'), simNode('n2', 'orin-nano', '127.0.0.3')];
engine.services = [simService('s1', 'ai_ollama', 'ollama/ollama:0.6.5')];
engine.tasks = [
  simTask('t1', 's1', 'n1', 'running', [{ target: 11434, published: port(agx) }]),
  simTask('t2', 's1', 'n2', 'running', [{ target: 11434, published: port(nano) }]),
];
// The hub-only agent has an engine too, one without Ollama services, so both do the same reads.
const emptyEngine = await startSwarmEngineSim();
const hubOnly = await startAgent({ env: { OLLAMA_URL: hub.url, DOCKER_HOST: emptyEngine.url } });
const fleet = await startAgent({ env: { OLLAMA_URL: hub.url, DOCKER_HOST: engine.url } });

async function signedIn(agent: RunningAgent) {
  const c = new Client(agent.url);
  await signUp(c, { name: 'Bench Owner' });
  return { url: agent.url, cookie: `nexus_session=${c.cookie('nexus_session')}` };
}
const sides = { hubOnly: await signedIn(hubOnly), fleet: await signedIn(fleet) };

async function throughAgent(side: { url: string; cookie: string }): Promise<string | null | undefined> {
  const res = await fetch(`${side.url}/api/llm/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: side.cookie },
    body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'bench' }] }),
  });
  const reader = res
    .body!.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  let node: string | null | undefined;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const event = JSON.parse(value.data) as { type: string; node?: string | null; message?: string };
    if (event.type === 'meta') node = event.node;
    if (event.type === 'error') throw new Error(event.message);
  }
  return node;
}

async function direct() {
  const stream = await new Ollama({ host: hub.url }).chat({
    model: MODEL,
    messages: [{ role: 'user', content: 'bench' }],
    stream: true,
  });
  for await (const _ of stream) void _;
}

// Warm up every path (connections, JIT, the endpoints' lists).
for (let i = 0; i < 10; i++) {
  await direct();
  await throughAgent(sides.hubOnly);
  await throughAgent(sides.fleet);
}
const times = { direct: [] as number[], hubOnly: [] as number[], fleet: [] as number[] };
const answeredBy = new Map<string, number>();
for (let i = 0; i < ROUNDS; i++) {
  let t0 = performance.now();
  await direct();
  times.direct.push(performance.now() - t0);
  t0 = performance.now();
  await throughAgent(sides.hubOnly);
  times.hubOnly.push(performance.now() - t0);
  t0 = performance.now();
  const node = String(await throughAgent(sides.fleet));
  times.fleet.push(performance.now() - t0);
  answeredBy.set(node, (answeredBy.get(node) ?? 0) + 1);
}
const d = stats(times.direct);
const h = stats(times.hubOnly);
const f = stats(times.fleet);
out('');
out(`2. Whole chats (8 chunks), ${ROUNDS} of each, in turn; request to last chunk, ms:`);
out('   | path                               | p50    | p95    | mean   |');
out('   | ---------------------------------- | ------ | ------ | ------ |');
out(`   | direct to Ollama (ollama library)  | ${fmt(d.p50)} | ${fmt(d.p95)} | ${fmt(d.mean)} |`);
out(`   | agent, hub's Ollama only           | ${fmt(h.p50)} | ${fmt(h.p95)} | ${fmt(h.mean)} |`);
out(`   | agent, router over 3 endpoints     | ${fmt(f.p50)} | ${fmt(f.p95)} | ${fmt(f.mean)} |`);
out(`   router's cost (3 endpoints − hub only): p50 ${fmt(f.p50 - h.p50)} ms, p95 ${fmt(f.p95 - h.p95)} ms`);
out(`   answered by: ${[...answeredBy].map(([n, c]) => `${n} ${c}`).join(', ')}`);
out(
  `load average after: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

await Promise.all([hubOnly.stop(), fleet.stop()]);
await Promise.all([...sims.map((s) => s.close()), engine.close(), emptyEngine.close()]);
