import { z } from 'zod';

/** Every integration of the hub on one screen (issue 19). */
export const INTEGRATION_IDS = [
  'home-assistant',
  'ollama',
  'llm-providers',
  'wyoming-stt',
  'wyoming-tts',
  'wyoming-wake',
  'smtp',
  'ntfy',
  'vpn',
  'tailscale',
  'licence',
] as const;
export const integrationIdSchema = z.enum(INTEGRATION_IDS);
export type IntegrationId = z.infer<typeof integrationIdSchema>;
export const integrationParamSchema = z.object({ id: integrationIdSchema });

export const INTEGRATION_STATES = ['connected', 'degraded', 'disconnected', 'not_configured'] as const;

export const integrationSchema = z.object({
  id: integrationIdSchema,
  name: z.string(),
  state: z.enum(INTEGRATION_STATES),
  /** What was found, in words (e.g. "Connected to Home Assistant 2026.11.2 at http://ha.local:8123"). */
  detail: z.string(),
  /** What it unlocks on the hub, in words. */
  unlocks: z.string(),
  /** The console screen with its settings. */
  settingsHref: z.string(),
  /** Whether "test now" can check it. */
  testable: z.boolean(),
  checkedAt: z.string(),
});
export type Integration = z.infer<typeof integrationSchema>;

/** GET /api/integrations */
export const integrationListSchema = z.object({ integrations: z.array(integrationSchema) });
export type IntegrationList = z.infer<typeof integrationListSchema>;

/** POST /api/integrations/:id/test (admin): checks it now and answers the fresh state. */
export const integrationTestResultSchema = z.object({
  integration: integrationSchema,
  ok: z.boolean(),
  message: z.string(),
});
export type IntegrationTestResult = z.infer<typeof integrationTestResultSchema>;
