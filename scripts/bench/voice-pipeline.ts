/**
 * Benchmark: the pipeline's own overhead per voice run — everything but the speech-to-text and
 * language-model engines' time (issue #9's target: under 50 ms).
 *
 *   npx tsc -b agent && npx tsx scripts/bench/voice-pipeline.ts        (BENCH_RUNS=60 by default)
 *
 * A flow "VAD → STT → LLM → Home Assistant light.turn_on" is run BENCH_RUNS times, one after another,
 * with a 3.6 s espeak-ng clip of "turn on the kitchen light" (0.8 s of silence before, 1 s after),
 * posted as audio/wav to POST /api/flows/:id/run?wait=true. The engines are the test simulators on
 * loopback: the Wyoming STT service backed by pocketsphinx, the Ollama API simulator, the Home
 * Assistant simulator. Per run:
 *   - run overhead = the run's recorded duration − the STT stage's engine time − the LLM stage's;
 *     what is left is VAD (decode, resample, detect, trim), the stages' bookkeeping and records, the
 *     prompt template and the Home Assistant call;
 *   - request overhead = the client's round trip − the same engine times: adds the upload of the
 *     clip, storing it and answering.
 * The STT "engine time" is the Wyoming exchange as the agent measures it (sending 1024-sample
 * chunks, the recognizer, the transcript), the LLM's what the LLM port reports.
 */
import os from 'node:os';
import { flowRunSchema } from '../../agent/src/contract/index.js';
import { startAgent } from '../../tests/support/agent.js';
import { signUp } from '../../tests/support/auth.js';
import { Client } from '../../tests/support/http.js';
import { startHomeAssistantSim } from '../../tests/fixtures/home-assistant-sim.js';
import {
  KITCHEN_LIGHT_MODEL,
  kitchenLightVoiceFlow,
  nameTheLight,
} from '../../tests/fixtures/kitchen-light-flow.js';
import { startOllamaApiSim } from '../../tests/fixtures/ollama-api-sim.js';
import { startWyomingSttSim } from '../../tests/fixtures/wyoming-stt-sim.js';
import { Recordings } from '../../tests/fixtures/recordings.js';

const RUNS = Math.max(50, Number(process.env.BENCH_RUNS ?? 60));
const WARMUP = 3;

const recordings = new Recordings();
const clip = recordings.read(recordings.pad(recordings.speak('turn on the kitchen light'), 0.8, 1));

const [ollama, ha, stt] = await Promise.all([
  startOllamaApiSim({ models: [{ name: KITCHEN_LIGHT_MODEL, size: 2_019_393_189, loaded: true }] }),
  startHomeAssistantSim(),
  startWyomingSttSim(),
]);
ollama.answer = nameTheLight;
const agent = await startAgent({
  env: { OLLAMA_URL: ollama.url, HA_URL: ha.url, HA_TOKEN: ha.token },
});
const owner = new Client(agent.url);
await signUp(owner, { name: 'Bench Owner' });
const cookie = `nexus_session=${owner.cookie('nexus_session')}`;
const saved = await owner.put('/api/speech/settings', {
  stt: { engine: 'wyoming', wyomingHost: '127.0.0.1', wyomingPort: stt.port, language: 'en' },
  tts: { engine: null },
});
if (saved.status !== 200) throw new Error(`speech settings: ${saved.status} ${saved.text}`);
const created = await owner.post('/api/flows', kitchenLightVoiceFlow);
if (created.status !== 201) throw new Error(`create flow: ${created.status} ${created.text}`);
const flowId = (created.json as { id: number }).id;

interface Sample {
  runMs: number;
  requestMs: number;
  sttMs: number;
  llmMs: number;
  stages: Record<string, number>;
}

async function once(): Promise<Sample> {
  const started = performance.now();
  const res = await fetch(`${agent.url}/api/flows/${flowId}/run?wait=true`, {
    method: 'POST',
    headers: { 'content-type': 'audio/wav', cookie },
    body: new Uint8Array(clip),
  });
  const body: unknown = await res.json();
  const requestMs = performance.now() - started;
  if (res.status !== 200) throw new Error(`run: ${res.status} ${JSON.stringify(body)}`);
  const result = flowRunSchema.parse(body);
  if (result.status !== 'succeeded' || result.transcript !== 'turn on the kitchen light') {
    throw new Error(`run did not succeed: ${JSON.stringify(result).slice(0, 800)}`);
  }
  const output = (id: string) => result.stages.find((s) => s.stageId === id)?.output as { ms: number };
  return {
    runMs: result.durationMs ?? NaN,
    requestMs,
    sttMs: output('stt').ms,
    llmMs: output('intent').ms,
    stages: Object.fromEntries(result.stages.map((s) => [s.stageId, s.durationMs ?? NaN])),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const stats = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const r = (v: number) => Math.round(v * 10) / 10;
  return { p50: r(percentile(s, 50)), p95: r(percentile(s, 95)), max: r(s.at(-1)!) };
};

for (let i = 0; i < WARMUP; i++) await once();
const callsBefore = ha.serviceCalls.length;
const samples: Sample[] = [];
for (let i = 0; i < RUNS; i++) samples.push(await once());

const report = {
  runs: RUNS,
  clip: { bytes: clip.length, seconds: Math.round(((clip.length - 44) / 32000) * 10) / 10 },
  homeAssistantCalls: ha.serviceCalls.length - callsBefore,
  runOverheadMs: stats(samples.map((s) => s.runMs - s.sttMs - s.llmMs)),
  requestOverheadMs: stats(samples.map((s) => s.requestMs - s.sttMs - s.llmMs)),
  engineMs: { stt: stats(samples.map((s) => s.sttMs)), llm: stats(samples.map((s) => s.llmMs)) },
  stageMs: Object.fromEntries(
    Object.keys(samples[0]!.stages).map((id) => [id, stats(samples.map((s) => s.stages[id]!))]),
  ),
  totalRunMs: stats(samples.map((s) => s.runMs)),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? 'unknown' },
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
const target = report.runOverheadMs.p95 < 50 ? 'met' : 'NOT met';
process.stdout.write(
  `Pipeline overhead per voice run: p50 ${report.runOverheadMs.p50} ms, p95 ${report.runOverheadMs.p95} ms (target < 50 ms: ${target})\n`,
);

await agent.stop();
await Promise.all([ollama.stop(), ha.stop(), stt.close()]);
recordings.cleanup();
