import type { QueryClient } from '@tanstack/react-query';
import { haHealthQueryOptions } from '@/data/ha-patterns';
import { healthQueryOptions } from '@/data/health';
import { llmPipelineStatusQueryOptions } from '@/data/llm-status';
import { nexusStatusQueryOptions, systemUptimeQueryOptions } from '@/data/metrics';
import { satellitesQueryOptions } from '@/data/satellite-list';
import { subscriptionStatusQueryOptions } from '@/data/subscription-status';
import { vpnStatusQueryOptions } from '@/data/vpn-status';

/**
 * The dashboard's reads, asked for as soon as a signed-in visit to / or /dashboard is known: by the
 * entry before React's first render when the page is opened there (app/router.tsx
 * `startFirstScreen`), else by the router (app/screen.tsx `prefetch`). A module of its own, with
 * the data modules and none of the cards, so the reads do not wait for the dashboard's code to
 * download and run (issue 26); the page's own queries use the same options, so they find the
 * answers (or the failure, which they report) in the cache.
 */
export async function prefetchDashboard(client: QueryClient): Promise<void> {
  await Promise.all([
    client.prefetchQuery(subscriptionStatusQueryOptions(true)),
    client.prefetchQuery(nexusStatusQueryOptions(true)),
    client.prefetchQuery(satellitesQueryOptions(true)),
    client.prefetchQuery(llmPipelineStatusQueryOptions(true)),
    client.prefetchQuery(vpnStatusQueryOptions(true)),
    client.prefetchQuery(systemUptimeQueryOptions(true)),
    client.prefetchQuery(haHealthQueryOptions(true)),
    client.prefetchQuery(healthQueryOptions(true)),
  ]);
}
