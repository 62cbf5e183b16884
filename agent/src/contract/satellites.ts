import { z } from 'zod';
import { SATELLITE_SOURCES, WYOMING_CONNECTION_STATES } from './satellite-constants.js';

export {
  SATELLITE_SOURCES,
  SATELLITE_SOURCE_LABELS,
  WYOMING_CONNECTION_STATES,
} from './satellite-constants.js';

/**
 * Satellites: the voice endpoints around the home. They come from three sources, merged into one
 * list: ESPHome satellites adopted by Home Assistant (Voice PE, Satellite1), Wyoming satellites the
 * hub connects to (wyoming-satellite on a Raspberry Pi), and custom devices that speak the hub's own
 * token-and-heartbeat API (the "Nexus satellite API").
 */

export const satelliteSourceSchema = z.enum(SATELLITE_SOURCES);
export type SatelliteSource = z.infer<typeof satelliteSourceSchema>;

/** A Nexus-API satellite that has not sent a heartbeat for this long is offline. */
export const SATELLITE_OFFLINE_AFTER_MS = 60_000;
/** How often a Nexus-API satellite should send its heartbeat. */
export const SATELLITE_HEARTBEAT_INTERVAL_MS = 15_000;
/** wyoming-satellite's default port. */
export const WYOMING_SATELLITE_DEFAULT_PORT = 10700;
/** The signal chart's window. */
export const SATELLITE_SIGNAL_WINDOW_MS = 24 * 60 * 60 * 1000;

export { SIGNAL_STRENGTH_GOOD_BELOW_ABS_DBM } from './status-constants.js';

// ---- controls ---------------------------------------------------------------------------------

export const SATELLITE_CONTROL_ACTIONS = [
  'volume',
  'mute',
  'wake-word',
  'led',
  'restart',
  'announce',
] as const;
export const satelliteControlActionSchema = z.enum(SATELLITE_CONTROL_ACTIONS);
export type SatelliteControlAction = z.infer<typeof satelliteControlActionSchema>;
/** What a member may do to a satellite; the other actions change the device and need an admin. */
export const MEMBER_SATELLITE_ACTIONS: readonly SatelliteControlAction[] = ['volume', 'mute', 'announce'];

const hexColour = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Give the colour as #rrggbb');

/** `POST /api/devices/satellite/:id/control`. */
export const satelliteControlInputSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('volume'), value: z.number().int().min(0).max(100) }),
  /** true mutes the microphone (the satellite stops listening for its wake word). */
  z.object({ action: z.literal('mute'), value: z.boolean() }),
  z.object({ action: z.literal('wake-word'), value: z.string().trim().min(1).max(100) }),
  z.object({
    action: z.literal('led'),
    value: z
      .object({
        on: z.boolean().optional(),
        brightness: z.number().int().min(0).max(100).optional(),
        color: hexColour.optional(),
      })
      .refine((v) => v.on !== undefined || v.brightness !== undefined || v.color !== undefined, {
        message: 'Give on, brightness or color',
      }),
  }),
  z.object({ action: z.literal('restart') }),
  z.object({ action: z.literal('announce'), value: z.string().trim().min(1, 'Give the text').max(500) }),
]);
export type SatelliteControlInput = z.infer<typeof satelliteControlInputSchema>;

/** The controls a satellite has, each with its current value; null when the device lacks it. */
export const satelliteControlsSchema = z.object({
  /** 0-100. */
  volume: z.object({ value: z.number().nullable() }).nullable(),
  /** Microphone muted. */
  mute: z.object({ value: z.boolean().nullable() }).nullable(),
  wakeWord: z.object({ value: z.string().nullable(), options: z.array(z.string()) }).nullable(),
  led: z
    .object({
      on: z.boolean().nullable(),
      /** 0-100. */
      brightness: z.number().nullable(),
      /** #rrggbb, null when the light does not report one. */
      color: z.string().nullable(),
    })
    .nullable(),
  restart: z.boolean(),
  announce: z.boolean(),
});
export type SatelliteControls = z.infer<typeof satelliteControlsSchema>;

export const NO_SATELLITE_CONTROLS: SatelliteControls = {
  volume: null,
  mute: null,
  wakeWord: null,
  led: null,
  restart: false,
  announce: false,
};

// ---- the list item ----------------------------------------------------------------------------

/** Spec §3 "Satellite device list item", with the source and what each source adds. */
export const satelliteSchema = z.object({
  id: z.number().int(),
  source: satelliteSourceSchema,
  name: z.string(),
  /**
   * Home Assistant: offline when the satellite entity is unavailable. Wyoming: online while the
   * hub's connection to it is up. Nexus API: online while heartbeats arrive (degraded when the
   * satellite says so), offline after SATELLITE_OFFLINE_AFTER_MS without one.
   */
  status: z.enum(['online', 'degraded', 'offline']),
  /** Why it is offline or degraded, in words; null when online. */
  statusReason: z.string().nullable(),
  /** dBm. */
  signalStrength: z.number().nullable(),
  activeWakeWord: z.string().nullable(),
  /** ISO time the hub last heard of it, null before that. */
  lastSeen: z.string().nullable(),
  /** The room (Home Assistant's and Wyoming's area). */
  room: z.string().nullable(),
  ipAddress: z.string().nullable(),
  firmwareVersion: z.string().nullable(),
  model: z.string().nullable(),
  manufacturer: z.string().nullable(),
  /** When the hub first knew it. */
  createdAt: z.string(),
  controls: satelliteControlsSchema,
  /** Set for source home-assistant. */
  homeAssistant: z.object({ deviceId: z.string(), satelliteEntityId: z.string() }).nullable(),
  /** Set for source wyoming: where the hub connects and how that goes. */
  wyoming: z
    .object({
      host: z.string(),
      port: z.number().int(),
      connection: z.enum(WYOMING_CONNECTION_STATES),
      /** The last connection error, null while connected. */
      error: z.string().nullable(),
      /** Epoch ms of the next connection attempt while disconnected. */
      nextRetryAt: z.number().nullable(),
      /** Audio is streaming from it now (after its wake word). */
      streaming: z.boolean(),
      /** The wake words it says it has (wyoming 1.6+ lists them; 1.5 does not). */
      wakeWords: z.array(z.string()),
    })
    .nullable(),
});
export type Satellite = z.infer<typeof satelliteSchema>;
export const satelliteListSchema = z.array(satelliteSchema);

/** `GET /api/devices/satellite/sources`: whether each source could be read, and why not. */
export const satelliteSourceStatusSchema = z.object({
  source: satelliteSourceSchema,
  available: z.boolean(),
  /** Why the source's satellites are missing, e.g. Home Assistant not connected. */
  message: z.string().nullable(),
  count: z.number().int(),
});
export const satelliteSourceStatusListSchema = z.array(satelliteSourceStatusSchema);
export type SatelliteSourceStatus = z.infer<typeof satelliteSourceStatusSchema>;

/** `GET /api/devices/satellite/:id/signal`: the last 24 h of signal readings. */
export const satelliteSignalHistorySchema = z.object({
  points: z.array(z.object({ at: z.number(), dbm: z.number() })),
  from: z.number(),
  to: z.number(),
});
export type SatelliteSignalHistory = z.infer<typeof satelliteSignalHistorySchema>;

// ---- inputs -----------------------------------------------------------------------------------

const satelliteName = z.string().trim().min(1, 'Name is required').max(80);
const wakeWord = z.string().trim().min(1).max(80);
const optionalText = z.string().trim().max(120);

/** `POST /api/devices/satellite`: a Nexus-API satellite (a custom device with a token). */
export const createSatelliteInputSchema = z.object({
  name: satelliteName,
  room: optionalText.nullish(),
  activeWakeWord: wakeWord.nullish(),
});
export type CreateSatelliteInput = z.infer<typeof createSatelliteInputSchema>;

/** A host name or an IP address, as a person types it; no scheme, path or port. */
const hostSchema = z
  .string()
  .trim()
  .min(1, 'Give the host')
  .max(253)
  .regex(
    /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[?[0-9A-Fa-f:.]+\]?)$/,
    'Give a host name or an IP address, without http:// or a port',
  )
  .transform((h) => h.replace(/^\[|\]$/g, ''))
  // The pattern lets colons through for IPv6; "192.168.1.5:10700" is a host with its port, not an address.
  .refine((h) => !h.includes(':') || z.ipv6().safeParse(h).success, {
    message: 'Give a host name or an IP address, without http:// or a port',
  });

/** `POST /api/devices/satellite/wyoming`. */
export const createWyomingSatelliteInputSchema = z.object({
  /** Omit to use the name the satellite gives in its info. */
  name: satelliteName.optional(),
  host: hostSchema,
  port: z.number().int().min(1).max(65_535).default(WYOMING_SATELLITE_DEFAULT_PORT),
});
export type CreateWyomingSatelliteInput = z.input<typeof createWyomingSatelliteInputSchema>;

export const updateSatelliteInputSchema = z
  .object({ name: satelliteName, room: optionalText.nullable(), activeWakeWord: wakeWord.nullable() })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change');
export type UpdateSatelliteInput = z.infer<typeof updateSatelliteInputSchema>;

/** The satellite and its token, which is shown this once and stored only as a hash. */
export const satelliteWithTokenSchema = z.object({ satellite: satelliteSchema, token: z.string() });
export type SatelliteWithToken = z.infer<typeof satelliteWithTokenSchema>;

/** What a Nexus-API satellite sends every SATELLITE_HEARTBEAT_INTERVAL_MS with `Authorization: Bearer <token>`. */
export const satelliteHeartbeatInputSchema = z.object({
  /** dBm, e.g. -55. */
  signalStrength: z.number().min(-120).max(0).nullish(),
  activeWakeWord: wakeWord.nullish(),
  /** A satellite that works but has a problem (e.g. no microphone) reports degraded. */
  status: z.enum(['online', 'degraded']).default('online'),
  firmwareVersion: z.string().trim().max(40).nullish(),
});
export type SatelliteHeartbeatInput = z.input<typeof satelliteHeartbeatInputSchema>;
