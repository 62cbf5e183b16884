/**
 * The status words and the dashboard's thresholds and display counts, without zod: the landing
 * page's dashboard preview and the status badges use them without loading zod and the schemas
 * (issue 26). status.ts, satellites.ts and subscription.ts re-export them.
 */

/** Spec §4: the status words and how they read. */
export const GOOD_STATUS_WORDS = ['online', 'connected', 'running', 'active'] as const;
export const BAD_STATUS_WORDS = ['offline', 'disconnected', 'stopped'] as const;
export const WARNING_STATUS_WORDS = ['degraded', 'warning'] as const;

/** Spec §4: the number the dashboard shows when a request count is unknown. */
export const FALLBACK_REQUEST_COUNT = 142;
/** Spec §9: the LLM card lists this many models, then "+N more". */
export const LLM_CARD_MODEL_COUNT = 3;
/** Spec §9: VPN latency above this is flagged. */
export const VPN_LATENCY_WARNING_MS = 100;
/** Spec §9: Home Assistant response time thresholds. */
export const HA_RESPONSE_GOOD_MS = 200;
export const HA_RESPONSE_OK_MS = 500;
/** Spec §9: the signal badge is default while the mean absolute dBm is below this, destructive otherwise. */
export const SIGNAL_STRENGTH_GOOD_BELOW_ABS_DBM = 60;
/** Spec §9: past this share of the free plan's monthly AI messages, the upgrade to Pro is offered. */
export const USAGE_WARNING_RATIO = 0.8;

/** Spec §7: how often the dashboard polls each endpoint. */
export const POLL_INTERVALS_MS = {
  nexusStatus: 10_000,
  satellites: 15_000,
  llmPipelineStatus: 5_000,
  vpnStatus: 15_000,
  systemUptime: 60_000,
  haHealth: 10_000,
} as const;

export const VPN_PROVIDERS = ['wireguard', 'tailscale', 'none'] as const;
