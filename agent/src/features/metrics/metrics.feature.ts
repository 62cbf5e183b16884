import type { SystemInfoAdapter } from '../../adapters/system-info.js';
import { jsonCachedBy, type HotRead } from '../../http/hot-reads.js';
import type { MetricsSampler } from './metrics-sampler.js';
import { createMetricsService } from './metrics.service.js';

/**
 * The hub's figures: one metrics service for the API routes, the features that read it and the
 * reads answered before Hono (http/hot-reads.ts). One service, so the hot path and the routes
 * share its caches and cannot drift apart; createApp wires the hot reads with the API's own
 * session and Host checks.
 */
export function createMetricsFeature(deps: {
  info: SystemInfoAdapter;
  sampler: MetricsSampler;
  now?: () => number;
}) {
  const service = createMetricsService(deps);
  const { sampler } = deps;
  return {
    service,
    /** Full request paths → their cheap read; each answers exactly what its API route answers. */
    hotReads: {
      // The dashboard's most frequent poll. Changes with a new sample or a new second (uptime); the
      // network and disk readings in it are refreshed by the sampler every few seconds, so a
      // second's delay adds nothing.
      '/api/nexus/status': jsonCachedBy(
        () => `${sampler.latest()?.t ?? 0}:${Math.floor(Date.now() / 1000)}`,
        () => service.nexusStatus(),
      ),
    } satisfies Record<string, HotRead>,
  };
}

export type MetricsFeature = ReturnType<typeof createMetricsFeature>;
