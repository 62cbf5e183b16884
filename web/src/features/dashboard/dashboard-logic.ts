import {
  FALLBACK_REQUEST_COUNT,
  HA_RESPONSE_GOOD_MS,
  HA_RESPONSE_OK_MS,
  LLM_CARD_MODEL_COUNT,
  SIGNAL_STRENGTH_GOOD_BELOW_ABS_DBM,
  USAGE_WARNING_RATIO,
  VPN_LATENCY_WARNING_MS,
} from '@nexus/agent/contract';
import { formatDuration } from '@/lib/format-duration';

/**
 * The dashboard's derived states (spec §4, §9), as pure functions of what the agent answered.
 * Every argument may be undefined: a card whose call has not answered (or failed) counts as
 * not online, never as a guess.
 */

interface HasStatus {
  status: string;
}

export type OverallHealth = 'Healthy' | 'Degraded';

/** Spec §4: Healthy only if Home Assistant and Nexus are both online; otherwise Degraded. */
export function overallHealth(nexus: HasStatus | undefined, ha: HasStatus | undefined): OverallHealth {
  return nexus?.status === 'online' && ha?.status === 'online' ? 'Healthy' : 'Degraded';
}

export const CORE_SERVICE_COUNT = 3;

export interface CoreService {
  name: 'Nexus' | 'Home Assistant' | 'LLM pipeline';
  up: boolean;
  /** The word the service's own status call gave, undefined while unknown. */
  status: string | undefined;
}

/** Spec §4: core services counted out of 3: Nexus online, Home Assistant online, LLM pipeline running. */
export function coreServices(
  nexus: HasStatus | undefined,
  ha: HasStatus | undefined,
  llm: HasStatus | undefined,
): { up: number; total: typeof CORE_SERVICE_COUNT; services: CoreService[] } {
  const services: CoreService[] = [
    { name: 'Nexus', up: nexus?.status === 'online', status: nexus?.status },
    { name: 'Home Assistant', up: ha?.status === 'online', status: ha?.status },
    { name: 'LLM pipeline', up: llm?.status === 'running', status: llm?.status },
  ];
  return { up: services.filter((s) => s.up).length, total: CORE_SERVICE_COUNT, services };
}

export type NetworkProtection = 'Protected' | 'Local Only';

/** Spec §4: Protected when the VPN is connected, otherwise Local Only. */
export function networkProtection(vpn: HasStatus | undefined): NetworkProtection {
  return vpn?.status === 'connected' ? 'Protected' : 'Local Only';
}

/**
 * The satellite card is Active when at least one device answers (online or degraded), otherwise
 * Offline. Spec §4 said "when at least one device exists", which put "Active" above "0 of 1 online"
 * (issue 21): the badge now agrees with the count below it.
 */
export function satelliteCardStatus(
  devices: readonly { status?: string }[] | undefined,
): 'Active' | 'Offline' {
  return devices?.some((d) => d.status === 'online' || d.status === 'degraded') ? 'Active' : 'Offline';
}

/** Spec §4, §9: a request count that is unknown shows as 142. Zero is a known count. */
export function requestCount(llm: { totalRequests?: number | null } | undefined): number {
  const count = llm?.totalRequests;
  return typeof count === 'number' && Number.isFinite(count) ? count : FALLBACK_REQUEST_COUNT;
}

export type ResponseTimeTone = 'good' | 'secondary' | 'bad';

/** Spec §9: Home Assistant response time under 200 ms is good, under 500 ms secondary, otherwise bad. */
export function haResponseTimeTone(ms: number): ResponseTimeTone {
  if (ms < HA_RESPONSE_GOOD_MS) return 'good';
  if (ms < HA_RESPONSE_OK_MS) return 'secondary';
  return 'bad';
}

/** Spec §9: VPN latency above 100 ms is flagged. An unmeasured latency is not. */
export function isVpnLatencyFlagged(ms: number | null | undefined): boolean {
  return typeof ms === 'number' && ms > VPN_LATENCY_WARNING_MS;
}

/** The mean of |dBm| over the satellites that reported a signal, null when none did. */
export function meanAbsoluteSignal(
  devices: readonly { signalStrength: number | null }[] | undefined,
): number | null {
  const readings = (devices ?? [])
    .map((d) => d.signalStrength)
    .filter((s): s is number => typeof s === 'number' && Number.isFinite(s));
  if (readings.length === 0) return null;
  return readings.reduce((sum, s) => sum + Math.abs(s), 0) / readings.length;
}

/** Spec §9: the signal badge is default while the mean absolute value is below 60 dBm, otherwise destructive. */
export function signalBadgeVariant(meanAbsDbm: number): 'default' | 'destructive' {
  return meanAbsDbm < SIGNAL_STRENGTH_GOOD_BELOW_ABS_DBM ? 'default' : 'destructive';
}

/** Spec §9: the LLM card lists the first 3 models, then "+N more". */
export function modelPreview<T>(
  models: readonly T[],
  count: number = LLM_CARD_MODEL_COUNT,
): { shown: T[]; more: number; moreLabel: string | null } {
  const shown = models.slice(0, count);
  const more = Math.max(0, models.length - shown.length);
  return { shown, more, moreLabel: more > 0 ? `+${more} more` : null };
}

export interface UsageWarning {
  used: number;
  limit: number;
  percent: number;
}

interface SubscriptionLike {
  plan: string;
  status: string;
  trialEndDate: string;
  usage: { aiMessages: number };
  limits: { aiMessages: number | 'unlimited' };
}

/** Spec §9: on the free plan, usage above 80 % of the monthly AI messages offers the upgrade to Pro. */
export function usageWarning(subscription: SubscriptionLike | undefined): UsageWarning | null {
  if (!subscription || subscription.plan !== 'free') return null;
  const limit = subscription.limits.aiMessages;
  if (typeof limit !== 'number' || limit <= 0) return null;
  const used = subscription.usage.aiMessages;
  if (used <= limit * USAGE_WARNING_RATIO) return null;
  return { used, limit, percent: Math.round((used / limit) * 100) };
}

/** Spec §4: a trialing subscription shows the Free Trial Active banner with the end date. */
export function trialBanner(subscription: SubscriptionLike | undefined): { endDate: Date } | null {
  if (subscription?.status !== 'trialing') return null;
  const endDate = new Date(subscription.trialEndDate);
  return Number.isNaN(endDate.getTime()) ? null : { endDate };
}

/** Share of the month's messages used, 0-100, or null for an unlimited plan. */
export function usagePercent(subscription: SubscriptionLike): number | null {
  const limit = subscription.limits.aiMessages;
  if (typeof limit !== 'number' || limit <= 0) return null;
  return Math.min(100, (subscription.usage.aiMessages / limit) * 100);
}

/** Uptime at the granularity the dashboard refreshes it (a minute): "3d 4h 12m". */
export const formatUptime = formatDuration;

/** "just now", "45s ago", "3 min ago", "2 h ago", "5 d ago" for a last-seen time. */
export function formatAgo(iso: string | null, now: number): string {
  if (!iso) return 'never';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return 'unknown';
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3_600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}
