import { z } from 'zod';
import { logLineSchema } from './docker.js';

/**
 * The fleet (issue 24): several hubs as one Docker Swarm. The hub's own engine (DOCKER_HOST) is
 * a swarm manager or worker; the console reads and changes the swarm through the Engine API's
 * /swarm, /nodes, /services and /tasks endpoints. /multi-nexus (independent hubs watched over
 * the VPN) is separate and unchanged.
 */

// ---- the swarm -----------------------------------------------------------------------------

/** The engine's `Swarm.LocalNodeState`, as GET /info reports it. */
export const swarmStateSchema = z.enum(['inactive', 'pending', 'active', 'error', 'locked']);
export type SwarmState = z.infer<typeof swarmStateSchema>;

export const swarmRoleSchema = z.enum(['manager', 'worker']);
export type SwarmRole = z.infer<typeof swarmRoleSchema>;

/** `GET /api/fleet`: whether this hub's engine is in a swarm, and its part in it. */
export const fleetStatusSchema = z.object({
  state: swarmStateSchema,
  /** Null when the engine is in no swarm. */
  role: swarmRoleSchema.nullable(),
  nodeId: z.string().nullable(),
  clusterId: z.string().nullable(),
  /** The address other nodes reach this one at (`Swarm.NodeAddr`). */
  nodeAddr: z.string().nullable(),
  /** Counts the engine reports (`Swarm.Nodes`, `Swarm.Managers`); null outside a swarm. */
  nodes: z.number().int().nullable(),
  managers: z.number().int().nullable(),
  /** The engine's own words when the state is error or locked. */
  error: z.string().nullable(),
  /** Managers can change the swarm; a worker's console shows it read-only. */
  canManage: z.boolean(),
});
export type FleetStatus = z.infer<typeof fleetStatusSchema>;

/** An IPv4/IPv6 address or interface name, with an optional port, as `docker swarm init` takes. */
const swarmAddressSchema = z
  .string()
  .trim()
  .min(1, 'Give the address other hubs reach this one at')
  .max(255)
  .regex(/^[A-Za-z0-9.:[\]%_-]+$/, 'An address is an IP address or interface name, with an optional :port');

/** `POST /api/fleet/init` (admin). */
export const fleetInitInputSchema = z.object({
  advertiseAddr: swarmAddressSchema,
  /** Defaults to 0.0.0.0:2377 as the engine does. */
  listenAddr: swarmAddressSchema.optional(),
});
export type FleetInitInput = z.input<typeof fleetInitInputSchema>;

/** `POST /api/fleet/join` (admin): this hub joins another hub's swarm with a join token. */
export const fleetJoinInputSchema = z.object({
  /** The manager's address, host:port (port 2377 by default). */
  remoteAddr: swarmAddressSchema,
  token: z
    .string()
    .trim()
    .regex(/^SWMTKN-1-[a-z0-9]+-[a-z0-9]+$/, 'A join token starts with SWMTKN-1-'),
  advertiseAddr: swarmAddressSchema.optional(),
});
export type FleetJoinInput = z.input<typeof fleetJoinInputSchema>;

/** `POST /api/fleet/leave` (admin). A manager needs `force` (the engine's own rule). */
export const fleetLeaveInputSchema = z.object({ force: z.boolean().optional().default(false) });

/** `GET /api/fleet/join-tokens` (admin only: a token lets a machine into the swarm). */
export const joinCommandSchema = z.object({
  token: z.string(),
  /** `docker swarm join --token … <addr>:2377`, ready to paste on the other hub. */
  command: z.string(),
});
export const fleetJoinTokensSchema = z.object({
  worker: joinCommandSchema,
  manager: joinCommandSchema,
});
export type FleetJoinTokens = z.infer<typeof fleetJoinTokensSchema>;

/** `POST /api/fleet/join-tokens/rotate` (admin): the old token stops working at once. */
export const fleetRotateInputSchema = z.object({ role: swarmRoleSchema });

// ---- nodes ---------------------------------------------------------------------------------

export const nodeAvailabilitySchema = z.enum(['active', 'pause', 'drain']);
export type NodeAvailability = z.infer<typeof nodeAvailabilitySchema>;

/** A node's labels: keys as the engine allows them (`nexus.gpu`, `nexus.role`…). */
export const nodeLabelKeySchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, 'A label key has letters, digits, dots, dashes, slashes');
export const nodeLabelsSchema = z.record(nodeLabelKeySchema, z.string().max(256));

/** What a Nexus agent on that node says of its board, through the existing peer link. */
export const fleetNodeNexusSchema = z.object({
  /** The hub's name as its console shows it. */
  name: z.string().nullable(),
  jetsonModel: z.string().nullable(),
  temperatures: z.array(z.object({ zone: z.string(), celsius: z.number() })),
  /** CPU use in %, memory use in %, when the peer answered. */
  cpuPercent: z.number().nullable(),
  memoryPercent: z.number().nullable(),
  /** When the peer last answered (ISO). */
  readAt: z.string().nullable(),
});
export type FleetNodeNexus = z.infer<typeof fleetNodeNexusSchema>;

export const fleetNodeSchema = z.object({
  id: z.string(),
  hostname: z.string(),
  role: swarmRoleSchema,
  /** The swarm's current leader among managers. */
  leader: z.boolean(),
  /** This hub's own node. */
  self: z.boolean(),
  availability: nodeAvailabilitySchema,
  /** `Status.State`: ready, down, unknown, disconnected. */
  status: z.string(),
  statusMessage: z.string().nullable(),
  addr: z.string().nullable(),
  engineVersion: z.string().nullable(),
  os: z.string().nullable(),
  arch: z.string().nullable(),
  cpus: z.number().nullable(),
  memoryBytes: z.number().nullable(),
  labels: z.record(z.string(), z.string()),
  /** Null when no Nexus agent answers for that node (not paired, unreachable). */
  nexus: fleetNodeNexusSchema.nullable(),
});
export type FleetNode = z.infer<typeof fleetNodeSchema>;
export const fleetNodeListSchema = z.object({ nodes: z.array(fleetNodeSchema) });

export const fleetNodeParamSchema = z.object({ id: z.string().regex(/^[a-z0-9]{1,64}$/) });

/**
 * `PATCH /api/fleet/nodes/:id` (admin). `labels` replaces the node's labels as a whole (the
 * engine's node spec holds them so); a label's value may be empty.
 */
export const fleetNodeUpdateSchema = z
  .object({
    labels: nodeLabelsSchema.optional(),
    availability: nodeAvailabilitySchema.optional(),
  })
  .refine((v) => v.labels !== undefined || v.availability !== undefined, {
    message: 'Say what to change: labels or availability',
  });
export type FleetNodeUpdate = z.infer<typeof fleetNodeUpdateSchema>;

// ---- services and tasks --------------------------------------------------------------------

/** The label `docker stack deploy` puts on a stack's services, networks, secrets and configs. */
export const STACK_NAMESPACE_LABEL = 'com.docker.stack.namespace';

export const fleetTaskSchema = z.object({
  id: z.string(),
  /** Replica number; null for a global service. */
  slot: z.number().int().nullable(),
  nodeId: z.string().nullable(),
  nodeHostname: z.string().nullable(),
  desiredState: z.string(),
  /** `Status.State`: new, pending, assigned, running, failed, rejected, shutdown… */
  state: z.string(),
  /** `Status.Message`, e.g. "pending task scheduling". */
  message: z.string().nullable(),
  /** `Status.Err`: the engine's reason, e.g. "no suitable node (scheduling constraints not satisfied on 1 node)". */
  error: z.string().nullable(),
  containerId: z.string().nullable(),
  image: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type FleetTask = z.infer<typeof fleetTaskSchema>;

/** The engine's `UpdateStatus` of a service, while and after a rolling update or rollback. */
export const fleetUpdateStatusSchema = z.object({
  /** updating, paused, completed, rollback_started, rollback_paused, rollback_completed. */
  state: z.string(),
  message: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});

export const fleetServiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** `com.docker.stack.namespace`: null for a service made outside a stack. */
  stack: z.string().nullable(),
  image: z.string(),
  mode: z.enum(['replicated', 'global']),
  /** Desired replicas (null for global), and how many tasks run now. */
  replicas: z.number().int().nullable(),
  running: z.number().int(),
  constraints: z.array(z.string()),
  ports: z.array(
    z.object({
      published: z.number().int().nullable(),
      target: z.number().int(),
      protocol: z.string(),
      mode: z.string(),
    }),
  ),
  updateStatus: fleetUpdateStatusSchema.nullable(),
  /** Whether the engine keeps a previous spec to roll back to. */
  canRollback: z.boolean(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
  tasks: z.array(fleetTaskSchema),
});
export type FleetService = z.infer<typeof fleetServiceSchema>;
export const fleetServiceListSchema = z.object({ services: z.array(fleetServiceSchema) });

export const fleetServiceParamSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/) });

/** `POST /api/fleet/services/:id/scale` (admin). */
export const fleetScaleInputSchema = z.object({ replicas: z.number().int().min(0).max(100) });

/** `POST /api/fleet/services/:id/update` (admin): a rolling update to a new image. */
export const fleetServiceUpdateInputSchema = z.object({
  image: z
    .string()
    .trim()
    .min(1)
    .max(512)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._/:@-]*$/, 'An image reference, e.g. ollama/ollama:0.5.7'),
});

/** `GET /api/fleet/services/:id/logs`: lines from every task, each with its task and node. */
export const fleetLogsQuerySchema = z.object({
  tail: z.coerce.number().int().min(1).max(5000).optional().default(200),
  since: z.coerce.number().int().min(0).optional(),
});
export const fleetLogLineSchema = logLineSchema.extend({
  taskId: z.string().nullable(),
  nodeId: z.string().nullable(),
});
export const fleetLogsSchema = z.object({
  serviceId: z.string(),
  lines: z.array(fleetLogLineSchema),
});
export type FleetLogs = z.infer<typeof fleetLogsSchema>;

/** `GET /api/fleet/stacks`: the fleet's stacks, as `docker stack ls` lists them. */
export const fleetStackSchema = z.object({
  name: z.string(),
  services: z.number().int(),
  /** Deployed from this console (we keep its compose file). */
  managed: z.boolean(),
});
export const fleetStackListSchema = z.object({ stacks: z.array(fleetStackSchema) });
