import { z } from 'zod';

export {
  BAD_STATUS_WORDS,
  FALLBACK_REQUEST_COUNT,
  GOOD_STATUS_WORDS,
  WARNING_STATUS_WORDS,
  HA_RESPONSE_GOOD_MS,
  HA_RESPONSE_OK_MS,
  LLM_CARD_MODEL_COUNT,
  VPN_LATENCY_WARNING_MS,
  POLL_INTERVALS_MS,
  VPN_PROVIDERS,
} from './status-constants.js';
import { VPN_PROVIDERS } from './status-constants.js';

/**
 * The dashboard's status endpoints (spec §3 and §7). Field names are the spec's; anything beyond
 * them is an addition the dashboard may show but must not depend on.
 */

/** Spec §3 "Nexus status". */
export const nexusStatusSchema = z.object({
  /** online while the hub samples normally; degraded when memory or the root disk is nearly full or sampling stalls. */
  status: z.enum(['online', 'degraded']),
  /** CPU busy in percent over the last second, 0-100. */
  systemLoad: z.number(),
  /** Percent of memory in use (MemTotal - MemAvailable). */
  memoryUsage: z.number(),
  /** connected when a default route leads out through an interface that is up. */
  networkStatus: z.enum(['connected', 'disconnected']),
  hostname: z.string(),
  cpuTemperature: z.number().nullable(),
  loadAverage: z.tuple([z.number(), z.number(), z.number()]),
  /** Seconds since the host booted. */
  uptime: z.number(),
  /** Why the status is degraded, empty when online. */
  warnings: z.array(z.string()),
  sampledAt: z.number(),
});
export type NexusStatus = z.infer<typeof nexusStatusSchema>;

/** Above these the hub reports itself degraded. */
export const NEXUS_DEGRADED_MEMORY_PERCENT = 95;
export const NEXUS_DEGRADED_DISK_PERCENT = 95;

/** Spec §3 "System uptime". */
export const systemUptimeSchema = z.object({
  /** Seconds since the host booted. */
  uptime: z.number(),
  bootTime: z.string(),
});
export type SystemUptime = z.infer<typeof systemUptimeSchema>;

/** Spec §3 "LLM pipeline status". */
export const llmModelSchema = z.object({
  name: z.string(),
  /** running: loaded in memory now; available: installed, loads on first use; offline: its provider cannot be reached. */
  status: z.enum(['running', 'available', 'offline']),
  provider: z.string(),
  sizeBytes: z.number().nullable(),
});
export type LlmModel = z.infer<typeof llmModelSchema>;

export const llmProviderHealthSchema = z.object({
  name: z.string(),
  status: z.enum(['online', 'offline']),
  /** Milliseconds the probe took, null when it failed. */
  responseTime: z.number().nullable(),
  error: z.string().nullable(),
  /** Chats streaming through the provider now, and answered since the agent started (the router's load spread). */
  activeRequests: z.number().optional(),
  servedRequests: z.number().optional(),
});

export const llmPipelineStatusSchema = z.object({
  /** running: a provider answers with at least one model; degraded: answers without models, or one of several is down; offline: none answers. */
  status: z.enum(['running', 'degraded', 'offline']),
  /** local: only models on the hub; cloud: only cloud providers; hybrid: both; none: nothing configured. */
  pipelineType: z.enum(['local', 'cloud', 'hybrid', 'none']),
  /** Models the pipeline can use right now (installed on a provider that answers). */
  activeModels: z.number(),
  /** AI requests the hub has served, all time. */
  totalRequests: z.number(),
  models: z.array(llmModelSchema),
  providers: z.array(llmProviderHealthSchema),
  checkedAt: z.number(),
});
export type LlmPipelineStatus = z.infer<typeof llmPipelineStatusSchema>;

export const vpnProviderSchema = z.enum(VPN_PROVIDERS);
export type VpnProvider = z.infer<typeof vpnProviderSchema>;

export const vpnFailoverSchema = z.object({
  activeProvider: vpnProviderSchema,
  backupProvider: vpnProviderSchema,
});
export type VpnFailover = z.infer<typeof vpnFailoverSchema>;

export const vpnFailoverInputSchema = vpnFailoverSchema.refine(
  (v) => v.activeProvider === 'none' || v.activeProvider !== v.backupProvider,
  { message: 'The backup provider must differ from the active one', path: ['backupProvider'] },
);

export const wireguardPeerSchema = z.object({
  publicKey: z.string(),
  endpoint: z.string().nullable(),
  allowedIps: z.array(z.string()),
  /** ISO time of the latest handshake, null if none yet. */
  latestHandshake: z.string().nullable(),
  rxBytes: z.number(),
  txBytes: z.number(),
  connected: z.boolean(),
});

export const wireguardInterfaceSchema = z.object({
  name: z.string(),
  listenPort: z.number().nullable(),
  peers: z.array(wireguardPeerSchema),
});

export const tailscaleStateSchema = z.object({
  backendState: z.string(),
  hostName: z.string().nullable(),
  tailscaleIps: z.array(z.string()),
  tailnet: z.string().nullable(),
  peers: z.array(
    z.object({
      hostName: z.string(),
      dnsName: z.string().nullable(),
      tailscaleIps: z.array(z.string()),
      online: z.boolean(),
      exitNode: z.boolean(),
    }),
  ),
  /** The exit node this hub's traffic leaves through (ipnstate ExitNodeStatus); null or absent when none. */
  exitNode: z
    .object({ hostName: z.string().nullable(), tailscaleIps: z.array(z.string()), online: z.boolean() })
    .nullable()
    .optional(),
});

/** Spec §3 "VPN status". */
export const vpnStatusSchema = z.object({
  status: z.enum(['connected', 'disconnected']),
  provider: vpnProviderSchema,
  /**
   * Round trip in ms to the tunnel's far side, measured when the status was read (tailscale ping,
   * or a TCP connect to a WireGuard peer); null when there is nothing to measure or it did not answer.
   */
  latency: z.number().nullable(),
  failover: vpnFailoverSchema,
  wireguard: z.array(wireguardInterfaceSchema),
  tailscale: tailscaleStateSchema.nullable(),
  checkedAt: z.number(),
});
export type VpnStatus = z.infer<typeof vpnStatusSchema>;

/** Spec §3 "Home Assistant health". */
export const haHealthSchema = z.object({
  status: z.enum(['online', 'offline', 'degraded', 'not_configured']),
  connectionHealth: z.enum(['healthy', 'degraded', 'disconnected', 'not_configured']),
  devicesCount: z.number(),
  entitiesCount: z.number(),
  /** ms, null when not measured. */
  responseTime: z.number().nullable(),
});
export type HaHealth = z.infer<typeof haHealthSchema>;
