import { queryOptions } from '@tanstack/react-query';
import { POLL_INTERVALS_MS, type HaHealth } from '@nexus/agent/contract';
import { nullable, number, object, oneOf, type Shape } from '@/lib/answer-shape';
import { getParsed } from './auth-session';

/** Home Assistant's health as the hub sees it (agent: features/ha-patterns). */
export const HA_HEALTH_PATH = '/api/ha-patterns/health';
export const haPatternsKeys = { health: [HA_HEALTH_PATH] as const };

/**
 * contract/status.ts haHealthSchema, as a small shape (lib/answer-shape): the dashboard's first
 * figures do not wait for zod (issue 26).
 */
export const haHealthShape: Shape<HaHealth> = object<HaHealth>({
  status: oneOf(['online', 'offline', 'degraded', 'not_configured']),
  connectionHealth: oneOf(['healthy', 'degraded', 'disconnected', 'not_configured']),
  devicesCount: number,
  entitiesCount: number,
  responseTime: nullable(number),
});

export const haHealthQueryOptions = (signedIn = true) =>
  queryOptions({
    queryKey: haPatternsKeys.health,
    queryFn: () => getParsed(HA_HEALTH_PATH, haHealthShape),
    refetchInterval: POLL_INTERVALS_MS.haHealth,
    enabled: signedIn,
  });
