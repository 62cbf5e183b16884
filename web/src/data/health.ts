import { queryOptions } from '@tanstack/react-query';
import type { Health } from '@nexus/agent/contract';
import { literal, object, string, type Shape } from '@/lib/answer-shape';
import { apiRequest } from '@/lib/request';
import { getParsed } from './auth-session';

/** The agent's liveness answer (agent: features/health): public, no session needed. */
export const HEALTH_PATH = '/api/health';

/** contract/health.ts healthSchema, as a small shape (lib/answer-shape): the dashboard's reads do not wait for zod. */
export const healthShape: Shape<Health> = object<Health>({ status: literal('ok'), version: string });

/** The agent's own version for the Platform Info card (fetched once). */
export const healthQueryOptions = (signedIn = true) =>
  queryOptions({
    queryKey: [HEALTH_PATH],
    queryFn: () => getParsed(HEALTH_PATH, healthShape),
    enabled: signedIn,
  });

/** One round trip to the hub, for a reachability check (resolves when it answered OK). */
export async function probeHub(): Promise<void> {
  await apiRequest('GET', HEALTH_PATH);
}
