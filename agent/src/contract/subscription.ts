import { z } from 'zod';
import { MODEL_CLASSES, PLAN_IDS, SUBSCRIPTION_STATUSES, UNLIMITED } from './subscription-constants.js';

export {
  LICENCE_REFUSALS,
  MODEL_CLASSES,
  PLAN_IDS,
  PLANS,
  SUBSCRIPTION_STATUSES,
  TRIAL_DAYS,
  TRIAL_PLAN,
  UNLIMITED,
  type LicenceRefusal,
  type Plan,
} from './subscription-constants.js';

export const planIdSchema = z.enum(PLAN_IDS);
export type PlanId = z.infer<typeof planIdSchema>;

const countOrUnlimited = z.union([z.number().int().nonnegative(), z.literal(UNLIMITED)]);

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

export { USAGE_WARNING_RATIO } from './status-constants.js';

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
  /** This hub's stable random id: a licence key names it (issue 22). */
  hubId: z.string(),
  /** The licence in force, or null on the trial or Free. */
  licence: z
    .object({
      lid: z.string(),
      plan: planIdSchema,
      expiresAt: z.string(),
      /** Set once the licence expired: it keeps working until then, with a banner. */
      graceEndsAt: z.string().nullable(),
      inGrace: z.boolean(),
    })
    .nullable(),
  /** Limits at or past 80 % of their allowance (spec §9), with the plan that lifts them. */
  warnings: z.array(
    z.object({
      limit: z.enum(['aiMessages', 'maxModels', 'homeAssistantEntities']),
      used: z.number().int().nonnegative(),
      allowed: z.number().int().nonnegative(),
      upgradeTo: planIdSchema,
    }),
  ),
  /** The vendor's store (NEXUS_LICENCE_STORE_URL) with this hub's id, or null when none is configured. */
  storeUrl: z.string().nullable(),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

// ---- Licence keys (issue 22) ----------------------------------------------------------------

/** `NXL1.<base64url payload>.<base64url Ed25519 signature of "NXL1.<payload>">`. */
export const LICENCE_KEY_PREFIX = 'NXL1';
/** After a licence expires it keeps working this long, with a banner, before the hub falls back. */
export const LICENCE_GRACE_DAYS = 14;
export const MAX_LICENCE_KEY_LENGTH = 4096;

/** What a licence key's payload carries (times in Unix seconds). */
export const licencePayloadSchema = z.strictObject({
  lid: z.string().min(1).max(100),
  hub: z.string().min(1).max(100),
  plan: z.enum(['pro', 'max']),
  iat: z.number().int(),
  exp: z.number().int(),
  nbf: z.number().int().optional(),
  seats: z.number().int().positive().optional(),
});
export type LicencePayload = z.infer<typeof licencePayloadSchema>;

/** POST /api/subscription/licence (admin). A licence file's text is the key. */
export const activateLicenceInputSchema = z.strictObject({
  key: z.string().trim().min(1).max(MAX_LICENCE_KEY_LENGTH),
});
export type ActivateLicenceInput = z.infer<typeof activateLicenceInputSchema>;

export const licenceRecordSchema = z.object({
  lid: z.string(),
  plan: z.enum(['pro', 'max']),
  hub: z.string(),
  issuedAt: z.string(),
  expiresAt: z.string(),
  notBefore: z.string().nullable(),
  seats: z.number().int().nullable(),
  activatedAt: z.string(),
  deactivatedAt: z.string().nullable(),
  /** in-force, grace, expired (past grace), replaced (by a later key) or deactivated. */
  state: z.enum(['in-force', 'grace', 'expired', 'replaced', 'deactivated']),
  /** The key itself: for admins only (members see the plan and dates). */
  key: z.string().optional(),
});
export type LicenceRecord = z.infer<typeof licenceRecordSchema>;

/** GET /api/subscription/licences: every licence activated on this hub, newest first. */
export const licenceHistorySchema = z.object({ licences: z.array(licenceRecordSchema) });
export type LicenceHistory = z.infer<typeof licenceHistorySchema>;

/** POST /api/subscription/licence answers the new status and the licence's receipt. */
export const licenceActivatedSchema = z.object({
  status: subscriptionStatusSchema,
  licence: licenceRecordSchema,
});
export type LicenceActivated = z.infer<typeof licenceActivatedSchema>;

export const subscriptionUsageQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(366).default(30),
});

/** GET /api/subscription/usage?days=30: per day, and this month against each limit. */
export const subscriptionUsageSchema = z.object({
  days: z.array(
    z.object({
      /** YYYY-MM-DD (UTC). */
      date: z.string(),
      /** Answered by cloud models: these count toward the monthly limit. */
      cloudMessages: z.number().int().nonnegative(),
      /** Answered by models on this hub: never limited. */
      localMessages: z.number().int().nonnegative(),
    }),
  ),
  limits: z.array(
    z.object({
      limit: z.enum(['aiMessages', 'maxModels', 'homeAssistantEntities', 'parallelProcessing', 'vpnAccess']),
      used: z.number().int().nonnegative().nullable(),
      allowed: z.union([z.number().int().nonnegative(), z.literal(UNLIMITED), z.boolean()]),
    }),
  ),
});
export type SubscriptionUsage = z.infer<typeof subscriptionUsageSchema>;
