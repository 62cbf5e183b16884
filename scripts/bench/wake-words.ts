/**
 * Benchmark: wake-word sample analysis and the dataset export.
 *
 *   npx tsc -b agent && npx tsx scripts/bench/wake-words.ts [--runs 50]
 *
 * (1) Quality analysis (decode, resample to 16 kHz, levels, VAD, verdict, 16-bit encode) of a 2 s
 * take made with espeak-ng + sox, in process: 16 kHz mono and 48 kHz stereo, median and p95 of
 * `runs` runs after a warm-up. Target: under 20 ms. (2) The dataset export over HTTP from the real,
 * compiled agent: 50 accepted 2 s takes, GET /api/wake-words/:id/dataset, median of 5. Target: under 1 s.
 */
import { parseArgs } from 'node:util';
import { analyseSample } from '../../agent/src/features/wake-words/wake-words.quality.js';
import { Recordings } from '../../tests/fixtures/recordings.js';
import { startAgent } from '../../tests/support/agent.js';
import { signUp } from '../../tests/support/auth.js';
import { Client } from '../../tests/support/http.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '50' } } });
const RUNS = Number(values.runs);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function time(fn: () => unknown, runs: number): { median: number; p95: number } {
  for (let i = 0; i < 5; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p95: percentile(times, 95) };
}

const recordings = new Recordings();
try {
  const speech = recordings.speak('hey nexus');
  // 2.0 s in all: the phrase (about 1.2 s) with silence around it.
  const seconds = recordings.read(speech).length / 32_000;
  const take = recordings.pad(speech, 0.3, Math.max(0, 2 - seconds - 0.3));
  const take48 = recordings.convert(take, { rate: 48_000, channels: 2 });
  const rows: string[] = [];
  for (const [name, file] of [
    ['2 s take, 16 kHz mono 16-bit', take],
    ['2 s take, 48 kHz stereo 16-bit', take48],
  ] as const) {
    const body = recordings.read(file);
    const { median, p95 } = time(() => analyseSample(body), RUNS);
    rows.push(`| Quality analysis, ${name} | ${median.toFixed(2)} ms | ${p95.toFixed(2)} ms | < 20 ms |`);
  }

  const agent = await startAgent();
  try {
    const owner = new Client(agent.url);
    await signUp(owner);
    const id = (await owner.post('/api/wake-words', { phrase: 'hey nexus' })).json.id as number;
    const cookie = `nexus_session=${owner.cookie('nexus_session')}`;
    const body = recordings.read(take);
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${agent.url}/api/wake-words/${id}/samples?device=Bench&speaker=S${i % 5}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'audio/wav', cookie },
      });
      const sample = (await res.json()) as { id: number; status: string };
      if (sample.status !== 'accepted')
        await owner.request('PATCH', `/api/wake-words/${id}/samples/${sample.id}`, { status: 'accepted' });
    }
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 6; i++) {
      const start = performance.now();
      const res = await fetch(`${agent.url}/api/wake-words/${id}/dataset`, { headers: { cookie } });
      bytes = (await res.arrayBuffer()).byteLength;
      if (i > 0) times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    rows.push(
      `| Dataset export, 50 accepted 2 s takes (${(bytes / 1024 / 1024).toFixed(1)} MB zip), over HTTP | ${percentile(times, 50).toFixed(1)} ms | ${times.at(-1)!.toFixed(1)} ms (max of 5) | < 1 s |`,
    );
  } finally {
    await agent.stop();
  }
  process.stdout.write(`| Figure | Median | p95 | Target |\n| --- | --- | --- | --- |\n${rows.join('\n')}\n`);
} finally {
  recordings.cleanup();
}
