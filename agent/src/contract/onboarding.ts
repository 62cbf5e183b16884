import { z } from 'zod';

export const ONBOARDING_ITEM_IDS = [
  'home-assistant',
  'model',
  'satellite',
  'wake-word',
  'flow',
  'second-factor',
  'backup',
] as const;

/** One step of GET /api/onboarding, worked out from the hub's real state. */
export const onboardingItemSchema = z.object({
  id: z.enum(ONBOARDING_ITEM_IDS),
  title: z.string(),
  done: z.boolean(),
  /** False for a step this version of the hub cannot do yet (backups). */
  available: z.boolean(),
  /** What was found, in words. */
  detail: z.string(),
  /** The console screen that does it. */
  href: z.string(),
});
export type OnboardingItem = z.infer<typeof onboardingItemSchema>;

export const onboardingSchema = z.object({
  items: z.array(onboardingItemSchema),
  /** Done of the available items. */
  done: z.number().int(),
  total: z.number().int(),
});
export type Onboarding = z.infer<typeof onboardingSchema>;
