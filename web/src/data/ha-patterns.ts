import { queryOptions } from '@tanstack/react-query';
import { POLL_INTERVALS_MS, haHealthSchema } from '@nexus/agent/contract';
import { getParsed } from './auth-session';

/** Home Assistant's health as the hub sees it (agent: features/ha-patterns). */
export const HA_HEALTH_PATH = '/api/ha-patterns/health';
export const haPatternsKeys = { health: [HA_HEALTH_PATH] as const };

export const haHealthQueryOptions = (signedIn = true) =>
  queryOptions({
    queryKey: haPatternsKeys.health,
    queryFn: () => getParsed(HA_HEALTH_PATH, haHealthSchema),
    refetchInterval: POLL_INTERVALS_MS.haHealth,
    enabled: signedIn,
  });
