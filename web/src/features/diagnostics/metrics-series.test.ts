import { describe, expect, it } from 'vitest';
import type { MetricSample } from '@nexus/agent/contract';
import { appendLive, mergeSamples, sensorNames, seriesStats, tempKey, toChartPoints } from './metrics-series';

function sample(t: number, cpu = t % 100, temps: Record<string, number> = {}): MetricSample {
  return {
    t,
    cpu,
    cores: [cpu],
    load: [0, 0, 0],
    memUsed: 1_000 + t,
    memTotal: 10_000,
    memPercent: cpu / 2,
    swapUsed: 0,
    swapTotal: 0,
    netRx: t * 10,
    netTx: t * 20,
    diskRead: 0,
    diskWrite: 0,
    cpuTemp: null,
    temps,
    agentCpu: 1,
    agentRss: 50_000_000,
    agentHeap: 20_000_000,
  };
}

const times = (samples: readonly { t: number }[]) => samples.map((s) => s.t);

describe('mergeSamples', () => {
  it('extends the fetched window with newer live samples only', () => {
    const merged = mergeSamples(
      [sample(1_000), sample(2_000)],
      [sample(2_000), sample(1_500), sample(3_000)],
      60_000,
    );
    expect(times(merged)).toEqual([1_000, 2_000, 3_000]);
  });

  it('drops live repeats and samples that went back in time', () => {
    const merged = mergeSamples(
      [],
      [sample(1_000), sample(1_000), sample(3_000), sample(2_000), sample(4_000)],
      60_000,
    );
    expect(times(merged)).toEqual([1_000, 3_000, 4_000]);
  });

  it('keeps only the window ending at the newest sample', () => {
    const series = [0, 1_000, 2_000, 3_000].map((t) => sample(t));
    expect(times(mergeSamples(series, [sample(5_000)], 3_000))).toEqual([2_000, 3_000, 5_000]);
    expect(mergeSamples([], [], 3_000)).toEqual([]);
  });
});

describe('appendLive', () => {
  it('caps the buffer and ignores samples not newer than the last', () => {
    let buffer: MetricSample[] = [];
    for (const t of [1, 2, 2, 3, 1, 4, 5]) buffer = appendLive(buffer, sample(t), 3);
    expect(times(buffer)).toEqual([3, 4, 5]);
  });
});

describe('toChartPoints', () => {
  it('passes short series through untouched', () => {
    const points = toChartPoints([sample(1_000, 10), sample(2_000, 20)], 300);
    expect(points.map((p) => [p.t, p.cpu])).toEqual([
      [1_000, 10],
      [2_000, 20],
    ]);
  });

  it('averages buckets so an hour of seconds fits the point budget, newest point last', () => {
    const hour = Array.from({ length: 3_600 }, (_, i) => sample(i * 1_000, i % 2 === 0 ? 0 : 100));
    const points = toChartPoints(hour, 300);
    expect(points).toHaveLength(300);
    expect(points.at(-1)!.t).toBe(3_599_000);
    for (const p of points) expect(p.cpu).toBeCloseTo(50, 6);
  });

  it('keeps the last bucket full when the count does not divide evenly', () => {
    const samples = Array.from({ length: 7 }, (_, i) => sample(i, i * 10));
    const points = toChartPoints(samples, 3);
    // Buckets of 3 counted from the newest: [0] [1,2,3] [4,5,6]
    expect(points.map((p) => p.cpu)).toEqual([0, 20, 50]);
    expect(points.map((p) => p.t)).toEqual([0, 3, 6]);
  });

  it('averages each temperature sensor over the samples that reported it', () => {
    const points = toChartPoints(
      [sample(1, 0, { cpu: 40, gpu: 30 }), sample(2, 0, { cpu: 50 }), sample(3, 0, { cpu: 60, gpu: 50 })],
      1,
    );
    expect(points).toHaveLength(1);
    expect(points[0]![tempKey('cpu')]).toBe(50);
    expect(points[0]![tempKey('gpu')]).toBe(40);
  });
});

describe('sensorNames', () => {
  it('lists every sensor once, CPU sensors first', () => {
    expect(
      sensorNames([
        sample(1, 0, { nvme: 40, 'cpu-thermal': 50 }),
        sample(2, 0, { gpu: 30, 'CPU package': 55 }),
      ]),
    ).toEqual(['CPU package', 'cpu-thermal', 'gpu', 'nvme']);
  });
});

describe('seriesStats', () => {
  it('gives the newest value, mean and peak, skipping missing readings', () => {
    const samples = [sample(1, 10), sample(2, 40), sample(3, 25)];
    expect(seriesStats(samples, (s) => s.cpu)).toEqual({ now: 25, mean: 25, peak: 40 });
    expect(seriesStats(samples, (s) => (s.t === 3 ? null : s.cpu))).toEqual({ now: 40, mean: 25, peak: 40 });
    expect(seriesStats([], (s) => s.cpu)).toBeNull();
    expect(seriesStats(samples, (s) => s.cpuTemp)).toBeNull();
  });
});
