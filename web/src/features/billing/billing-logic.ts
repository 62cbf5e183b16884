import {
  LICENCE_REFUSALS,
  PLANS,
  USAGE_WARNING_RATIO,
  type LicenceRecord,
  type LicenceRefusal,
  type PlanId,
  type SubscriptionStatus,
  type SubscriptionUsage,
} from '@nexus/agent/contract';
import { ApiRequestError, errorMessage } from '@/lib/request';

/**
 * The billing screens' derived states (issue 22), as pure functions of what the agent answered.
 */

/** Each refusal of a licence key (`details.reason`), said so the owner knows what to do next. */
export const REFUSAL_TEXT: Record<LicenceRefusal, string> = {
  malformed:
    'This is not a licence key. Paste the whole key, from NXL1. to its end, or choose the licence file you received.',
  'bad-signature':
    'This key was not signed by the vendor, or it was changed after signing. Paste it again exactly as you received it.',
  'another-hub': 'This key was made for another hub. Give the vendor this hub’s id to get a key for it.',
  expired: 'This key has expired. Renew your licence with the vendor to get a new key.',
  'not-yet-valid': 'This key is not valid yet: it starts on a later date. Activate it from that day on.',
};

/** The refusal's reason when the agent named one (400/422 `{message, details: {reason}}`). */
export function refusalReason(error: unknown): LicenceRefusal | null {
  if (!(error instanceof ApiRequestError) || (error.status !== 400 && error.status !== 422)) return null;
  try {
    const body = JSON.parse(error.bodyText) as { details?: { reason?: unknown } };
    const reason = body.details?.reason;
    return (LICENCE_REFUSALS as readonly unknown[]).includes(reason) ? (reason as LicenceRefusal) : null;
  } catch {
    return null;
  }
}

/** Why an activation failed, in words: the named reason, else the agent's own message. */
export function activationErrorText(error: unknown): string {
  const reason = refusalReason(error);
  if (reason) return REFUSAL_TEXT[reason];
  if (error instanceof ApiRequestError && error.status === 403)
    return 'Only an administrator can activate a licence.';
  return errorMessage(error) ?? 'The licence could not be activated.';
}

/** A licence file's text is the key: surrounding whitespace and line breaks inside are dropped. */
export function keyFromFileText(text: string): string {
  return text.replace(/\s+/g, '');
}

/** The vendor's store for this hub (its address carries the hub id), asking for one plan. */
export function storeLinkFor(
  storeUrl: string | null,
  plan: PlanId,
  base = 'http://localhost',
): string | null {
  if (!storeUrl) return null;
  let url: URL;
  try {
    url = new URL(storeUrl, base);
  } catch {
    return null;
  }
  // Only a web address opens in a tab; anything else configured by mistake is not offered.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.searchParams.set('plan', plan);
  return url.toString();
}

/** The grace banner: a licence past its expiry that keeps working until graceEndsAt. */
export function graceBanner(
  status: Pick<SubscriptionStatus, 'licence'> | undefined,
): { expiredOn: Date; worksUntil: Date; plan: PlanId } | null {
  const licence = status?.licence;
  if (!licence?.inGrace || !licence.graceEndsAt) return null;
  const expiredOn = new Date(licence.expiresAt);
  const worksUntil = new Date(licence.graceEndsAt);
  if (Number.isNaN(expiredOn.getTime()) || Number.isNaN(worksUntil.getTime())) return null;
  return { expiredOn, worksUntil, plan: licence.plan };
}

export const LIMIT_LABELS: Record<SubscriptionUsage['limits'][number]['limit'], string> = {
  aiMessages: 'Cloud AI messages this month',
  maxModels: 'Models configured',
  homeAssistantEntities: 'Home Assistant entities',
  parallelProcessing: 'Parallel processing',
  vpnAccess: 'VPN failover',
};

export type LimitRow =
  | {
      kind: 'bar';
      key: string;
      label: string;
      used: number;
      allowed: number;
      percent: number;
      warning: boolean;
    }
  | { kind: 'count'; key: string; label: string; used: number | null }
  | { kind: 'included'; key: string; label: string; included: boolean };

/** Each limit as the billing screen shows it: a bar when it is counted against a number. */
export function limitRows(limits: SubscriptionUsage['limits']): LimitRow[] {
  return limits.map(({ limit, used, allowed }): LimitRow => {
    const label = LIMIT_LABELS[limit];
    if (typeof allowed === 'boolean') return { kind: 'included', key: limit, label, included: allowed };
    if (allowed === 'unlimited' || used === null) return { kind: 'count', key: limit, label, used };
    const ratio = allowed === 0 ? (used > 0 ? 1 : 0) : used / allowed;
    return {
      kind: 'bar',
      key: limit,
      label,
      used,
      allowed,
      percent: Math.min(100, Math.round(ratio * 100)),
      // The contract's warnings are "at or past 80 %": the bar turns amber at the same point.
      warning: ratio >= USAGE_WARNING_RATIO,
    };
  });
}

/** The chart's totals, for its text alternative. */
export function usageTotals(days: SubscriptionUsage['days']): { cloud: number; local: number } {
  return days.reduce(
    (sum, d) => ({ cloud: sum.cloud + d.cloudMessages, local: sum.local + d.localMessages }),
    { cloud: 0, local: 0 },
  );
}

/** What deactivating falls back to: the trial while it still runs, else Free. */
export function fallbackAfterDeactivation(
  status: Pick<SubscriptionStatus, 'trialEndDate'>,
  now: number,
): { plan: string; until: Date | null } {
  const trialEnd = new Date(status.trialEndDate);
  if (!Number.isNaN(trialEnd.getTime()) && trialEnd.getTime() > now)
    return { plan: 'the trial', until: trialEnd };
  return { plan: PLANS.free.name, until: null };
}

export const LICENCE_STATE_LABELS: Record<LicenceRecord['state'], string> = {
  'in-force': 'In force',
  grace: 'In grace period',
  expired: 'Expired',
  replaced: 'Replaced',
  deactivated: 'Deactivated',
};

export function formatDate(iso: string | Date | null | undefined): string {
  if (!iso) return '—';
  const date = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}
