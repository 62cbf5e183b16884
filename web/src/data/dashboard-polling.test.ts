import { describe, expect, it } from 'vitest';
import { haHealthQueryOptions } from './ha-patterns';
import { healthQueryOptions } from './health';
import { llmPipelineStatusQueryOptions } from './llm-status';
import { nexusStatusQueryOptions, systemUptimeQueryOptions } from './metrics';
import { satellitesQueryOptions } from './satellites';
import { subscriptionStatusQueryOptions } from './subscription';
import { vpnStatusQueryOptions } from './vpn';

describe('dashboard queries (spec §7): each data module owns its read, the dashboard and the screens share it', () => {
  // The spec's table, written out literally so a change to the shared constants cannot hide here.
  it.each([
    [nexusStatusQueryOptions, '/api/nexus/status', 10_000],
    [satellitesQueryOptions, '/api/devices/satellite', 15_000],
    [llmPipelineStatusQueryOptions, '/api/llm/pipeline/status', 5_000],
    [vpnStatusQueryOptions, '/api/vpn/status', 15_000],
    [systemUptimeQueryOptions, '/api/system/uptime', 60_000],
    [haHealthQueryOptions, '/api/ha-patterns/health', 10_000],
  ])('%# polls %s every %i ms, only while signed in', (factory, path, interval) => {
    const signedIn = factory(true);
    expect(signedIn.queryKey).toEqual([path]);
    expect(signedIn.refetchInterval).toBe(interval);
    expect(signedIn.enabled).toBe(true);
    expect(factory(false).enabled).toBe(false);
  });

  it.each([
    [subscriptionStatusQueryOptions, '/api/subscription/status'],
    [healthQueryOptions, '/api/health'],
  ])('%# fetches %s once, without an interval', (factory, path) => {
    const options = factory(true);
    expect(options.queryKey).toEqual([path]);
    expect(options.refetchInterval).toBeUndefined();
    expect(factory(false).enabled).toBe(false);
  });
});
