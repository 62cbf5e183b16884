import { queryOptions } from '@tanstack/react-query';
import { POLL_INTERVALS_MS, nexusStatusSchema, systemUptimeSchema } from '@nexus/agent/contract';
import { getParsed } from './auth-session';

/**
 * The metrics feature's cheap reads (agent: features/metrics). Each key is the path itself, as the
 * spec's generic fetch has it (§7), and polled reads refetch at exactly the spec's interval.
 * `signedIn` gates the polling: spec §7 says the dashboard polls only while the user is signed in.
 */
export const NEXUS_STATUS_PATH = '/api/nexus/status';
export const SYSTEM_UPTIME_PATH = '/api/system/uptime';

export const nexusStatusQueryOptions = (signedIn = true) =>
  queryOptions({
    queryKey: [NEXUS_STATUS_PATH],
    queryFn: () => getParsed(NEXUS_STATUS_PATH, nexusStatusSchema),
    refetchInterval: POLL_INTERVALS_MS.nexusStatus,
    enabled: signedIn,
  });

export const systemUptimeQueryOptions = (signedIn = true) =>
  queryOptions({
    queryKey: [SYSTEM_UPTIME_PATH],
    queryFn: () => getParsed(SYSTEM_UPTIME_PATH, systemUptimeSchema),
    refetchInterval: POLL_INTERVALS_MS.systemUptime,
    enabled: signedIn,
  });
