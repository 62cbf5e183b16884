import { z } from 'zod';
import { checkSummarySchema, diagnosticCheckSchema } from './jetson.js';
import { hubNameSchema } from './setup.js';
import { nexusStatusSchema } from './status.js';

/**
 * Nexus management (/nexus-management, /nexus-test, /nexus-debug, /multi-nexus): this hub's
 * identity and services, its self-test and debug facts, and other hubs watched from here.
 */

export const SERVICE_HEALTH_STATES = ['healthy', 'degraded', 'down', 'not_configured'] as const;
export const serviceHealthStateSchema = z.enum(SERVICE_HEALTH_STATES);
export type ServiceHealthState = z.infer<typeof serviceHealthStateSchema>;

export const hubServiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: serviceHealthStateSchema,
  detail: z.string(),
  /** How long the probe took, ms; null when nothing was asked. */
  latencyMs: z.number().nullable(),
  /** The console screen with more about it. */
  link: z.string().nullable(),
});
export type HubService = z.infer<typeof hubServiceSchema>;

/** `GET /api/nexus/overview` (signed in). */
export const hubOverviewSchema = z.object({
  identity: z.object({
    hubName: z.string(),
    timeZone: z.string(),
    hostname: z.string(),
    version: z.string(),
    nodeVersion: z.string(),
    platform: z.string(),
    arch: z.string(),
    agentStartedAt: z.string(),
    /** Seconds since the host booted. */
    hostUptime: z.number(),
  }),
  board: z.object({
    isJetson: z.boolean(),
    model: z.string().nullable(),
    jetpack: z.string().nullable(),
    l4t: z.string().nullable(),
  }),
  setup: z.object({ finished: z.boolean(), currentStep: z.string() }),
  services: z.array(hubServiceSchema),
  checkedAt: z.string(),
});
export type HubOverview = z.infer<typeof hubOverviewSchema>;

/** `POST /api/nexus/self-test` (admin): every probe run now, grouped. */
export const selfTestSchema = z.object({
  startedAt: z.string(),
  durationMs: z.number(),
  groups: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      checks: z.array(diagnosticCheckSchema),
      durationMs: z.number(),
    }),
  ),
  summary: checkSummarySchema,
});
export type SelfTest = z.infer<typeof selfTestSchema>;

/** `GET /api/nexus/debug` (admin): what a technician asks first. Secrets are reported as set or not, never shown. */
export const hubDebugSchema = z.object({
  agent: z.object({
    pid: z.number(),
    version: z.string(),
    nodeVersion: z.string(),
    startedAt: z.string(),
    rssBytes: z.number(),
    heapUsedBytes: z.number(),
    dataDir: z.string(),
    hostRoot: z.string(),
  }),
  config: z.array(z.object({ name: z.string(), value: z.string() })),
  database: z.object({ file: z.string(), sizeBytes: z.number(), walBytes: z.number() }),
});
export type HubDebug = z.infer<typeof hubDebugSchema>;

// ---- this hub's access tokens, for other hubs that watch it --------------------------------------

export const accessTokenSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** The first characters, to tell tokens apart; the rest is never shown again. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type AccessToken = z.infer<typeof accessTokenSchema>;
export const accessTokenListSchema = z.object({ tokens: z.array(accessTokenSchema) });
export const accessTokenInputSchema = z.strictObject({
  name: z.string().trim().min(1, 'Name the token after the hub that will use it').max(64),
});
/** The token itself appears in this answer only. */
export const createdAccessTokenSchema = accessTokenSchema.extend({ token: z.string() });
export type CreatedAccessToken = z.infer<typeof createdAccessTokenSchema>;

/** `GET /api/nexus/peer`: what this hub tells another hub holding one of its access tokens. */
export const peerStatusSchema = z.object({
  hubName: z.string(),
  hostname: z.string(),
  version: z.string(),
  timeZone: z.string(),
  status: nexusStatusSchema,
  services: z.array(hubServiceSchema.pick({ id: true, name: true, status: true })),
  /** The board's model (e.g. "NVIDIA Jetson AGX Orin"), for the fleet's node cards; older hubs omit it. */
  jetsonModel: z.string().nullable().optional(),
});
export type PeerStatus = z.infer<typeof peerStatusSchema>;

// ---- other hubs ---------------------------------------------------------------------------------

export const REMOTE_HUB_STATES = [
  'online',
  'degraded',
  'offline',
  'unauthorized',
  'error',
  'unknown',
] as const;
export const remoteHubStateSchema = z.enum(REMOTE_HUB_STATES);
export type RemoteHubState = z.infer<typeof remoteHubStateSchema>;

const hubUrlSchema = z
  .url({ protocol: /^https?$/, message: 'Enter the hub’s address, e.g. http://nexus-kitchen.local:8080' })
  .max(2048)
  .refine(
    (u) => !new URL(u).username && !new URL(u).password,
    'Put the token in its own field, not in the address',
  )
  .transform((u) => {
    const url = new URL(u);
    url.hash = '';
    url.search = '';
    return url.toString().replace(/\/+$/, '');
  });
const hubTokenSchema = z
  .string()
  .trim()
  .min(16, 'Paste the whole access token from the other hub')
  .max(512)
  .regex(/^[\x21-\x7e]+$/, 'The token contains spaces or characters a token never has');

export const remoteHubInputSchema = z.strictObject({
  name: hubNameSchema,
  url: hubUrlSchema,
  token: hubTokenSchema,
});
export type RemoteHubInput = z.input<typeof remoteHubInputSchema>;
export type RemoteHubFields = z.output<typeof remoteHubInputSchema>;
export const remoteHubUpdateSchema = z
  .strictObject({ name: hubNameSchema, url: hubUrlSchema, token: hubTokenSchema })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change');
export type RemoteHubUpdate = z.input<typeof remoteHubUpdateSchema>;
export type RemoteHubChanges = z.output<typeof remoteHubUpdateSchema>;
export const idParamSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, 'An id is a positive whole number')
    .transform(Number),
});

export const remoteHubSchema = z.object({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  state: remoteHubStateSchema,
  /** Why it is not online, in a sentence; null when it is. */
  message: z.string().nullable(),
  version: z.string().nullable(),
  /** What the hub said about itself the last time it answered. */
  remote: peerStatusSchema.nullable(),
  latencyMs: z.number().nullable(),
  lastSeenAt: z.string().nullable(),
  checkedAt: z.string().nullable(),
});
export type RemoteHub = z.infer<typeof remoteHubSchema>;
export const remoteHubListSchema = z.object({ hubs: z.array(remoteHubSchema) });
export type RemoteHubList = z.infer<typeof remoteHubListSchema>;
/** The console polls the hub list this often; the agent asks each hub at most this often too. */
export const REMOTE_HUB_POLL_MS = 15_000;
