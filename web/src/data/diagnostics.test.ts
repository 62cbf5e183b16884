import { describe, expect, it } from 'vitest';
import { bundleFileName, metricSeriesQueryOptions, processesQueryOptions } from './diagnostics';

describe('bundleFileName', () => {
  const now = new Date('2030-01-02T03:04:05.678Z');
  it.each([
    ['attachment; filename="nexus-diagnostics-hub-2030.json"', 'nexus-diagnostics-hub-2030.json'],
    ['attachment; filename=plain.json', 'plain.json'],
    ["attachment; filename*=UTF-8''n%C3%A9xus.json", 'néxus.json'],
    [null, 'nexus-diagnostics-2030-01-02T03-04-05-678Z.json'],
    ['attachment', 'nexus-diagnostics-2030-01-02T03-04-05-678Z.json'],
  ])('%s → %s', (header, name) => {
    expect(bundleFileName(header, now)).toBe(name);
  });
});

describe('diagnostics queries', () => {
  it('refetches the day window each minute and leaves the hour window to the live topic', () => {
    expect(metricSeriesQueryOptions('24h').refetchInterval).toBe(60_000);
    expect(metricSeriesQueryOptions('1h').refetchInterval).toBe(false);
    expect(metricSeriesQueryOptions('1h').queryKey).toEqual(['/api/system/metrics', '1h']);
  });

  it('keys processes by their sort order', () => {
    expect(processesQueryOptions('mem').queryKey).toEqual(['/api/system/processes', 'mem']);
  });
});
