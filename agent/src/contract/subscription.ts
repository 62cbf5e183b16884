import { z } from 'zod';

export const PLAN_IDS = ['free', 'pro', 'max'] as const;
export const planIdSchema = z.enum(PLAN_IDS);
export type PlanId = z.infer<typeof planIdSchema>;

export const UNLIMITED = 'unlimited' as const;
const countOrUnlimited = z.union([z.number().int().nonnegative(), z.literal(UNLIMITED)]);

/** Model classes a plan may use: local runs on the hub (Ollama), cloud goes to a cloud LLM provider. */
export const MODEL_CLASSES = ['local', 'cloud'] as const;

/** Spec §3 "Subscription status" limits, plus how many models may be configured at once. */
export const planLimitsSchema = z.object({
  aiMessages: countOrUnlimited,
  aiModels: z.array(z.enum(MODEL_CLASSES)),
  maxModels: countOrUnlimited,
  parallelProcessing: z.boolean(),
  homeAssistantEntities: countOrUnlimited,
  vpnAccess: z.boolean(),
});
export type PlanLimits = z.infer<typeof planLimitsSchema>;

export interface Plan {
  id: PlanId;
  name: string;
  /** US dollars per month (spec §9). */
  priceUsd: number;
  limits: PlanLimits;
  /** What the pricing page lists for the plan. */
  features: readonly string[];
}

/** Spec §9: Free $0, Pro $29, Max $79. The limits are the hub's; the pricing page shows this table. */
export const PLANS: Record<PlanId, Plan> = {
  free: {
    id: 'free',
    name: 'Free',
    priceUsd: 0,
    limits: {
      aiMessages: 100,
      aiModels: ['local'],
      maxModels: 1,
      parallelProcessing: false,
      homeAssistantEntities: 50,
      vpnAccess: false,
    },
    features: ['100 AI messages a month', 'One local model', 'Up to 50 Home Assistant entities'],
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    priceUsd: 29,
    limits: {
      aiMessages: UNLIMITED,
      aiModels: ['local', 'cloud'],
      maxModels: 5,
      parallelProcessing: true,
      homeAssistantEntities: UNLIMITED,
      vpnAccess: true,
    },
    features: [
      'Unlimited AI messages',
      'Up to 5 local and cloud models',
      'Parallel processing',
      'Unlimited Home Assistant entities',
      'VPN access',
    ],
  },
  max: {
    id: 'max',
    name: 'Max',
    priceUsd: 79,
    limits: {
      aiMessages: UNLIMITED,
      aiModels: ['local', 'cloud'],
      maxModels: UNLIMITED,
      parallelProcessing: true,
      homeAssistantEntities: UNLIMITED,
      vpnAccess: true,
    },
    features: [
      'Everything in Pro',
      'Unlimited models',
      'Unlimited Home Assistant entities',
      'VPN access with failover',
    ],
  },
};

/** A new hub starts this trial when it first starts. */
export const TRIAL_PLAN: PlanId = 'pro';
export const TRIAL_DAYS = 14;
/** Spec §9: past this share of the free plan's monthly AI messages, the upgrade to Pro is offered. */
export const USAGE_WARNING_RATIO = 0.8;

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'expired'] as const;

/** Spec §3 "Subscription status". */
export const subscriptionStatusSchema = z.object({
  /** The plan in force now: the trial's plan while trialing, free once it expired. */
  plan: planIdSchema,
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** ISO time the trial ends (or ended). */
  trialEndDate: z.string(),
  usage: z.object({
    /** AI messages the hub served this calendar month (UTC). */
    aiMessages: z.number().int().nonnegative(),
    remainingMessages: countOrUnlimited,
  }),
  limits: planLimitsSchema,
  /** Start of the month the usage counts (ISO). */
  periodStart: z.string(),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;
