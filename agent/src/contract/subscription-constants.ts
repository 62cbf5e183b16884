import type { PlanId, PlanLimits } from './subscription.js';

/**
 * The plans and the subscription's words, without zod: the dashboard's subscription card and its
 * read of the status use them without loading zod and the schemas (issue 26). subscription.ts
 * re-exports them.
 */

export const PLAN_IDS = ['free', 'pro', 'max'] as const;

export const UNLIMITED = 'unlimited' as const;

/** Model classes a plan may use: local runs on the hub (Ollama), cloud goes to a cloud LLM provider. */
export const MODEL_CLASSES = ['local', 'cloud'] as const;

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
      // Issue 22: 100 messages a month answered by cloud models, one cloud request at a time;
      // models on the hub itself are never limited.
      aiMessages: 100,
      aiModels: ['local', 'cloud'],
      maxModels: 1,
      parallelProcessing: false,
      homeAssistantEntities: 50,
      vpnAccess: false,
    },
    features: [
      '100 cloud AI messages a month; the hub’s own model without limit',
      'One model on the hub',
      'Up to 50 Home Assistant entities for automations',
    ],
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

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'expired'] as const;

/** Why a key was refused: `details.reason` of the 400/422 answer. */
export const LICENCE_REFUSALS = [
  'malformed',
  'bad-signature',
  'another-hub',
  'expired',
  'not-yet-valid',
] as const;
export type LicenceRefusal = (typeof LICENCE_REFUSALS)[number];
