import { describe, expect, it } from 'vitest';
import type { MetricSample } from '../../contract/system.js';
import { MinuteAggregator, aggregateSamples } from './aggregate.js';

function sample(t: number, over: Partial<MetricSample> = {}): MetricSample {
  return {
    t,
    cpu: 10,
    cores: [10, 10],
    load: [0.5, 0.4, 0.3],
    memUsed: 1000,
    memTotal: 4000,
    memPercent: 25,
    swapUsed: 0,
    swapTotal: 0,
    netRx: 100,
    netTx: 50,
    diskRead: 0,
    diskWrite: 0,
    cpuTemp: null,
    temps: {},
    agentCpu: 0.5,
    agentRss: 50_000_000,
    agentHeap: 10_000_000,
    ...over,
  };
}

describe('aggregateSamples', () => {
  it('averages every figure, per core and per sensor, and keeps the last load average', () => {
    const minute = aggregateSamples(
      [
        sample(60_000, {
          cpu: 10,
          cores: [0, 20],
          netRx: 100,
          cpuTemp: 40,
          temps: { 'CPU-therm': 40, 'GPU-therm': 30 },
        }),
        sample(61_000, {
          cpu: 30,
          cores: [10, 50],
          netRx: 300,
          cpuTemp: 50,
          temps: { 'CPU-therm': 50 },
          load: [2, 1, 0.5],
        }),
      ],
      60_000,
    );
    expect(minute.t).toBe(60_000);
    expect(minute.cpu).toBe(20);
    expect(minute.cores).toEqual([5, 35]);
    expect(minute.netRx).toBe(200);
    expect(minute.cpuTemp).toBe(45);
    expect(minute.temps).toEqual({ 'CPU-therm': 45, 'GPU-therm': 30 });
    expect(minute.load).toEqual([2, 1, 0.5]);
  });

  it('has no CPU temperature when no sample had one', () => {
    expect(aggregateSamples([sample(0), sample(1000)], 0).cpuTemp).toBeNull();
  });

  it('refuses an empty minute', () => {
    expect(() => aggregateSamples([], 0)).toThrow(RangeError);
  });
});

describe('MinuteAggregator', () => {
  it('hands back a minute only once a sample from the next minute arrives', () => {
    const agg = new MinuteAggregator();
    const results: (MetricSample | null)[] = [];
    for (let s = 0; s < 60; s++) results.push(agg.add(sample(120_000 + s * 1000, { cpu: s })));
    expect(results.every((r) => r === null)).toBe(true);
    const done = agg.add(sample(180_000));
    expect(done?.t).toBe(120_000);
    expect(done?.cpu).toBe(29.5);
  });

  it('closes a minute even when the sampler skipped ahead (e.g. the machine slept)', () => {
    const agg = new MinuteAggregator();
    agg.add(sample(0, { cpu: 50 }));
    const done = agg.add(sample(10 * 60_000));
    expect(done).toMatchObject({ t: 0, cpu: 50 });
  });
});
