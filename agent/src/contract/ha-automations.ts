import { z } from 'zod';
import { haEntitySchema } from './home-assistant.js';

/**
 * Home Assistant automations (issue 19): the `automation.*` entities, with their configs read and
 * written through HA's automation config API (`/api/config/automation/config/<id>`).
 */

/** HA's config ids are its own (a timestamp by default); kept to a safe alphabet in URLs. */
export const automationIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'Not an automation id');
export const automationParamSchema = z.object({ id: automationIdSchema });

export const haAutomationSchema = z.object({
  /** The config id (the `id` of the automation's config); null for a YAML-only automation HA's API cannot edit. */
  id: automationIdSchema.nullable(),
  entityId: z.string(),
  alias: z.string(),
  description: z.string().nullable(),
  /** 'on' enabled, 'off' disabled, 'unavailable' when its config is broken. */
  state: z.string(),
  lastTriggered: z.string().nullable(),
  mode: z.string().nullable(),
  /** Made by this hub: from an analytics suggestion, or on /automations. */
  createdBy: z.enum(['analytics', 'console']).nullable(),
  /** True when HA's config API can edit and delete it (it has an id). */
  editable: z.boolean(),
});
export type HaAutomation = z.infer<typeof haAutomationSchema>;

export const haAutomationListSchema = z.object({ automations: z.array(haAutomationSchema) });
export type HaAutomationList = z.infer<typeof haAutomationListSchema>;

/** An automation's config as HA's config API keeps it (alias, triggers, conditions, actions, mode…). */
export const automationConfigSchema = z
  .object({
    alias: z.string().trim().min(1).max(200),
    description: z.string().max(2000).optional(),
    mode: z.enum(['single', 'restart', 'queued', 'parallel']).optional(),
  })
  .catchall(z.unknown());
export type AutomationConfig = z.infer<typeof automationConfigSchema>;

/** The largest YAML accepted. */
export const MAX_AUTOMATION_YAML_BYTES = 64 * 1024;

/** POST /api/ha/automations and PUT /api/ha/automations/:id: the config as an object, or as YAML (validated before it is sent). */
export const automationInputSchema = z.union([
  z.strictObject({ config: automationConfigSchema }),
  z.strictObject({ yaml: z.string().min(1).max(MAX_AUTOMATION_YAML_BYTES) }),
]);
export type AutomationInput = z.infer<typeof automationInputSchema>;

/** GET /api/ha/automations/:id: the automation, its config and the same as YAML for the editor. */
export const haAutomationDetailSchema = z.object({
  automation: haAutomationSchema,
  config: automationConfigSchema,
  yaml: z.string(),
});
export type HaAutomationDetail = z.infer<typeof haAutomationDetailSchema>;

// ---- Devices by area ------------------------------------------------------------------------

export const haDevicesQuerySchema = z.object({
  /** An area id; `none` for devices without an area. */
  area: z.string().max(100).optional(),
});

export const haDeviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  manufacturer: z.string().nullable(),
  model: z.string().nullable(),
  /** The device's entities, with the states and attributes the existing entity controls need. */
  entities: z.array(haEntitySchema),
});
export type HaDevice = z.infer<typeof haDeviceSchema>;

/** GET /api/ha/devices: HA's devices grouped by area (device and area registries); area null = no area. */
export const haDevicesSchema = z.object({
  areas: z.array(
    z.object({
      area: z.object({ id: z.string(), name: z.string() }).nullable(),
      devices: z.array(haDeviceSchema),
    }),
  ),
});
export type HaDevices = z.infer<typeof haDevicesSchema>;
