import { describe, expect, it } from 'vitest';
import type { MetricSample } from '../../contract/system.js';
import { nexusStatusFrom } from './metrics.service.js';

const sample: MetricSample = {
  t: 10_000,
  cpu: 12.5,
  cores: [10, 15],
  load: [0.2, 0.3, 0.4],
  memUsed: 2e9,
  memTotal: 8e9,
  memPercent: 25,
  swapUsed: 0,
  swapTotal: 0,
  netRx: 0,
  netTx: 0,
  diskRead: 0,
  diskWrite: 0,
  cpuTemp: 47,
  temps: {},
  agentCpu: 0.3,
  agentRss: 6e7,
  agentHeap: 2e7,
};
const base = {
  sample,
  at: 10_500,
  hostname: 'nexus',
  uptime: 99.7,
  defaultRouteUp: true,
  rootDiskPercent: 40,
};

describe('nexus status', () => {
  it('is online with the spec’s fields from the latest sample', () => {
    expect(nexusStatusFrom(base)).toEqual({
      status: 'online',
      systemLoad: 12.5,
      memoryUsage: 25,
      networkStatus: 'connected',
      hostname: 'nexus',
      cpuTemperature: 47,
      loadAverage: [0.2, 0.3, 0.4],
      uptime: 99,
      warnings: [],
      sampledAt: 10_000,
    });
  });

  it.each([
    ['memory nearly full', { sample: { ...sample, memPercent: 96 } }, 'Memory is 96% full'],
    ['system disk nearly full', { rootDiskPercent: 97 }, 'The system disk is 97% full'],
    ['sampling stalled', { at: 20_000 }, 'System metrics have not been updated for a while'],
  ])('is degraded when %s', (_name, over, warning) => {
    const status = nexusStatusFrom({ ...base, ...over });
    expect(status.status).toBe('degraded');
    expect(status.warnings).toEqual([warning]);
  });

  it('is disconnected without a default route that is up', () => {
    expect(nexusStatusFrom({ ...base, defaultRouteUp: false }).networkStatus).toBe('disconnected');
  });
});
