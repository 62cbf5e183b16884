import { queryOptions } from '@tanstack/react-query';
import { POLL_INTERVALS_MS, type NexusStatus, type SystemUptime } from '@nexus/agent/contract';
import { array, nullable, number, object, oneOf, string, tuple, type Shape } from '@/lib/answer-shape';
import { getParsed } from './auth-session';

/**
 * The metrics feature's cheap reads (agent: features/metrics). Each key is the path itself, as the
 * spec's generic fetch has it (§7), and polled reads refetch at exactly the spec's interval.
 * `signedIn` gates the polling: spec §7 says the dashboard polls only while the user is signed in.
 * The answers are checked with small shapes of the contract's schemas (lib/answer-shape), so the
 * dashboard's first figures do not wait for zod (issue 26).
 */
export const NEXUS_STATUS_PATH = '/api/nexus/status';
export const SYSTEM_UPTIME_PATH = '/api/system/uptime';

/** contract/status.ts nexusStatusSchema. */
export const nexusStatusShape: Shape<NexusStatus> = object<NexusStatus>({
  status: oneOf(['online', 'degraded']),
  systemLoad: number,
  memoryUsage: number,
  networkStatus: oneOf(['connected', 'disconnected']),
  hostname: string,
  cpuTemperature: nullable(number),
  loadAverage: tuple<[number, number, number]>(number, number, number),
  uptime: number,
  warnings: array(string),
  sampledAt: number,
});

/** contract/status.ts systemUptimeSchema. */
export const systemUptimeShape: Shape<SystemUptime> = object<SystemUptime>({
  uptime: number,
  bootTime: string,
});

export const nexusStatusQueryOptions = (signedIn = true) =>
  queryOptions({
    queryKey: [NEXUS_STATUS_PATH],
    queryFn: () => getParsed(NEXUS_STATUS_PATH, nexusStatusShape),
    refetchInterval: POLL_INTERVALS_MS.nexusStatus,
    enabled: signedIn,
  });

export const systemUptimeQueryOptions = (signedIn = true) =>
  queryOptions({
    queryKey: [SYSTEM_UPTIME_PATH],
    queryFn: () => getParsed(SYSTEM_UPTIME_PATH, systemUptimeShape),
    refetchInterval: POLL_INTERVALS_MS.systemUptime,
    enabled: signedIn,
  });
