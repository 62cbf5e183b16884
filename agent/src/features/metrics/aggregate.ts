import type { MetricSample } from '../../contract/system.js';

const round1 = (n: number) => Math.round(n * 10) / 10;
const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;

/**
 * Folds the 1 s samples of one minute into one sample stamped with the minute's start: means of
 * every figure (per core, per sensor), the last load average, the largest memTotal.
 */
export function aggregateSamples(samples: readonly MetricSample[], t: number): MetricSample {
  if (samples.length === 0) throw new RangeError('cannot aggregate zero samples');
  const last = samples[samples.length - 1]!;
  const avg = (pick: (s: MetricSample) => number) => round1(mean(samples.map(pick)));
  const coreCount = Math.max(...samples.map((s) => s.cores.length));
  const cores = Array.from({ length: coreCount }, (_, i) =>
    round1(mean(samples.filter((s) => i < s.cores.length).map((s) => s.cores[i]!))),
  );
  const tempSums = new Map<string, { sum: number; n: number }>();
  for (const s of samples) {
    for (const [label, v] of Object.entries(s.temps)) {
      const acc = tempSums.get(label) ?? { sum: 0, n: 0 };
      acc.sum += v;
      acc.n++;
      tempSums.set(label, acc);
    }
  }
  const temps: Record<string, number> = {};
  for (const [label, { sum, n }] of tempSums) temps[label] = round1(sum / n);
  const cpuTemps = samples.map((s) => s.cpuTemp).filter((v): v is number => v !== null);
  return {
    t,
    cpu: avg((s) => s.cpu),
    cores,
    load: last.load,
    memUsed: Math.round(mean(samples.map((s) => s.memUsed))),
    memTotal: Math.max(...samples.map((s) => s.memTotal)),
    memPercent: avg((s) => s.memPercent),
    swapUsed: Math.round(mean(samples.map((s) => s.swapUsed))),
    swapTotal: Math.max(...samples.map((s) => s.swapTotal)),
    netRx: Math.round(mean(samples.map((s) => s.netRx))),
    netTx: Math.round(mean(samples.map((s) => s.netTx))),
    diskRead: Math.round(mean(samples.map((s) => s.diskRead))),
    diskWrite: Math.round(mean(samples.map((s) => s.diskWrite))),
    cpuTemp: cpuTemps.length ? round1(mean(cpuTemps)) : null,
    temps,
    agentCpu: avg((s) => s.agentCpu),
    agentRss: Math.round(mean(samples.map((s) => s.agentRss))),
    agentHeap: Math.round(mean(samples.map((s) => s.agentHeap))),
  };
}

/**
 * Collects 1 s samples and hands back a minute's aggregate whenever a sample from a later minute
 * arrives, so the minute series only ever holds complete minutes.
 */
export class MinuteAggregator {
  private minute: number | null = null;
  private pending: MetricSample[] = [];

  constructor(private readonly minuteMs = 60_000) {}

  /** Returns the previous minute's aggregate when `sample` starts a new minute. */
  add(sample: MetricSample): MetricSample | null {
    const minute = Math.floor(sample.t / this.minuteMs);
    let done: MetricSample | null = null;
    if (this.minute !== null && minute !== this.minute && this.pending.length) {
      done = aggregateSamples(this.pending, this.minute * this.minuteMs);
      this.pending = [];
    }
    this.minute = minute;
    this.pending.push(sample);
    return done;
  }
}
