import { describe, expect, it } from 'vitest';
import type { MetricSample } from '../../contract/system.js';
import { SampleHistory } from './sample-history.js';

function sample(t: number, extra: Partial<MetricSample> = {}): MetricSample {
  return {
    t,
    cpu: (t % 100) + 0.5,
    cores: [t % 7, 12.3, 99.9],
    load: [0.25, 0.5, 1.75],
    memUsed: 1_234_567_890 + t,
    memTotal: 8_000_000_000,
    memPercent: 15.4,
    swapUsed: 0,
    swapTotal: 2_147_483_648,
    netRx: 120_000 + t,
    netTx: 3_400,
    diskRead: 0,
    diskWrite: 65_536,
    cpuTemp: 48.5,
    temps: { 'cpu-thermal': 48.5, 'gpu-thermal': 45 },
    agentCpu: 0.3,
    agentRss: 88_000_000,
    agentHeap: 27_000_000,
    ...extra,
  };
}

describe('SampleHistory', () => {
  it('gives back every sample as it was pushed, oldest first', () => {
    const history = new SampleHistory(10);
    expect(history.toArray()).toEqual([]);
    expect(history.last()).toBeUndefined();
    const pushed = [
      sample(1000),
      // No CPU temperature, one sensor gone and a new one, a different number of cores.
      sample(2000, { cpuTemp: null, temps: { 'soc-thermal': 51.25 }, cores: [1.5] }),
      sample(3000, { temps: {}, cores: [] }),
      sample(4000),
    ];
    for (const s of pushed) history.push(s);
    expect(history.toArray()).toEqual(pushed);
    expect(history.size).toBe(4);
    expect(history.last()).toBe(pushed[3]);
  });

  it('overwrites the oldest samples once full, across many wraps', () => {
    const history = new SampleHistory(3600);
    for (let t = 0; t < 5000; t++) history.push(sample(t * 1000, t % 2 ? { cpuTemp: null } : {}));
    const all = history.toArray();
    expect(all).toHaveLength(3600);
    expect(all[0]).toEqual(sample(1400 * 1000));
    expect(all.at(-1)).toEqual(sample(4999 * 1000, { cpuTemp: null }));
    expect(all.map((s) => s.t)).toEqual(Array.from({ length: 3600 }, (_, i) => (1400 + i) * 1000));
  });

  it('keeps every sample while its columns grow, a sensor and a core appearing on the way', () => {
    const history = new SampleHistory(1000);
    const pushed: MetricSample[] = [];
    for (let t = 0; t < 700; t++) {
      const s =
        t < 100
          ? sample(t, { temps: {}, cpuTemp: null, cores: [1] })
          : sample(t, t % 3 ? {} : { temps: { 'new-sensor': t / 10 } });
      history.push(s);
      pushed.push(s);
    }
    expect(history.toArray()).toEqual(pushed);
  });

  it('hands out the samples taken after a time', () => {
    const history = new SampleHistory(5);
    for (let t = 1; t <= 8; t++) history.push(sample(t));
    expect(history.since(5).map((s) => s.t)).toEqual([6, 7, 8]);
    expect(history.since(8)).toEqual([]);
    expect(history.since(0).map((s) => s.t)).toEqual([4, 5, 6, 7, 8]);
    expect(history.since(6)).toEqual([sample(7), sample(8)]);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new SampleHistory(0)).toThrow(RangeError);
    expect(() => new SampleHistory(1.5)).toThrow(RangeError);
  });
});
