import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CpuTimes, SystemInfoAdapter } from '../../adapters/system-info.js';
import type { MetricSample } from '../../contract/system.js';
import { createMetricsSampler } from './metrics-sampler.js';

/** A host whose counters move by a known amount per reading. */
function fakeHost() {
  let cpu: CpuTimes = {
    busy: 0,
    total: 0,
    cores: [
      { busy: 0, total: 0 },
      { busy: 0, total: 0 },
    ],
  };
  let rx = 0;
  const calls = { disks: 0, processes: 0 };
  const info: SystemInfoAdapter = {
    readCpuTimes: () => {
      // 100 jiffies per core per second: core 0 busy 25, core 1 busy 75.
      cpu = {
        busy: cpu.busy + 100,
        total: cpu.total + 200,
        cores: [
          { busy: cpu.cores[0]!.busy + 25, total: cpu.cores[0]!.total + 100 },
          { busy: cpu.cores[1]!.busy + 75, total: cpu.cores[1]!.total + 100 },
        ],
      };
      return cpu;
    },
    readMemory: async () => ({ total: 8e9, used: 2e9, swapTotal: 0, swapUsed: 0 }),
    readNetworkCounters: () => {
      rx += 1000;
      return new Map([
        ['eth0', { rxBytes: rx, txBytes: rx / 2 }],
        ['lo', { rxBytes: rx * 10, txBytes: rx * 10 }],
      ]);
    },
    readDiskCounters: () => ({ readBytes: 0, writeBytes: 0 }),
    readTemperatures: () => ({ 'CPU-therm': 48.5, 'GPU-therm': 44 }),
    loadAverage: () => [0.5, 0.4, 0.3],
    uptimeSeconds: () => 1234,
    hostname: () => 'nexus',
    readDefaultRoute: () => ({ iface: 'eth0', gateway: '192.168.1.1' }),
    readOperstate: () => 'up',
    hostFacts: async () => {
      throw new Error('not used');
    },
    disks: async () => {
      calls.disks++;
      return [
        { fs: '/dev/root', type: 'ext4', mount: '/', size: 100, used: 50, available: 50, usePercent: 50 },
      ];
    },
    processes: async () => {
      calls.processes++;
      return { total: 1, running: 1, sleeping: 0, blocked: 0, processes: [] };
    },
    networkInterfaces: async () => [],
    listeningPorts: async () => [],
    dns: () => ({ nameservers: [], search: [] }),
  };
  return { info, calls };
}

const log = pino({ level: 'silent' });

afterEach(() => {
  vi.useRealTimers();
});

describe('metrics sampler', () => {
  it('turns counter deltas into percentages and rates, and publishes each sample', async () => {
    vi.useFakeTimers();
    const { info } = fakeHost();
    let clock = 1_000_000;
    const sampler = createMetricsSampler({ info, log, version: 'test', now: () => clock });
    const seen: MetricSample[] = [];
    sampler.onSample((s) => seen.push(s));
    sampler.start();
    clock += 250;
    await vi.advanceTimersByTimeAsync(250);
    clock += 1000;
    await vi.advanceTimersByTimeAsync(1000);
    sampler.stop();

    expect(seen).toHaveLength(2);
    const s = seen[1]!;
    expect(s.cpu).toBe(50);
    expect(s.cores).toEqual([25, 75]);
    expect(s.memPercent).toBe(25);
    // 1000 bytes in 1 s on eth0; loopback is not the host's traffic.
    expect(s.netRx).toBe(1000);
    expect(s.netTx).toBe(500);
    expect(s.cpuTemp).toBe(48.5);
    expect(s.temps).toEqual({ 'CPU-therm': 48.5, 'GPU-therm': 44 });
    expect(sampler.latest()).toBe(s);
    expect(sampler.network()).toEqual({ route: { iface: 'eth0', gateway: '192.168.1.1' }, operstate: 'up' });
  });

  it('fills the hour at 1 s and the day at 1 min', async () => {
    vi.useFakeTimers();
    const { info } = fakeHost();
    let clock = 0;
    const sampler = createMetricsSampler({ info, log, version: 'test', now: () => clock });
    sampler.start();
    clock += 250;
    await vi.advanceTimersByTimeAsync(250);
    for (let i = 0; i < 3 * 60 + 5; i++) {
      clock += 1000;
      await vi.advanceTimersByTimeAsync(1000);
    }
    sampler.stop();
    const seconds = sampler.series('1h');
    const minutes = sampler.series('24h');
    expect(seconds).toHaveLength(186);
    expect(minutes.map((m) => m.t)).toEqual([0, 60_000, 120_000]);
    expect(minutes.every((m) => m.cpu === 50)).toBe(true);
    expect(sampler.series('1h', seconds.at(-3)!.t)).toHaveLength(2);
  });

  it('reads disks at start and every 30 s, and processes only while someone looks at them', async () => {
    vi.useFakeTimers();
    const { info, calls } = fakeHost();
    let clock = 0;
    const sampler = createMetricsSampler({ info, log, version: 'test', now: () => clock });
    sampler.start();
    const step = async (ms: number) => {
      for (let t = 0; t < ms; t += 1000) {
        clock += 1000;
        await vi.advanceTimersByTimeAsync(1000);
      }
    };
    await step(29_000);
    expect(calls.disks).toBe(1);
    await step(2_000);
    expect(calls.disks).toBe(2);
    expect(calls.processes).toBe(0);

    await sampler.processes();
    expect(calls.processes).toBe(1);
    await sampler.processes();
    expect(calls.processes).toBe(1);
    await step(10_000);
    expect(calls.processes).toBe(2);
    // Nobody asked for a minute: the sampler stops reading processes.
    await step(120_000);
    const settled = calls.processes;
    await step(60_000);
    expect(calls.processes).toBe(settled);
    sampler.stop();
  });

  it('answers ready() with the first sample, starting the sampler if needed', async () => {
    const { info } = fakeHost();
    const sampler = createMetricsSampler({ info, log, version: 'test' });
    const first = await sampler.ready();
    sampler.stop();
    expect(first.memTotal).toBe(8e9);
  });
});
