import { queryOptions } from '@tanstack/react-query';
import { POLL_INTERVALS_MS, haHealthSchema, healthSchema, llmPipelineStatusSchema, nexusStatusSchema, satelliteListSchema, subscriptionStatusSchema, systemUptimeSchema, vpnStatusSchema } from '@nexus/agent/contract';
import { getParsed } from './auth';
import { SATELLITES_API } from '@/data/satellites';

/**
 * The dashboard's calls (spec §7). Each key is the path itself, as the spec's generic fetch has it,
 * and every polled call refetches at exactly the spec's interval. `signedIn` gates them all:
 * spec §7 says the dashboard polls only while the user is signed in.
 */

export const DASHBOARD_PATHS = {
  subscription: '/api/subscription/status',
  nexus: '/api/nexus/status',
  // The satellites feature owns its path; the card reads the same merged list as its screens.
  satellites: SATELLITES_API,
  llmPipeline: '/api/llm/pipeline/status',
  vpn: '/api/vpn/status',
  uptime: '/api/system/uptime',
  haHealth: '/api/ha-patterns/health',
  health: '/api/health',
} as const;

export const subscriptionStatusQueryOptions = (signedIn: boolean) =>
  queryOptions({
    queryKey: [DASHBOARD_PATHS.subscription],
    queryFn: () => getParsed(DASHBOARD_PATHS.subscription, subscriptionStatusSchema),
    // Spec §7 gives no interval: fetched once, like every query by default.
    enabled: signedIn,
  });

export const nexusStatusQueryOptions = (signedIn: boolean) =>
  queryOptions({
    queryKey: [DASHBOARD_PATHS.nexus],
    queryFn: () => getParsed(DASHBOARD_PATHS.nexus, nexusStatusSchema),
    refetchInterval: POLL_INTERVALS_MS.nexusStatus,
    enabled: signedIn,
  });

export const satellitesQueryOptions = (signedIn: boolean) =>
  queryOptions({
    queryKey: [DASHBOARD_PATHS.satellites],
    queryFn: () => getParsed(DASHBOARD_PATHS.satellites, satelliteListSchema),
    refetchInterval: POLL_INTERVALS_MS.satellites,
    enabled: signedIn,
  });

export const llmPipelineStatusQueryOptions = (signedIn: boolean) =>
  queryOptions({
    queryKey: [DASHBOARD_PATHS.llmPipeline],
    queryFn: () => getParsed(DASHBOARD_PATHS.llmPipeline, llmPipelineStatusSchema),
    refetchInterval: POLL_INTERVALS_MS.llmPipelineStatus,
    enabled: signedIn,
  });

export const vpnStatusQueryOptions = (signedIn: boolean) =>
  queryOptions({
    queryKey: [DASHBOARD_PATHS.vpn],
    queryFn: () => getParsed(DASHBOARD_PATHS.vpn, vpnStatusSchema),
    refetchInterval: POLL_INTERVALS_MS.vpnStatus,
    enabled: signedIn,
  });

export const systemUptimeQueryOptions = (signedIn: boolean) =>
  queryOptions({
    queryKey: [DASHBOARD_PATHS.uptime],
    queryFn: () => getParsed(DASHBOARD_PATHS.uptime, systemUptimeSchema),
    refetchInterval: POLL_INTERVALS_MS.systemUptime,
    enabled: signedIn,
  });

export const haHealthQueryOptions = (signedIn: boolean) =>
  queryOptions({
    queryKey: [DASHBOARD_PATHS.haHealth],
    queryFn: () => getParsed(DASHBOARD_PATHS.haHealth, haHealthSchema),
    refetchInterval: POLL_INTERVALS_MS.haHealth,
    enabled: signedIn,
  });

/** The agent's own version for the Platform Info card (public, fetched once). */
export const platformHealthQueryOptions = (signedIn: boolean) =>
  queryOptions({
    queryKey: [DASHBOARD_PATHS.health],
    queryFn: () => getParsed(DASHBOARD_PATHS.health, healthSchema),
    enabled: signedIn,
  });
