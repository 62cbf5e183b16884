/**
 * Benchmark: what streaming a chat through the agent costs per chunk, against talking to Ollama
 * directly, and whether 20 chats at once stream without blocking each other.
 *
 *   npx tsc -b agent && npx tsx scripts/bench/llm-stream.ts
 *
 * Ollama is the protocol simulator (tests/fixtures/ollama-api-sim.ts) in this process, so the
 * moment each chunk is written and the moment a client receives it are read from one clock.
 * "Direct" reads Ollama's NDJSON with the ollama JS library, as an app talking to Ollama would;
 * "agent" is POST /api/llm/chat read as server-sent events, as the console does. Per-chunk
 * latency = received − written; the agent's overhead is the difference between the two.
 */
import fs from 'node:fs';
import os from 'node:os';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { Ollama } from 'ollama';
import { startAgent } from '../../tests/support/agent.js';
import { signUp } from '../../tests/support/auth.js';
import { Client } from '../../tests/support/http.js';
import { startOllamaApiSim } from '../../tests/fixtures/ollama-api-sim.js';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 200);
const CHUNK_DELAY_MS = Number(process.env.BENCH_CHUNK_DELAY_MS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 20);
const CONCURRENT_CHUNKS = 100;
const CONCURRENT_DELAY_MS = 20;
const MODEL = 'llama3.2:3b';

const sim = await startOllamaApiSim({ models: [{ name: MODEL, size: 2_019_393_189, loaded: true }] });
const agent = await startAgent({ env: { OLLAMA_URL: sim.url } });
const client = new Client(agent.url);
await signUp(client, { name: 'Bench Owner' });
const cookie = `nexus_session=${client.cookie('nexus_session')}`;

let chunkCount = CHUNKS;
sim.answer = () => Array.from({ length: chunkCount }, (_, i) => `w${i}`).join(' ');
/** sentAt[chat][chunk]: when the simulator wrote the chunk. */
const sentAt: number[][] = [];
sim.onChunk = (chat, i) => ((sentAt[chat] ??= [])[i] = performance.now());

/** CPU milliseconds the agent process has used so far (user + system, from /proc). */
const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux
function agentCpuMs(): number {
  const fields = fs.readFileSync(`/proc/${agent.process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return {
    n: s.length,
    mean,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    max: s.at(-1)!,
  };
};
const fmt = (x: number) => x.toFixed(2);

/** Streams one chat straight from Ollama; returns each chunk's receive time. */
async function direct(): Promise<{ chat: number; received: number[] }> {
  const chat = sim.chatRequests.length;
  const received: number[] = [];
  const stream = await new Ollama({ host: sim.url }).chat({
    model: MODEL,
    messages: [{ role: 'user', content: 'bench' }],
    stream: true,
  });
  for await (const part of stream) if (!part.done) received.push(performance.now());
  return { chat, received };
}

/** The simulator's number for the chat whose last message was `content`. */
const chatWith = (content: string) =>
  sim.chatRequests.findIndex((r) => r.messages.at(-1)?.content === content);
let seq = 0;

/** Streams one chat through the agent; returns each delta's receive time and its chat number at the simulator. */
async function viaAgent(): Promise<{ chat: number; received: number[] }> {
  const content = `bench ${++seq}`;
  const received: number[] = [];
  const res = await fetch(`${agent.url}/api/llm/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content }] }),
  });
  if (!res.ok || !res.body) throw new Error(`chat answered ${res.status}: ${await res.text()}`);
  const reader = res.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (value.event === 'delta') received.push(performance.now());
    if (value.event === 'error') throw new Error(value.data);
  }
  return { chat: chatWith(content), received };
}

const latencies = (r: { chat: number; received: number[] }) =>
  r.received.map((t, i) => t - sentAt[r.chat]![i]!);

// ---- 1. Per-chunk latency, alternating direct and agent rounds (after one warm-up of each).
sim.chunkDelayMs = CHUNK_DELAY_MS;
await direct();
await viaAgent();
const directLat: number[] = [];
const agentLat: number[] = [];
let agentCpu = 0;
for (let round = 0; round < ROUNDS; round++) {
  directLat.push(...latencies(await direct()));
  const cpuBefore = agentCpuMs();
  agentLat.push(...latencies(await viaAgent()));
  agentCpu += agentCpuMs() - cpuBefore;
}
const d = summary(directLat);
const a = summary(agentLat);

// ---- 2. Concurrent chats through the agent.
chunkCount = CONCURRENT_CHUNKS;
sim.chunkDelayMs = CONCURRENT_DELAY_MS;
sim.maxActiveChats = 0;
const maxGap = (received: number[]) => Math.max(...received.slice(1).map((t, i) => t - received[i]!));
const single = await viaAgent();
const singleMs = single.received.at(-1)! - sentAt[single.chat]![0]!;
// The same 20 chats straight from Ollama: what this machine does without the agent in between.
const directStarted = performance.now();
const directResults = await Promise.all(Array.from({ length: CONCURRENT }, () => direct()));
const directWallMs = performance.now() - directStarted;
const directGaps = summary(directResults.map((r) => maxGap(r.received)));
const cpuBefore = agentCpuMs();
const benchCpuBefore = process.cpuUsage();
const started = performance.now();
const results = await Promise.all(Array.from({ length: CONCURRENT }, () => viaAgent()));
const wallMs = performance.now() - started;
const concurrentCpuMs = agentCpuMs() - cpuBefore;
const benchCpu = process.cpuUsage(benchCpuBefore);
const benchCpuMs = (benchCpu.user + benchCpu.system) / 1000;
const perChat = results.map((r) => {
  const gaps = r.received.slice(1).map((t, i) => t - r.received[i]!);
  return {
    durationMs: r.received.at(-1)! - started,
    firstMs: r.received[0]! - started,
    maxGapMs: Math.max(...gaps),
  };
});
const loadLat = results.flatMap(latencies);
const load = summary(loadLat);
const durations = summary(perChat.map((c) => c.durationMs));
const gaps = summary(perChat.map((c) => c.maxGapMs));
const firsts = summary(perChat.map((c) => c.firstMs));

const out = {
  machine: {
    cores: os.cpus().length,
    loadAverage: os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' '),
  },
  perChunk: {
    chunks: d.n,
    chunkDelayMs: CHUNK_DELAY_MS,
    directMs: { mean: fmt(d.mean), p50: fmt(d.p50), p95: fmt(d.p95), p99: fmt(d.p99) },
    agentMs: { mean: fmt(a.mean), p50: fmt(a.p50), p95: fmt(a.p95), p99: fmt(a.p99) },
    agentCpuMsPerChunk: fmt(agentCpu / a.n),
    overheadMs: {
      mean: fmt(a.mean - d.mean),
      p50: fmt(a.p50 - d.p50),
      p95: fmt(a.p95 - d.p95),
      p99: fmt(a.p99 - d.p99),
    },
  },
  concurrent: {
    chats: CONCURRENT,
    chunksEach: CONCURRENT_CHUNKS,
    chunkDelayMs: CONCURRENT_DELAY_MS,
    streamingAtOnceAtOllama: sim.maxActiveChats,
    directWallMs: Math.round(directWallMs),
    directLargestGapMs: { p50: fmt(directGaps.p50), max: fmt(directGaps.max) },
    singleChatLargestGapMs: fmt(maxGap(single.received)),
    agentCpuPercentOfOneCore: Math.round((concurrentCpuMs / wallMs) * 100),
    /** The simulator and the 20 clients share this process. */
    benchCpuPercentOfOneCore: Math.round((benchCpuMs / wallMs) * 100),
    singleChatMs: Math.round(singleMs),
    wallMs: Math.round(wallMs),
    perChatDurationMs: { p50: Math.round(durations.p50), max: Math.round(durations.max) },
    timeToFirstChunkMs: { p50: fmt(firsts.p50), max: fmt(firsts.max) },
    largestGapBetweenChunksMs: { p50: fmt(gaps.p50), max: fmt(gaps.max) },
    perChunkLatencyUnderLoadMs: { p50: fmt(load.p50), p95: fmt(load.p95), p99: fmt(load.p99) },
  },
};
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);

await agent.stop();
await sim.close();
