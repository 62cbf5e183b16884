import type { IncidentNotifier } from './incidents.js';

export const ENDING_WARNING_MS = 7 * 24 * 60 * 60 * 1000;

/** The period in force: the trial, or a paid licence with an end; null when nothing ends. */
export interface SubscriptionPeriod {
  kind: 'trial' | 'licence';
  endsAt: number;
}

/**
 * "Your trial/licence ends in N days", once per period: the incident key names the period's end, so
 * a renewal (a new end) can warn again and a restart within the week does not. The old period's
 * incident is closed without a word once a new period begins.
 */
export function createSubscriptionCheck(deps: {
  period: () => SubscriptionPeriod | null;
  incidents: IncidentNotifier;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  return function check(): void {
    const p = deps.period();
    const key = p ? `subscription:ending:${p.kind}:${p.endsAt}` : null;
    for (const open of deps.incidents.openKeys('subscription:ending:'))
      if (open !== key) deps.incidents.forget(open);
    if (!p || !key) return;
    const left = p.endsAt - now();
    if (left <= 0 || left > ENDING_WARNING_MS) return;
    const days = Math.max(1, Math.ceil(left / (24 * 60 * 60 * 1000)));
    deps.incidents.open(key, {
      category: 'subscription',
      level: 'warning',
      title:
        p.kind === 'trial'
          ? `Your trial ends in ${days} day${days === 1 ? '' : 's'}`
          : `Your licence ends in ${days} day${days === 1 ? '' : 's'}`,
      body: `It ends on ${new Date(p.endsAt).toISOString().slice(0, 10)}. Choose a plan to keep its features.`,
      link: '/billing',
    });
  };
}
