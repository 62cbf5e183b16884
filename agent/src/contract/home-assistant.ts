import { z } from 'zod';
import { haHealthSchema } from './status.js';

/**
 * Home Assistant through the hub: the browser talks to these endpoints and the `ha.entities`
 * live topic, never to Home Assistant itself, so it never holds HA's address or token.
 */

/**
 * What users may call in each domain they control; admins call any service of any domain. Services
 * are listed, not whole domains, because some services of an everyday domain reach beyond it:
 * `scene.apply` and `scene.create` set the state of any entity they name (a lock, an alarm), and
 * `reload` rereads configuration. Named from Home Assistant's service descriptions of each domain.
 */
export const USER_SERVICES = {
  light: ['turn_on', 'turn_off', 'toggle'],
  switch: ['turn_on', 'turn_off', 'toggle'],
  cover: [
    'open_cover',
    'close_cover',
    'stop_cover',
    'toggle',
    'set_cover_position',
    'open_cover_tilt',
    'close_cover_tilt',
    'stop_cover_tilt',
    'toggle_cover_tilt',
    'set_cover_tilt_position',
  ],
  climate: [
    'turn_on',
    'turn_off',
    'toggle',
    'set_temperature',
    'set_hvac_mode',
    'set_preset_mode',
    'set_fan_mode',
    'set_humidity',
    'set_swing_mode',
  ],
  media_player: [
    'turn_on',
    'turn_off',
    'toggle',
    'media_play',
    'media_pause',
    'media_play_pause',
    'media_stop',
    'media_next_track',
    'media_previous_track',
    'media_seek',
    'volume_up',
    'volume_down',
    'volume_set',
    'volume_mute',
    'select_source',
    'select_sound_mode',
    'shuffle_set',
    'repeat_set',
    'play_media',
  ],
  scene: ['turn_on'],
  // Each script is also a service of its own name (script.good_night); only reload is withheld.
  script: ['turn_on', 'turn_off', 'toggle'],
} as const satisfies Record<string, readonly string[]>;

/** Users may control these domains (the services above); every other domain is for admins only. */
export const USER_SERVICE_DOMAINS = Object.keys(USER_SERVICES) as (keyof typeof USER_SERVICES)[];

/** The live topic with entity changes and the connection's state. */
export const HA_ENTITIES_TOPIC = 'ha.entities';

export const HA_CONNECTION_STATES = [
  /** No URL and token stored. */
  'not_configured',
  /** The first connection attempt is under way. */
  'connecting',
  'connected',
  /** The connection was lost; the agent retries with back-off. */
  'reconnecting',
  /** Home Assistant cannot be reached; the agent retries with back-off. */
  'disconnected',
  /** Home Assistant rejected the token; the agent does not retry until the settings change. */
  'auth_invalid',
] as const;
export const haConnectionStateSchema = z.enum(HA_CONNECTION_STATES);
export type HaConnectionState = z.infer<typeof haConnectionStateSchema>;

/** The dashboard's reading of the connection (spec §3 "Home Assistant health"). */
export const haConnectionHealthSchema = haHealthSchema.shape.connectionHealth;
export type HaConnectionHealth = z.infer<typeof haConnectionHealthSchema>;

/**
 * GET /api/ha-patterns/health (spec §3, §7): status is online while connected and answering
 * pings, degraded while connected but slow, missing pings or without registry access. The counts
 * come from HA's registries (disabled entries left out); responseTime is the last measured
 * WebSocket ping round trip.
 */
export const haHealthReportSchema = haHealthSchema.extend({
  /** Why it is not healthy, null when it is. */
  message: z.string().nullable(),
  checkedAt: z.number(),
});
export type HaHealthReport = z.infer<typeof haHealthReportSchema>;

// ---- settings ---------------------------------------------------------------------------------

const haUrlSchema = z
  .url({ protocol: /^https?$/, message: 'Enter an http:// or https:// address' })
  .max(2048)
  .transform((u) => u.replace(/\/+$/, ''));

/** GET /api/settings/home-assistant (admin). The token itself is never returned. */
export const haSettingsSchema = z.object({
  configured: z.boolean(),
  url: z.string().nullable(),
  tokenSet: z.boolean(),
  /** Where the stored configuration came from: HA_URL/HA_TOKEN at first start, or the settings screen. */
  source: z.enum(['environment', 'settings']).nullable(),
  updatedAt: z.string().nullable(),
  state: haConnectionStateSchema,
  message: z.string().nullable(),
});
export type HaSettings = z.infer<typeof haSettingsSchema>;

/** PUT /api/settings/home-assistant (admin). Leave the token out to keep the stored one. */
export const haSettingsInputSchema = z.strictObject({
  url: haUrlSchema,
  token: z
    .string()
    .trim()
    .min(10, 'The token is too short; paste the whole long-lived access token')
    .max(4096)
    .regex(/^[\x21-\x7e]+$/, 'The token contains spaces or characters a token never has')
    .optional(),
});
export type HaSettingsInput = z.input<typeof haSettingsInputSchema>;

// ---- entities ---------------------------------------------------------------------------------

export const ENTITY_ID_PATTERN = /^[a-z0-9_]+\.[a-z0-9_]+$/;
export const entityIdSchema = z
  .string()
  .max(255)
  .regex(ENTITY_ID_PATTERN, 'Not an entity id (domain.object_id)');
const slugSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9_]+$/, 'Only lowercase letters, digits and _');

// ---- what members may control ---------------------------------------------------------------------

/**
 * The Home Assistant domains and entities members (role user) may call services on; admins call
 * anything. Only the everyday domains of USER_SERVICES can be given to members, and then only
 * their everyday services. Stored in the settings table; set by admins.
 */
const memberDomainSchema = z
  .string()
  .regex(/^[a-z0-9_]+$/, 'Only lowercase letters, digits and _')
  .refine((d) => (USER_SERVICE_DOMAINS as readonly string[]).includes(d), {
    message: `Members can be given only these domains: ${Object.keys(USER_SERVICES).join(', ')}`,
  });
const memberEntitySchema = entityIdSchema.refine(
  (id) => (USER_SERVICE_DOMAINS as readonly string[]).includes(id.slice(0, id.indexOf('.'))),
  {
    message: `Members can be given only entities of these domains: ${Object.keys(USER_SERVICES).join(', ')}`,
  },
);
export const haMemberAccessSchema = z.strictObject({
  /** Every entity of these domains. */
  domains: z.array(memberDomainSchema).max(USER_SERVICE_DOMAINS.length),
  /** These entities, whatever the domains. */
  entities: z.array(memberEntitySchema).max(2000),
});
export type HaMemberAccess = z.infer<typeof haMemberAccessSchema>;

/**
 * Lights only until an admin widens it: a light is reversible and harmless to switch, while a
 * switch may drive a heater or a pump, a cover a garage door or a gate, a climate the heating
 * bill, a script anything an admin automated, and a media player's play_media makes Home
 * Assistant fetch any address it is given.
 */
export const DEFAULT_HA_MEMBER_ACCESS: HaMemberAccess = { domains: ['light'], entities: [] };

/**
 * What the signed-in person may control (`GET /api/ha/my-access`): admins every controllable domain
 * (`all`), members the admin-set list, so their screens offer only controls that will work.
 */
export const haMyAccessSchema = z.object({
  all: z.boolean(),
  domains: z.array(z.string()),
  entities: z.array(z.string()),
});
export type HaMyAccess = z.infer<typeof haMyAccessSchema>;

export const haEntitySchema = z.object({
  entity_id: z.string(),
  domain: z.string(),
  /** The registry name, else the friendly_name attribute, else the entity id. */
  name: z.string(),
  state: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  last_changed: z.string(),
  last_updated: z.string(),
  area: z.object({ id: z.string(), name: z.string() }).nullable(),
  device: z
    .object({
      id: z.string(),
      name: z.string(),
      manufacturer: z.string().nullable(),
      model: z.string().nullable(),
    })
    .nullable(),
});
export type HaEntity = z.infer<typeof haEntitySchema>;

export const haEntityListSchema = z.object({
  entities: z.array(haEntitySchema),
  areas: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type HaEntityList = z.infer<typeof haEntityListSchema>;

export const haEntityParamSchema = z.object({ id: entityIdSchema });

// ---- service calls ----------------------------------------------------------------------------

export const haServiceParamSchema = z.object({ domain: slugSchema, service: slugSchema });

export const haServiceCallInputSchema = z.strictObject({
  entity_id: z.union([entityIdSchema, z.array(entityIdSchema).min(1).max(200)]).optional(),
  service_data: z.record(z.string(), z.unknown()).default({}),
});
export type HaServiceCallInput = z.input<typeof haServiceCallInputSchema>;

export const haServiceCallResultSchema = z.object({
  domain: z.string(),
  service: z.string(),
  entityIds: z.array(z.string()),
  /** HA's context id of the call, to match the state changes it caused. */
  contextId: z.string().nullable(),
});
export type HaServiceCallResult = z.infer<typeof haServiceCallResultSchema>;

// ---- logbook and history ----------------------------------------------------------------------

const isoDate = z.iso.datetime({ offset: true, message: 'Use an ISO 8601 date and time' });

/** The longest span one logbook or history request may cover. */
export const HA_MAX_RANGE_DAYS = 31;

export const haLogbookQuerySchema = z.object({
  /** Defaults to 24 hours before `end`. */
  start: isoDate.optional(),
  /** Defaults to now. */
  end: isoDate.optional(),
  entity: entityIdSchema.optional(),
});

export const haLogbookEntrySchema = z.object({
  when: z.string(),
  name: z.string(),
  message: z.string(),
  entity_id: z.string().nullable(),
  domain: z.string().nullable(),
  state: z.string().nullable(),
  /** True when a person (not an automation) caused it. */
  byUser: z.boolean(),
});
export type HaLogbookEntry = z.infer<typeof haLogbookEntrySchema>;

export const haLogbookSchema = z.object({
  start: z.string(),
  end: z.string(),
  entries: z.array(haLogbookEntrySchema),
});
export type HaLogbook = z.infer<typeof haLogbookSchema>;

export const haHistoryQuerySchema = z.object({
  /** One or more entity ids, comma separated. */
  entity: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .pipe(z.array(entityIdSchema).min(1, 'Name at least one entity').max(50)),
  start: isoDate.optional(),
  end: isoDate.optional(),
  /** Only the state and time of the rows between the first and the last (HA's minimal_response). */
  minimal: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

export const haHistoryPointSchema = z.object({
  state: z.string(),
  last_changed: z.string(),
  attributes: z.record(z.string(), z.unknown()).nullable(),
});

export const haHistorySchema = z.object({
  start: z.string(),
  end: z.string(),
  series: z.array(
    z.object({ entity_id: z.string(), name: z.string(), points: z.array(haHistoryPointSchema) }),
  ),
});
export type HaHistory = z.infer<typeof haHistorySchema>;

// ---- connection status and test ----------------------------------------------------------------

export const haConnectionEventSchema = z.object({
  at: z.number(),
  kind: z.enum([
    'connecting',
    'connected',
    'disconnected',
    'reconnected',
    'auth_invalid',
    'error',
    'refill',
    'config',
  ]),
  message: z.string(),
});
export type HaConnectionEvent = z.infer<typeof haConnectionEventSchema>;

/** GET /api/ha/status: everything the HA screens show about the connection. */
export const haStatusSchema = z.object({
  state: haConnectionStateSchema,
  health: haConnectionHealthSchema,
  message: z.string().nullable(),
  haVersion: z.string().nullable(),
  locationName: z.string().nullable(),
  timeZone: z.string().nullable(),
  connectedSince: z.number().nullable(),
  /** Failed attempts since the last success, and when the next one is due. */
  retryAttempts: z.number().int(),
  nextRetryAt: z.number().nullable(),
  responseTime: z.number().nullable(),
  /** Recent ping round trips (ms, null for a missed pong), oldest first. */
  pings: z.array(z.object({ at: z.number(), ms: z.number().nullable() })),
  counts: z.object({
    states: z.number().int(),
    entities: z.number().int(),
    devices: z.number().int(),
    areas: z.number().int(),
  }),
  domains: z.array(z.object({ domain: z.string(), count: z.number().int() })),
  lastRefill: z
    .object({
      at: z.number(),
      gapMs: z.number(),
      changedEntities: z.number().int(),
      transitions: z.number().int(),
    })
    .nullable(),
  /** State changes received since the agent connected. */
  eventsReceived: z.number().int(),
  events: z.array(haConnectionEventSchema),
});
export type HaStatus = z.infer<typeof haStatusSchema>;

/** GET /api/ha/activity: recent state changes, newest first; `refilled` ones came from history after a gap. */
export const haActivitySchema = z.object({
  at: z.string(),
  entity_id: z.string(),
  name: z.string(),
  from: z.string().nullable(),
  to: z.string(),
  refilled: z.boolean(),
});
export type HaActivity = z.infer<typeof haActivitySchema>;
export const haActivityListSchema = z.array(haActivitySchema);

/** POST /api/ha/connection-test. Without a body it tests the stored connection; with one (admin), the given URL and token. */
export const haConnectionTestInputSchema = z.strictObject({
  url: haUrlSchema.optional(),
  token: z.string().trim().min(1).max(4096).optional(),
});

export const haProbeStepSchema = z.object({
  id: z.enum(['dns', 'tcp', 'http', 'auth', 'websocket', 'registry']),
  label: z.string(),
  status: z.enum(['ok', 'failed', 'skipped']),
  durationMs: z.number().nullable(),
  detail: z.string().nullable(),
  problem: z.string().nullable(),
  fix: z.string().nullable(),
});
export type HaProbeStep = z.infer<typeof haProbeStepSchema>;

export const haConnectionTestResultSchema = z.object({
  ok: z.boolean(),
  steps: z.array(haProbeStepSchema),
  totalMs: z.number(),
  haVersion: z.string().nullable(),
  testedAt: z.number(),
});
export type HaConnectionTestResult = z.infer<typeof haConnectionTestResultSchema>;

// ---- live -------------------------------------------------------------------------------------

/** What the `ha.entities` topic carries. */
export const haLiveMessageSchema = z.discriminatedUnion('type', [
  /** Entities whose state changed (or that appeared), in their new form. */
  z.object({ type: z.literal('changed'), entities: z.array(haEntitySchema) }),
  z.object({ type: z.literal('removed'), entityIds: z.array(z.string()) }),
  /** The whole cache was reloaded (after a reconnect or a registry change): fetch the list again. */
  z.object({ type: z.literal('resync') }),
  z.object({
    type: z.literal('connection'),
    state: haConnectionStateSchema,
    health: haConnectionHealthSchema,
    message: z.string().nullable(),
  }),
]);
export type HaLiveMessage = z.infer<typeof haLiveMessageSchema>;
