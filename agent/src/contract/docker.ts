import { z } from 'zod';

/** The labels docker compose puts on what it creates; stacks made here carry the same ones. */
export const COMPOSE_PROJECT_LABEL = 'com.docker.compose.project';
export const COMPOSE_SERVICE_LABEL = 'com.docker.compose.service';

/** Container states of the Engine API ("ContainerSummary.State"). */
export const CONTAINER_STATES = [
  'created',
  'running',
  'paused',
  'restarting',
  'removing',
  'exited',
  'dead',
] as const;

/** A container id (hex, full or short) or name, as the engine accepts both. */
export const containerRefSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/, 'Not a container id or name');
export const containerParamSchema = z.object({ id: containerRefSchema });

export const imageRefSchema = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.:/@-]*$/, 'Not an image id or reference');
export const imageParamSchema = z.object({ id: imageRefSchema });

export const portMappingSchema = z.object({
  privatePort: z.number().int(),
  publicPort: z.number().int().nullable(),
  type: z.string(),
  ip: z.string().nullable(),
});
export type PortMapping = z.infer<typeof portMappingSchema>;

export const containerSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  image: z.string(),
  imageId: z.string(),
  command: z.string(),
  state: z.string(),
  /** The engine's human status, e.g. "Up 3 minutes". */
  status: z.string(),
  createdAt: z.string(),
  ports: z.array(portMappingSchema),
  labels: z.record(z.string(), z.string()),
  composeProject: z.string().nullable(),
  composeService: z.string().nullable(),
});
export type ContainerSummary = z.infer<typeof containerSummarySchema>;

export const stopQuerySchema = z.object({
  /** Seconds the engine waits after SIGTERM before SIGKILL; the engine's default when absent. */
  t: z.coerce.number().int().min(0).max(600).optional(),
});

export const removeContainerQuerySchema = z.object({
  force: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
  volumes: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

export const removeImageQuerySchema = z.object({
  force: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

/** The most lines one logs request returns; a download of a busy container stays bounded. */
export const MAX_LOG_TAIL = 50_000;
export const DEFAULT_LOG_TAIL = 500;

/** `since`: unix seconds, an ISO date, or a duration back from now (30s, 15m, 2h, 1d). */
export const logsQuerySchema = z.object({
  tail: z
    .union([z.literal('all'), z.coerce.number().int().min(0).max(MAX_LOG_TAIL)])
    .optional()
    .default(DEFAULT_LOG_TAIL),
  since: z
    .string()
    .trim()
    .regex(
      /^(\d+(\.\d+)?|\d+[smhd]|\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?)$/,
      'since is unix seconds, an ISO date or a duration like 15m',
    )
    .optional(),
  timestamps: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  format: z.enum(['text', 'json']).optional().default('text'),
});
export type LogsQuery = z.input<typeof logsQuerySchema>;

export const logLineSchema = z.object({
  stream: z.enum(['stdout', 'stderr']),
  text: z.string(),
  ts: z.string().optional(),
});
export type LogLine = z.infer<typeof logLineSchema>;

export const logsResponseSchema = z.object({
  containerId: z.string(),
  tty: z.boolean(),
  lines: z.array(logLineSchema),
});
export type LogsResponse = z.infer<typeof logsResponseSchema>;

export const containerStatsSchema = z.object({
  id: z.string(),
  name: z.string(),
  readAt: z.string(),
  /** Share of one CPU, as docker stats shows it: 200 % is two cores busy. */
  cpuPercent: z.number(),
  onlineCpus: z.number().int(),
  memory: z.object({ usageBytes: z.number(), limitBytes: z.number(), percent: z.number() }),
  network: z.object({ rxBytes: z.number(), txBytes: z.number() }),
  blockIo: z.object({ readBytes: z.number(), writeBytes: z.number() }),
  pids: z.number().int().nullable(),
});
export type ContainerStats = z.infer<typeof containerStatsSchema>;

export const imageSummarySchema = z.object({
  id: z.string(),
  tags: z.array(z.string()),
  sizeBytes: z.number(),
  createdAt: z.string(),
  /** Containers using the image; -1 when the engine does not count them. */
  containers: z.number().int(),
});
export type ImageSummary = z.infer<typeof imageSummarySchema>;

export const engineStatusSchema = z.object({
  endpoint: z.string(),
  reachable: z.boolean(),
  /** Why not, when unreachable. */
  message: z.string().nullable(),
  platform: z.string().nullable(),
  version: z.string().nullable(),
  apiVersion: z.string().nullable(),
  os: z.string().nullable(),
  arch: z.string().nullable(),
  kernelVersion: z.string().nullable(),
});
export type EngineStatus = z.infer<typeof engineStatusSchema>;

// ---- Stacks ----------------------------------------------------------------------------------

/** docker compose's rule for project names. */
export const stackNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the stack a name')
  .max(63)
  .regex(
    /^[a-z0-9][a-z0-9_-]*$/,
    'A stack name has lowercase letters, digits, dashes and underscores, and starts with a letter or digit',
  );
export const stackParamSchema = z.object({ name: stackNameSchema });

/** 256 KB is far beyond any hand-written compose file. */
export const MAX_COMPOSE_BYTES = 256 * 1024;

export const stackVariablesSchema = z.record(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Variable names are letters, digits and underscores'),
  z.string().max(4096),
);

/**
 * Where a stack runs (issue 24): this hub (containers, as docker compose makes them) or the fleet
 * (swarm services, as `docker stack deploy` makes them; contract/fleet.ts).
 */
export const stackTargetSchema = z.enum(['hub', 'fleet']);
export type StackTarget = z.infer<typeof stackTargetSchema>;

export const deployStackInputSchema = z.object({
  name: stackNameSchema,
  target: stackTargetSchema.optional().default('hub'),
  compose: z
    .string()
    .min(1, 'The compose file is empty')
    .max(MAX_COMPOSE_BYTES, 'The compose file is too large'),
  /** Values for ${VARIABLE} references in the compose file. */
  variables: stackVariablesSchema.optional().default({}),
});
export type DeployStackInput = z.input<typeof deployStackInputSchema>;

export const stackActionQuerySchema = z.object({
  t: z.coerce.number().int().min(0).max(600).optional(),
});

export const removeStackQuerySchema = z.object({
  volumes: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

export const stackServiceSchema = z.object({
  service: z.string(),
  containerId: z.string().nullable(),
  containerName: z.string().nullable(),
  image: z.string().nullable(),
  state: z.string(),
  status: z.string().nullable(),
});

export const stackSummarySchema = z.object({
  name: z.string(),
  /** console: deployed here (its compose file is kept, so it can be redeployed); external: made elsewhere. */
  source: z.enum(['console', 'external']),
  status: z.enum(['running', 'partial', 'stopped', 'missing']),
  catalogApp: z.string().nullable(),
  /** hub: containers on this engine; fleet: swarm services (a service's state says running/pending). */
  target: stackTargetSchema,
  services: z.array(stackServiceSchema),
  updatedAt: z.string().nullable(),
});
export type StackSummary = z.infer<typeof stackSummarySchema>;

export const stackDetailSchema = stackSummarySchema.extend({
  /** The stored compose file; null for an external stack, and for members (it holds the environment). */
  compose: z.string().nullable(),
  variableNames: z.array(z.string()),
});
export type StackDetail = z.infer<typeof stackDetailSchema>;

/** What a deployment left behind, so nothing stands half-deployed without the owner knowing. */
export const deploymentOutcomeSchema = z.object({
  pulled: z.array(z.string()),
  created: z.array(
    z.object({ kind: z.enum(['container', 'network', 'volume', 'service']), name: z.string() }),
  ),
  removed: z.array(z.string()),
  /** Containers of the stack still present after a failure, and their state. */
  standing: z.array(z.object({ name: z.string(), state: z.string() })),
});
export type DeploymentOutcome = z.infer<typeof deploymentOutcomeSchema>;

export const DEPLOYMENT_ACTIONS = ['deploy', 'redeploy', 'start', 'stop', 'remove'] as const;

export const deploymentSchema = z.object({
  id: z.number().int(),
  stack: z.string(),
  action: z.enum(DEPLOYMENT_ACTIONS),
  catalogApp: z.string().nullable(),
  user: z.object({ id: z.number().int().nullable(), name: z.string() }),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  result: z.enum(['running', 'success', 'failed']),
  message: z.string().nullable(),
  outcome: deploymentOutcomeSchema.nullable(),
});
export type Deployment = z.infer<typeof deploymentSchema>;

export const deploymentsQuerySchema = z.object({
  stack: stackNameSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).optional().default(50),
});

/**
 * Progress of a deployment, one JSON object per line (application/x-ndjson) when the client
 * asks for it with `Accept: application/x-ndjson`.
 */
export const deployEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('step'), message: z.string() }),
  z.object({
    type: z.literal('pull'),
    image: z.string(),
    /** The layer id, absent for image-wide messages. */
    layer: z.string().nullable(),
    status: z.string(),
    current: z.number().nullable(),
    total: z.number().nullable(),
  }),
  z.object({ type: z.literal('pulled'), image: z.string() }),
  z.object({
    type: z.literal('created'),
    kind: z.enum(['container', 'network', 'volume', 'service']),
    name: z.string(),
  }),
  z.object({ type: z.literal('started'), service: z.string(), container: z.string() }),
  z.object({ type: z.literal('health'), service: z.string(), ok: z.boolean(), message: z.string() }),
  z.object({
    type: z.literal('error'),
    status: z.number().int(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
  z.object({ type: z.literal('done'), deployment: deploymentSchema }),
]);
export type DeployEvent = z.infer<typeof deployEventSchema>;

// ---- App catalog ----------------------------------------------------------------------------

export const catalogFieldSchema = z.object({
  /** The ${VARIABLE} the template uses. */
  key: z.string().regex(/^[A-Z_][A-Z0-9_]*$/),
  label: z.string(),
  help: z.string().optional(),
  type: z.enum(['string', 'number', 'port', 'select', 'boolean']),
  default: z.string(),
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  required: z.boolean().optional(),
});
export type CatalogField = z.infer<typeof catalogFieldSchema>;

export const catalogProbeSchema = z.discriminatedUnion('type', [
  /** An HTTP GET that must answer 2xx (or one of `okStatus`). */
  z.object({
    type: z.literal('http'),
    portVariable: z.string(),
    path: z.string(),
    okStatus: z.array(z.number().int()).optional(),
  }),
  /** A Wyoming service: a `describe` event must be answered with `info`. */
  z.object({ type: z.literal('wyoming'), portVariable: z.string() }),
  z.object({ type: z.literal('tcp'), portVariable: z.string() }),
]);

/** How long the health probe keeps trying after a deployment, unless the app says otherwise. */
export const DEFAULT_PROBE_TIMEOUT_SECONDS = 60;
export type CatalogProbe = z.infer<typeof catalogProbeSchema>;

export const catalogAppSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  /** The stack name a deployment of this app gets. */
  stack: stackNameSchema,
  gpu: z.boolean(),
  /** The template file under docker/, relative. */
  template: z.string(),
  fields: z.array(catalogFieldSchema),
  probe: catalogProbeSchema,
  /** First starts can be slow (Home Assistant sets itself up, models download). */
  probeTimeoutSeconds: z.number().int().min(1).max(1800).optional(),
  docs: z.string().optional(),
});
export type CatalogApp = z.infer<typeof catalogAppSchema>;

export const catalogFileSchema = z.object({ apps: z.array(catalogAppSchema) });

export const catalogAppViewSchema = catalogAppSchema.extend({
  compose: z.string(),
  deployed: stackSummarySchema.nullable(),
});
export type CatalogAppView = z.infer<typeof catalogAppViewSchema>;

export const catalogParamSchema = z.object({ app: z.string().regex(/^[a-z0-9][a-z0-9-]*$/) });
export const catalogDeployInputSchema = z.object({
  settings: stackVariablesSchema.optional().default({}),
  /** A first deploy's target; a deployed app stays where it is. */
  target: stackTargetSchema.optional().default('hub'),
});

export const probeResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  target: z.string(),
  ms: z.number(),
});
export type ProbeResult = z.infer<typeof probeResultSchema>;

// ---- live log following (the live channel's `docker.logs.<container>` topics) ---------------

export const DOCKER_LOGS_TOPIC = 'docker.logs';
export const dockerLogsTopic = (container: string) => `${DOCKER_LOGS_TOPIC}.${container}`;

/**
 * Events on `docker.logs.<container>`. Lines come in batches (one event per ~100 ms) so a chatty
 * container costs a few events a second, not one per line. `seq` counts batches: a gap means the
 * browser read too slowly and the agent dropped batches for it; `coalesced` counts lines the agent
 * dropped itself because the container wrote faster than the batch limit.
 */
export const dockerLogsEventSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('lines'),
    seq: z.number().int(),
    lines: z.array(logLineSchema),
    coalesced: z.number().int(),
  }),
  z.object({
    kind: z.literal('status'),
    state: z.enum(['following', 'waiting', 'error']),
    message: z.string(),
  }),
]);
export type DockerLogsEvent = z.infer<typeof dockerLogsEventSchema>;

// ---- list answers --------------------------------------------------------------------------

export const containerListSchema = z.object({ containers: z.array(containerSummarySchema) });
export const imageListSchema = z.object({ images: z.array(imageSummarySchema) });
export const stackListSchema = z.object({ stacks: z.array(stackSummarySchema) });
export const deploymentListSchema = z.object({ deployments: z.array(deploymentSchema) });
export const catalogListSchema = z.object({ apps: z.array(catalogAppViewSchema) });
export const deploymentAnswerSchema = z.object({
  deployment: deploymentSchema,
  probe: probeResultSchema.optional(),
});
