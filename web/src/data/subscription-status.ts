import { queryOptions } from '@tanstack/react-query';
import {
  MODEL_CLASSES,
  PLAN_IDS,
  SUBSCRIPTION_STATUSES,
  UNLIMITED,
  type PlanLimits,
  type SubscriptionStatus,
} from '@nexus/agent/contract';
import {
  array,
  boolean,
  count,
  either,
  literal,
  nullable,
  object,
  oneOf,
  string,
  type Shape,
} from '@/lib/answer-shape';
import { getParsed } from './auth-session';

/**
 * The subscription's status, as the dashboard's card reads it: the part of the billing data
 * (data/subscription.ts, which re-exports this) checked with a small shape of the contract's schema
 * (lib/answer-shape), so the dashboard's first figures do not wait for zod (issue 26).
 */
export const SUBSCRIPTION_API = '/api/subscription';
export const SUBSCRIPTION_STATUS_PATH = `${SUBSCRIPTION_API}/status`;

/**
 * Keys are the paths they fetch (spec §7). The dashboard card and the billing screens read the
 * status under one key, so an activation or a deactivation here updates the card too.
 */
export const billingKeys = {
  status: () => [SUBSCRIPTION_STATUS_PATH] as const,
  usage: (days: number) => [`${SUBSCRIPTION_API}/usage?days=${days}`] as const,
  licences: () => [`${SUBSCRIPTION_API}/licences`] as const,
};

const countOrUnlimited = either(count, literal(UNLIMITED));

/** contract/subscription.ts planLimitsSchema. */
const planLimitsShape: Shape<PlanLimits> = object<PlanLimits>({
  aiMessages: countOrUnlimited,
  aiModels: array(oneOf(MODEL_CLASSES)),
  maxModels: countOrUnlimited,
  parallelProcessing: boolean,
  homeAssistantEntities: countOrUnlimited,
  vpnAccess: boolean,
});

/** contract/subscription.ts subscriptionStatusSchema. */
export const subscriptionStatusShape: Shape<SubscriptionStatus> = object<SubscriptionStatus>({
  plan: oneOf(PLAN_IDS),
  status: oneOf(SUBSCRIPTION_STATUSES),
  trialEndDate: string,
  usage: object({ aiMessages: count, remainingMessages: countOrUnlimited }),
  limits: planLimitsShape,
  periodStart: string,
  hubId: string,
  licence: nullable(
    object<NonNullable<SubscriptionStatus['licence']>>({
      lid: string,
      plan: oneOf(PLAN_IDS),
      expiresAt: string,
      graceEndsAt: nullable(string),
      inGrace: boolean,
    }),
  ),
  warnings: array(
    object<SubscriptionStatus['warnings'][number]>({
      limit: oneOf(['aiMessages', 'maxModels', 'homeAssistantEntities']),
      used: count,
      allowed: count,
      upgradeTo: oneOf(PLAN_IDS),
    }),
  ),
  storeUrl: nullable(string),
});

/** Spec §7 gives no interval: fetched once, like every query by default. */
export const subscriptionStatusQueryOptions = (signedIn = true) =>
  queryOptions({
    queryKey: billingKeys.status(),
    queryFn: () => getParsed(SUBSCRIPTION_STATUS_PATH, subscriptionStatusShape),
    enabled: signedIn,
  });
