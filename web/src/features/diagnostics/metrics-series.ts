import type { MetricSample } from '@nexus/agent/contract';

/**
 * Keeping the charts' history: the window the agent answered with, extended by the live
 * `metrics` events that arrived since, trimmed to the window's length.
 */
export function mergeSamples(
  series: readonly MetricSample[],
  live: readonly MetricSample[],
  windowMs: number,
): MetricSample[] {
  const lastFromSeries = series.length > 0 ? series[series.length - 1]!.t : -Infinity;
  const merged = [...series];
  let last = lastFromSeries;
  for (const sample of live) {
    // Live events can overlap the fetched window or arrive twice after a reconnect.
    if (sample.t > last) {
      merged.push(sample);
      last = sample.t;
    }
  }
  if (merged.length === 0) return merged;
  const from = merged[merged.length - 1]!.t - windowMs;
  const firstKept = merged.findIndex((s) => s.t >= from);
  return firstKept <= 0 ? merged : merged.slice(firstKept);
}

/** Appends a live sample to a bounded buffer, ignoring repeats and samples older than the newest. */
export function appendLive(
  buffer: readonly MetricSample[],
  sample: MetricSample,
  capacity: number,
): MetricSample[] {
  const last = buffer[buffer.length - 1];
  if (last && sample.t <= last.t) return buffer as MetricSample[];
  const next = [...buffer, sample];
  return next.length > capacity ? next.slice(next.length - capacity) : next;
}

/** One point of the charts: the figures they draw, with temperatures flattened to `temp:<sensor>` keys. */
export interface ChartPoint {
  t: number;
  cpu: number;
  memPercent: number;
  memUsed: number;
  netRx: number;
  netTx: number;
  diskRead: number;
  diskWrite: number;
  agentCpu: number;
  agentRss: number;
  [tempKey: `temp:${string}`]: number | undefined;
}

export const tempKey = (sensor: string): `temp:${string}` => `temp:${sensor}`;

/** Every temperature sensor that appears in the samples, in a stable order (CPU first). */
export function sensorNames(samples: readonly MetricSample[]): string[] {
  const names = new Set<string>();
  for (const sample of samples) for (const name of Object.keys(sample.temps)) names.add(name);
  return [...names].sort((a, b) => {
    const cpuA = /cpu/i.test(a) ? 0 : 1;
    const cpuB = /cpu/i.test(b) ? 0 : 1;
    return cpuA - cpuB || a.localeCompare(b);
  });
}

/**
 * At most `maxPoints` chart points: consecutive samples are averaged in equal buckets, so an hour
 * of one-second samples draws as a few hundred points without losing its shape. A bucket's time
 * is its last sample's, so the newest point always sits at the right edge.
 */
export function toChartPoints(samples: readonly MetricSample[], maxPoints: number): ChartPoint[] {
  if (samples.length === 0) return [];
  const size = Math.max(1, Math.ceil(samples.length / Math.max(1, maxPoints)));
  const points: ChartPoint[] = [];
  // Buckets are counted from the newest sample backwards so the last bucket is always full.
  const firstBucketSize = samples.length % size || size;
  let start = 0;
  let end = firstBucketSize;
  while (start < samples.length) {
    points.push(meanPoint(samples.slice(start, end)));
    start = end;
    end += size;
  }
  return points;
}

function meanPoint(bucket: readonly MetricSample[]): ChartPoint {
  const n = bucket.length;
  const mean = (pick: (s: MetricSample) => number) => bucket.reduce((sum, s) => sum + pick(s), 0) / n;
  const point: ChartPoint = {
    t: bucket[n - 1]!.t,
    cpu: mean((s) => s.cpu),
    memPercent: mean((s) => s.memPercent),
    memUsed: mean((s) => s.memUsed),
    netRx: mean((s) => s.netRx),
    netTx: mean((s) => s.netTx),
    diskRead: mean((s) => s.diskRead),
    diskWrite: mean((s) => s.diskWrite),
    agentCpu: mean((s) => s.agentCpu),
    agentRss: mean((s) => s.agentRss),
  };
  const sums = new Map<string, { sum: number; count: number }>();
  for (const sample of bucket) {
    for (const [name, value] of Object.entries(sample.temps)) {
      const entry = sums.get(name) ?? { sum: 0, count: 0 };
      entry.sum += value;
      entry.count += 1;
      sums.set(name, entry);
    }
  }
  for (const [name, { sum, count }] of sums) point[tempKey(name)] = sum / count;
  return point;
}

/** The newest value, the mean and the peak of one figure over the samples, null when there are none. */
export function seriesStats(
  samples: readonly MetricSample[],
  pick: (sample: MetricSample) => number | null | undefined,
): { now: number; mean: number; peak: number } | null {
  let sum = 0;
  let count = 0;
  let peak = -Infinity;
  let now: number | null = null;
  for (const sample of samples) {
    const value = pick(sample);
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    sum += value;
    count += 1;
    peak = Math.max(peak, value);
    now = value;
  }
  return count === 0 || now === null ? null : { now, mean: sum / count, peak };
}
