/**
 * Benchmark: what the hub adds between a Wyoming satellite's last audio chunk of a command and the
 * speech-to-text service receiving `transcribe` (issue 15's target: under 30 ms p95), engines'
 * own time excluded.
 *
 *   npx tsc -b agent && npx tsx scripts/bench/satellite-voice.ts     (BENCH_RUNS=50, BENCH_SPEED=1)
 *
 * The wyoming-satellite stand-in (tests/fixtures/wyoming-satellite-sim.ts) is added to the agent
 * by host and port; a voice flow "VAD → STT" lists it. Each utterance: the satellite wakes, sends
 * `detection` and `run-pipeline`, then streams an espeak-ng recording of "turn on the kitchen
 * light" as bare 1024-sample chunks in real time (BENCH_SPEED times faster), then room noise,
 * until the hub sends the transcript. The hub's endpointer ends the command after ~700 ms of
 * silence and says so with `voice-stopped` (its audio timestamp names the deciding chunk). Per
 * utterance: latency = when the Wyoming STT service (pocketsphinx behind it) received
 * `transcribe` − when the satellite wrote the deciding chunk. In between: the chunk's trip to the
 * agent, endpointing, the WAV, the run's record and clip, the VAD stage (decode, resample,
 * detect, trim) and the STT stage up to its request. All processes share this machine's clock.
 */
import os from 'node:os';
import { startAgent } from '../../tests/support/agent.js';
import { signUp } from '../../tests/support/auth.js';
import { Client } from '../../tests/support/http.js';
import { Recordings } from '../../tests/fixtures/recordings.js';
import { startWyomingSatelliteSim } from '../../tests/fixtures/wyoming-satellite-sim.js';
import { startWyomingSttSim } from '../../tests/fixtures/wyoming-stt-sim.js';

const RUNS = Math.max(50, Number(process.env.BENCH_RUNS ?? 50));
const SPEED = Math.max(1, Number(process.env.BENCH_SPEED ?? 1));
const WARMUP = 3;

const recordings = new Recordings();
const phrase = recordings.read(recordings.pad(recordings.speak('turn on the kitchen light'), 0.3, 0));
const [stt, satellite] = await Promise.all([
  startWyomingSttSim(),
  startWyomingSatelliteSim({ recording: phrase, speed: SPEED }),
]);
const agent = await startAgent();
const owner = new Client(agent.url);
await signUp(owner, { name: 'Bench Owner' });

const must = (res: { status: number; text: string }, status: number, what: string) => {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text}`);
};
must(
  await owner.put('/api/speech/settings', {
    stt: { engine: 'wyoming', wyomingHost: '127.0.0.1', wyomingPort: stt.port, language: 'en' },
    tts: { engine: null },
  }),
  200,
  'speech settings',
);
const added = await owner.post('/api/devices/satellite/wyoming', { host: '127.0.0.1', port: satellite.port });
must(added, 201, 'add satellite');
const satelliteId = (added.json as { id: number }).id;
const flow = await owner.post('/api/flows', {
  name: 'Satellite bench',
  trigger: { type: 'voice', satellites: [satelliteId] },
  stages: [
    { id: 'vad', name: 'Trim silence', kind: 'vad', config: { minSpeechMs: 200 } },
    { id: 'stt', name: 'Transcribe', kind: 'stt', config: {} },
  ],
});
must(flow, 201, 'create flow');
must(
  await owner.put(`/api/flows/${(flow.json as { id: number }).id}/status`, { status: 'active' }),
  200,
  'activate flow',
);

async function until(check: () => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

process.stderr.write('waiting for the satellite\n');
await until(() => satellite.state === 'running', 'the satellite to be connected and running');
process.stderr.write('satellite running\n');

async function once(): Promise<{ latencyMs: number; recognitionMs: number }> {
  const requests = stt.requestTimes.length;
  const heard = stt.transcripts.length;
  satellite.wake();
  await until(() => satellite.stoppedBy !== null, 'the transcript');
  if (satellite.stoppedBy !== 'transcript') throw new Error(`the stream ended by ${satellite.stoppedBy}`);
  await until(() => stt.transcripts.length > heard, 'the STT service');
  const text = stt.transcripts.at(-1)!.text;
  if (text !== 'turn on the kitchen light') throw new Error(`transcribed as "${text}"`);
  const deciding = satellite.decidingChunk();
  const requestedAt = stt.requestTimes[requests];
  if (!deciding || requestedAt === undefined) throw new Error('no deciding chunk or no transcribe');
  return { latencyMs: requestedAt - deciding.at, recognitionMs: stt.recognitionMs.at(-1)! };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const stats = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const r = (v: number) => Math.round(v * 10) / 10;
  return { p50: r(percentile(s, 50)), p95: r(percentile(s, 95)), max: r(s.at(-1)!) };
};

for (let i = 0; i < WARMUP; i++) await once();
const samples = [];
for (let i = 0; i < RUNS; i++) {
  samples.push(await once());
  if ((i + 1) % 10 === 0) process.stderr.write(`${i + 1}/${RUNS} utterances\n`);
}

const report = {
  utterances: RUNS,
  speed: SPEED,
  clip: { seconds: Math.round(((phrase.length - 44) / 32000) * 10) / 10 },
  lastChunkToTranscribeMs: stats(samples.map((s) => s.latencyMs)),
  engineMs: { recognition: stats(samples.map((s) => s.recognitionMs)) },
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? 'unknown' },
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
const target = report.lastChunkToTranscribeMs.p95 < 30 ? 'met' : 'NOT met';
process.stdout.write(
  `Last satellite chunk → STT transcribe: p50 ${report.lastChunkToTranscribeMs.p50} ms, p95 ${report.lastChunkToTranscribeMs.p95} ms (target < 30 ms: ${target})\n`,
);

await agent.stop();
await Promise.all([satellite.stop(), stt.close()]);
recordings.cleanup();
