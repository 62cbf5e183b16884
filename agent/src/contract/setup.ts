import { z } from 'zod';
import { publicUserSchema, registerInputSchema } from './auth.js';
import { diagnosticCheckSchema } from './jetson.js';

/**
 * The first-boot setup at /install: the wizard's steps, what the agent remembers of them so a
 * reload resumes where the owner was, and the hub's identity it sets.
 */
export const SETUP_STEPS = [
  'welcome',
  'owner',
  'hub',
  'network',
  'home-assistant',
  'services',
  'done',
] as const;
export const setupStepSchema = z.enum(SETUP_STEPS);
export type SetupStep = z.infer<typeof setupStepSchema>;
/** The steps the owner may skip. */
export const OPTIONAL_SETUP_STEPS: readonly SetupStep[] = ['home-assistant', 'services'];
/** The steps whose outcome the agent records after the owner exists (the earlier ones end with POST /api/setup). */
export const RECORDED_SETUP_STEPS = ['network', 'home-assistant', 'services'] as const;

/** `GET /api/setup/status` (public): whether the console should send every visitor to /install. */
export const setupStatusSchema = z.object({
  needsSetup: z.boolean(),
  /** While setup is needed: the hub's own name and time zone, to prefill the wizard. */
  suggested: z.object({ hubName: z.string(), timeZone: z.string() }).nullable(),
});
export type SetupStatus = z.infer<typeof setupStatusSchema>;

/** IANA time zones as the JavaScript runtime knows them. */
export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const hubNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the hub a name')
  .max(64, 'A hub name has at most 64 characters')
  .regex(/^[^\p{Cc}]+$/u, 'A hub name cannot contain control characters');
export const timeZoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isValidTimeZone, 'Not a time zone: use an IANA name such as Europe/Berlin');

/** `GET /api/setup/identity` (signed in): the hub's name, for the console's header and title. */
export const hubIdentitySchema = z.object({ hubName: z.string() });
export type HubIdentityView = z.infer<typeof hubIdentitySchema>;

export const hubIdentityInputSchema = z.strictObject({ hubName: hubNameSchema, timeZone: timeZoneSchema });
export type HubIdentityInput = z.input<typeof hubIdentityInputSchema>;

/** `POST /api/setup` (public, once): creates the owner as superadmin and signs them in; 409 afterwards. */
export const setupInputSchema = z.strictObject({
  hubName: hubNameSchema,
  timeZone: timeZoneSchema.optional(),
  owner: registerInputSchema.strict(),
});
export type SetupInput = z.input<typeof setupInputSchema>;

/** `GET /api/setup/progress` (admin). */
export const setupProgressSchema = z.object({
  /** Where the wizard resumes. */
  currentStep: setupStepSchema,
  completed: z.array(setupStepSchema),
  skipped: z.array(setupStepSchema),
  finishedAt: z.string().nullable(),
  hubName: z.string(),
  timeZone: z.string(),
});
export type SetupProgress = z.infer<typeof setupProgressSchema>;

/** The answer to `POST /api/setup`: the owner, now signed in, and where the wizard goes on. */
export const setupResultSchema = z.object({ user: publicUserSchema, progress: setupProgressSchema });
export type SetupResult = z.infer<typeof setupResultSchema>;

export const setupStepParamSchema = z.object({ step: z.enum(RECORDED_SETUP_STEPS) });
export const setupStepInputSchema = z.strictObject({ outcome: z.enum(['done', 'skipped']) });
export type SetupStepInput = z.infer<typeof setupStepInputSchema>;

/** `GET /api/setup/network-check` (admin): can people reach the hub, and can the hub reach what it needs. */
export const networkCheckSchema = z.object({
  checks: z.array(diagnosticCheckSchema),
  /** Addresses other devices on the network can open the console at. */
  consoleUrls: z.array(z.object({ iface: z.string(), url: z.string() })),
});
export type NetworkCheck = z.infer<typeof networkCheckSchema>;
