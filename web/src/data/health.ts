import { queryOptions } from '@tanstack/react-query';
import { healthSchema } from '@nexus/agent/contract';
import { apiRequest } from '@/lib/request';
import { getParsed } from './auth-session';

/** The agent's liveness answer (agent: features/health): public, no session needed. */
export const HEALTH_PATH = '/api/health';

/** The agent's own version for the Platform Info card (fetched once). */
export const healthQueryOptions = (signedIn = true) =>
  queryOptions({
    queryKey: [HEALTH_PATH],
    queryFn: () => getParsed(HEALTH_PATH, healthSchema),
    enabled: signedIn,
  });

/** One round trip to the hub, for a reachability check (resolves when it answered OK). */
export async function probeHub(): Promise<void> {
  await apiRequest('GET', HEALTH_PATH);
}
