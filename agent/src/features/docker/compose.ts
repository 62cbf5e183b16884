import type * as Yaml from 'yaml';
import type { Document, LineCounter, Node } from 'yaml';
import { z } from 'zod';
import { HttpError } from '../../lib/http-error.js';
import { lazyRequire } from '../../lib/lazy-require.js';

/** yaml loads with the first compose file read, not at start. */
const yaml = lazyRequire<typeof Yaml>('yaml');

/**
 * The subset of the Compose Specification (compose-spec.io) that the console deploys through the
 * Engine API. Keys outside it are refused with their line, never silently dropped: a stack that
 * deployed differently from its file would be worse than one that did not deploy. Names follow
 * the spec; `x-` extension keys (used for YAML anchors) are allowed and ignored.
 */

const duration = z
  .union([z.string().regex(/^(\d+(\.\d+)?(us|ms|s|m|h))+$/, 'a duration like 30s or 1m30s'), z.number()])
  .transform((v) => (typeof v === 'number' ? v : parseDurationSeconds(v)));

const stringOrList = z.union([z.string(), z.array(z.string())]);
const scalar = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const keyValues = z.union([z.record(z.string(), z.union([scalar, z.null()])), z.array(z.string())]);

const portLong = z.strictObject({
  target: z.number().int().min(1).max(65535),
  published: z.union([z.number().int().min(0).max(65535), z.string().regex(/^\d+$/)]).optional(),
  host_ip: z.string().optional(),
  protocol: z.enum(['tcp', 'udp', 'sctp']).optional(),
  mode: z.enum(['host', 'ingress']).optional(),
  name: z.string().optional(),
  app_protocol: z.string().optional(),
});

const volumeLong = z.strictObject({
  type: z.enum(['volume', 'bind', 'tmpfs']),
  source: z.string().optional(),
  target: z.string().min(1),
  read_only: z.boolean().optional(),
  bind: z
    .strictObject({ create_host_path: z.boolean().optional(), propagation: z.string().optional() })
    .optional(),
  volume: z.strictObject({ nocopy: z.boolean().optional() }).optional(),
  tmpfs: z.strictObject({ size: z.union([z.number(), z.string()]).optional() }).optional(),
});

const healthcheck = z.strictObject({
  test: stringOrList.optional(),
  interval: duration.optional(),
  timeout: duration.optional(),
  retries: z.number().int().min(0).optional(),
  start_period: duration.optional(),
  start_interval: duration.optional(),
  disable: z.boolean().optional(),
});

const deviceRequest = z.strictObject({
  driver: z.string().optional(),
  count: z.union([z.literal('all'), z.number().int().min(1)]).optional(),
  device_ids: z.array(z.string()).optional(),
  capabilities: z.array(z.string()).min(1),
  options: z.record(z.string(), z.string()).optional(),
});

/** deploy.update_config and deploy.rollback_config (compose-spec "deploy"), honoured on the fleet. */
const updateConfig = z.strictObject({
  parallelism: z.number().int().min(0).optional(),
  delay: duration.optional(),
  failure_action: z.enum(['continue', 'pause', 'rollback']).optional(),
  monitor: duration.optional(),
  max_failure_ratio: z.number().min(0).max(1).optional(),
  order: z.enum(['stop-first', 'start-first']).optional(),
});

const deploy = z.strictObject({
  // The keys below are swarm's (docker stack deploy); a hub deploy refuses them (see FLEET_ONLY_DEPLOY_KEYS).
  mode: z.enum(['replicated', 'global']).optional(),
  replicas: z.number().int().min(0).max(1000).optional(),
  endpoint_mode: z.enum(['vip', 'dnsrr']).optional(),
  labels: keyValues.optional(),
  placement: z
    .strictObject({
      constraints: z.array(z.string().min(1)).optional(),
      preferences: z.array(z.strictObject({ spread: z.string().min(1) })).optional(),
      max_replicas_per_node: z.number().int().min(0).optional(),
    })
    .optional(),
  restart_policy: z
    .strictObject({
      condition: z.enum(['none', 'on-failure', 'any']).optional(),
      delay: duration.optional(),
      max_attempts: z.number().int().min(0).optional(),
      window: duration.optional(),
    })
    .optional(),
  update_config: updateConfig.optional(),
  rollback_config: updateConfig.optional(),
  resources: z
    .strictObject({
      limits: z
        .strictObject({ cpus: z.union([z.string(), z.number()]).optional(), memory: z.string().optional() })
        .optional(),
      reservations: z
        .strictObject({
          cpus: z.union([z.string(), z.number()]).optional(),
          memory: z.string().optional(),
          devices: z.array(deviceRequest).optional(),
        })
        .optional(),
    })
    .optional(),
});

const dependsOn = z.union([
  z.array(z.string()),
  z.record(
    z.string(),
    z.strictObject({
      condition: z
        .enum(['service_started', 'service_healthy', 'service_completed_successfully'])
        .default('service_started'),
      restart: z.boolean().optional(),
      required: z.boolean().optional(),
    }),
  ),
]);

const serviceSchema = z
  .strictObject({
    image: z.string().min(1, 'image is required'),
    container_name: z
      .string()
      .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/, 'not a valid container name')
      .optional(),
    command: stringOrList.optional(),
    entrypoint: stringOrList.optional(),
    environment: keyValues.optional(),
    ports: z.array(z.union([z.string(), z.number(), portLong])).optional(),
    expose: z.array(z.union([z.string(), z.number()])).optional(),
    volumes: z.array(z.union([z.string(), volumeLong])).optional(),
    restart: z
      .string()
      .regex(
        /^(no|always|unless-stopped|on-failure(:\d+)?)$/,
        'restart is no, always, unless-stopped or on-failure[:N]',
      )
      .optional(),
    labels: keyValues.optional(),
    depends_on: dependsOn.optional(),
    hostname: z.string().optional(),
    user: z.union([z.string(), z.number()]).transform(String).optional(),
    working_dir: z.string().optional(),
    tty: z.boolean().optional(),
    stdin_open: z.boolean().optional(),
    privileged: z.boolean().optional(),
    init: z.boolean().optional(),
    runtime: z.string().optional(),
    network_mode: z
      .string()
      .regex(/^(host|none|bridge)$/, 'network_mode is host, none or bridge')
      .optional(),
    networks: z
      .union([
        z.array(z.string()),
        z.record(
          z.string(),
          z.union([z.null(), z.strictObject({ aliases: z.array(z.string()).optional() })]),
        ),
      ])
      .optional(),
    devices: z.array(z.string()).optional(),
    cap_add: z.array(z.string()).optional(),
    cap_drop: z.array(z.string()).optional(),
    security_opt: z.array(z.string()).optional(),
    group_add: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
    extra_hosts: z.union([z.array(z.string()), z.record(z.string(), z.string())]).optional(),
    dns: stringOrList.optional(),
    healthcheck: healthcheck.optional(),
    stop_grace_period: duration.optional(),
    stop_signal: z.string().optional(),
    shm_size: z.union([z.string(), z.number()]).optional(),
    mem_limit: z.union([z.string(), z.number()]).optional(),
    cpus: z.union([z.string(), z.number()]).optional(),
    ipc: z.string().optional(),
    pid: z.string().optional(),
    sysctls: keyValues.optional(),
    tmpfs: stringOrList.optional(),
    pull_policy: z.enum(['always', 'missing', 'never', 'if_not_present']).optional(),
    deploy: deploy.optional(),
    platform: z.string().optional(),
  })
  .catchall(z.unknown());

const topLevelVolume = z.union([
  z.null(),
  z.strictObject({
    name: z.string().optional(),
    external: z.boolean().optional(),
    driver: z.string().optional(),
    driver_opts: z.record(z.string(), z.string()).optional(),
    labels: keyValues.optional(),
  }),
]);

const topLevelNetwork = z.union([
  z.null(),
  z.strictObject({
    name: z.string().optional(),
    external: z.boolean().optional(),
    driver: z.string().optional(),
    labels: keyValues.optional(),
  }),
]);

const composeSchema = z
  .strictObject({
    name: z.string().optional(),
    version: z.union([z.string(), z.number()]).optional(),
    services: z
      .record(z.string().regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/, 'not a valid service name'), serviceSchema)
      .refine((s) => Object.keys(s).length > 0, 'define at least one service'),
    volumes: z.record(z.string(), topLevelVolume).optional(),
    networks: z.record(z.string(), topLevelNetwork).optional(),
  })
  .catchall(z.unknown());

type ComposeFile = z.infer<typeof composeSchema>;
type ComposeService = z.infer<typeof serviceSchema>;

/** A compose duration (seconds, as parsed) in the nanoseconds the Engine API takes. */
export const durationNanos = (s: number | undefined) => (s === undefined ? undefined : Math.round(s * 1e9));

/**
 * A compose healthcheck as the Engine API's HealthConfig, the same for a container (this hub) and
 * for a swarm service's container spec (the fleet).
 */
export function engineHealthcheck(health: z.infer<typeof healthcheck> | undefined) {
  if (!health) return undefined;
  if (health.disable) return { Test: ['NONE'] };
  return {
    Test: typeof health.test === 'string' ? ['CMD-SHELL', health.test] : health.test,
    Interval: durationNanos(health.interval),
    Timeout: durationNanos(health.timeout),
    Retries: health.retries,
    StartPeriod: durationNanos(health.start_period),
  };
}

/** Compose's sysctls (a list of `k=v` or a map) as the Engine API's string map. */
export function engineSysctls(
  sysctls: string[] | Record<string, string | number | boolean | null> | undefined,
): Record<string, string> | undefined {
  if (!sysctls) return undefined;
  const pairs = Array.isArray(sysctls) ? sysctls.map((s) => s.split(/=(.*)/s)) : Object.entries(sysctls);
  return Object.fromEntries(pairs.map(([k, v]) => [k, String(v ?? '')]));
}

export interface PortBinding {
  containerPort: number;
  protocol: string;
  hostPort: string | null;
  hostIp: string | null;
  /** Swarm's publish mode, when the long syntax names one (the fleet defaults to host). */
  mode?: 'host' | 'ingress';
}

export interface VolumeMount {
  type: 'volume' | 'bind' | 'tmpfs' | 'anonymous';
  /** Named volume's key in the file (type volume), or host path (bind). */
  source: string | null;
  target: string;
  readOnly: boolean;
}

export type { ComposeService };

export type DependencyCondition = 'service_started' | 'service_healthy' | 'service_completed_successfully';

export interface ServicePlan {
  name: string;
  image: string;
  containerName: string | null;
  command: string[] | null;
  entrypoint: string[] | null;
  environment: Record<string, string>;
  labels: Record<string, string>;
  ports: PortBinding[];
  expose: { port: number; protocol: string }[];
  volumes: VolumeMount[];
  restart: { name: string; maxRetries: number };
  dependsOn: { service: string; condition: DependencyCondition }[];
  networks: { name: string; aliases: string[] }[];
  networkMode: 'host' | 'none' | 'bridge' | null;
  pullPolicy: 'always' | 'missing' | 'never';
  /** Everything else the Engine API takes as is, normalized (see toCreateSpec in stacks). */
  raw: ComposeService;
}

export interface StackPlan {
  /** Services in start order: every service after the ones it depends on. */
  services: ServicePlan[];
  volumes: {
    key: string;
    name: string | null;
    external: boolean;
    driver: string | null;
    labels: Record<string, string>;
  }[];
  networks: { key: string; name: string | null; external: boolean; labels: Record<string, string> }[];
  warnings: string[];
}

// ---- parsing ----------------------------------------------------------------------------------

function lineOf(doc: Document, counter: LineCounter, path: (string | number)[]): number | null {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true) as Node | undefined;
    if (node && typeof node === 'object' && 'range' in node && node.range) {
      return counter.linePos(node.range[0]).line;
    }
  }
  return null;
}

/**
 * Compose variable interpolation (compose-spec "Interpolation"): $VAR, ${VAR}, ${VAR:-default},
 * ${VAR-default}, ${VAR:?error}, ${VAR?error}, ${VAR:+alt}, ${VAR+alt}, and $$ for a literal $.
 */
export function interpolate(
  value: string,
  variables: Record<string, string>,
  onUnset: (name: string) => void,
): string {
  const pattern = /\$(?:(\$)|([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\})/g;
  return value.replace(
    pattern,
    (whole, dollar, bare, braced, op: string | undefined, arg: string | undefined) => {
      if (dollar) return '$';
      const name = (bare ?? braced) as string;
      const set = Object.hasOwn(variables, name);
      const current = set ? variables[name]! : '';
      if (!op) {
        if (!set) onUnset(name);
        return current;
      }
      const emptyCounts = op.startsWith(':');
      const missing = !set || (emptyCounts && current === '');
      switch (op.slice(-1)) {
        case '-':
          return missing ? (arg ?? '') : current;
        case '+':
          return missing ? '' : (arg ?? '');
        case '?':
          if (missing) throw new InterpolationError(name, arg || `variable ${name} is required`);
          return current;
        default:
          return whole;
      }
    },
  );
}

class InterpolationError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
  }
}

function composeError(message: string, line: number | null, extra?: Record<string, unknown>): HttpError {
  return new HttpError(400, line ? `${message} (line ${line})` : message, { line, ...extra });
}

/** Where the stack goes: this hub's engine (containers) or the fleet (swarm services). */
export interface PlanOptions {
  target?: 'hub' | 'fleet';
}

/** deploy keys that only swarm honours: a hub deploy refuses them rather than dropping them. */
const FLEET_ONLY_DEPLOY_KEYS = [
  'mode',
  'replicas',
  'endpoint_mode',
  'labels',
  'placement',
  'restart_policy',
  'update_config',
  'rollback_config',
] as const;

/**
 * What a swarm service cannot be: compose keys that `docker stack deploy` ignores (and so would
 * deploy something other than the file says) are refused here, before anything is created.
 */
const FLEET_REFUSED_KEYS: Record<string, string> = {
  container_name: 'swarm names the tasks of a service itself (<stack>_<service>.<n>)',
  privileged: 'swarm services cannot run privileged',
  devices: 'swarm services cannot map host devices',
  ipc: 'swarm services cannot share an IPC namespace',
  pid: 'swarm services cannot share a PID namespace',
  shm_size: 'swarm services cannot set the shared memory size',
  security_opt: 'swarm services take no security options',
};

/** Compose keys a swarm service has no use for: deployed without them, with a warning. */
const FLEET_IGNORED_KEYS: Record<string, string> = {
  pull_policy: 'every node pulls the image itself when it starts a task',
  expose: 'services on one overlay network reach each other on every port',
  platform: 'use a placement constraint such as node.platform.arch==aarch64 instead',
  // Swarm services cannot choose a runtime; Jetsons give GPU access through the engine's default.
  runtime:
    'a service runs with its node engine\'s default runtime: on GPU nodes set "default-runtime": "nvidia" in /etc/docker/daemon.json, and constrain the service to them (e.g. node.labels.nexus.gpu)',
};

function fleetChecks(
  file: ComposeFile,
  line: (path: (string | number)[]) => number | null,
  warnings: string[],
): void {
  for (const [name, service] of Object.entries(file.services)) {
    for (const [key, why] of Object.entries(FLEET_REFUSED_KEYS)) {
      if (service[key as keyof ComposeService] !== undefined) {
        throw composeError(
          `services.${name}.${key} cannot be deployed to the fleet: ${why}`,
          line(['services', name, key]),
        );
      }
    }
    for (const [key, why] of Object.entries(FLEET_IGNORED_KEYS)) {
      if (service[key as keyof ComposeService] !== undefined) {
        warnings.push(`services.${name}.${key} is ignored on the fleet: ${why}.`);
      }
    }
    if (service.network_mode && service.network_mode !== 'host') {
      throw composeError(
        `services.${name}.network_mode: ${service.network_mode} cannot be deployed to the fleet: use host or the stack's overlay networks`,
        line(['services', name, 'network_mode']),
      );
    }
    if (service.deploy?.resources?.reservations?.devices) {
      throw composeError(
        `services.${name}.deploy.resources.reservations.devices cannot be deployed to the fleet: swarm services do not reserve devices`,
        line(['services', name, 'deploy', 'resources', 'reservations', 'devices']),
      );
    }
    const dependsOn = service.depends_on;
    if (dependsOn) {
      const conditions = Array.isArray(dependsOn) ? [] : Object.values(dependsOn).map((d) => d.condition);
      const waiting = conditions.find((c) => c !== 'service_started');
      if (waiting) {
        throw composeError(
          `services.${name}.depends_on: ${waiting} cannot be honoured on the fleet: swarm starts every service at once and restarts the tasks that fail`,
          line(['services', name, 'depends_on']),
        );
      }
      warnings.push(
        `services.${name}.depends_on is ignored on the fleet: swarm starts every service at once.`,
      );
    }
    (service.ports ?? []).forEach((port, i) => {
      if (typeof port === 'object' && port.host_ip) {
        throw composeError(
          `services.${name}.ports: host_ip cannot be deployed to the fleet: a swarm port is published on every address of its node`,
          line(['services', name, 'ports', i]),
        );
      }
      if (typeof port === 'string' && /^(\[[^\]]+\]|\d+\.\d+\.\d+\.\d+):/.test(port)) {
        throw composeError(
          `services.${name}.ports: "${port}" names a host address, which a fleet deploy cannot honour: a swarm port is published on every address of its node`,
          line(['services', name, 'ports', i]),
        );
      }
    });
  }
}

/** Parses, interpolates and validates a compose file; every failure is a 400 naming its line. */
export function parseCompose(
  text: string,
  variables: Record<string, string> = {},
  options: PlanOptions = {},
): { file: ComposeFile; warnings: string[] } {
  const { LineCounter, parseDocument, visit } = yaml();
  const counter = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: counter,
    prettyErrors: true,
    merge: true,
    uniqueKeys: true,
  });
  const syntax = doc.errors[0];
  if (syntax) {
    const line = syntax.linePos?.[0].line ?? null;
    const column = syntax.linePos?.[0].col ?? null;
    const firstLine = syntax.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new HttpError(
      400,
      `The compose file does not parse: line ${line}, column ${column}: ${firstLine}`,
      {
        line,
        column,
      },
    );
  }

  const unset = new Set<string>();
  try {
    visit(doc, {
      Scalar(_key, node) {
        if (typeof node.value !== 'string') return;
        try {
          node.value = interpolate(node.value, variables, (name) => unset.add(name));
        } catch (err) {
          if (err instanceof InterpolationError) {
            const line = node.range ? counter.linePos(node.range[0]).line : null;
            throw composeError(`The compose file needs ${err.variable}: ${err.message}`, line, {
              variable: err.variable,
            });
          }
          throw err;
        }
      },
    });
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw composeError(`The compose file could not be read: ${(err as Error).message}`, null);
  }

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw composeError(`The compose file could not be read: ${(err as Error).message}`, null);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw composeError('The compose file must be a mapping with a services key', 1);
  }

  const result = composeSchema.safeParse(data);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => {
      const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
      return { path: path.join('.'), message: issue.message, line: lineOf(doc, counter, path) };
    });
    const first = issues[0]!;
    throw new HttpError(
      400,
      `The compose file is not valid: ${first.path ? `${first.path}: ` : ''}${first.message}${first.line ? ` (line ${first.line})` : ''}`,
      { line: first.line, issues },
    );
  }

  // Unknown service keys reach here through catchall only when they are extensions.
  for (const [name, service] of Object.entries(result.data.services)) {
    for (const key of Object.keys(service)) {
      if (!(key in serviceSchema.shape) && !key.startsWith('x-')) {
        throw composeError(
          `The compose file uses services.${name}.${key}, which the console does not deploy${key === 'build' ? ': give an image instead of build' : ''}`,
          lineOf(doc, counter, ['services', name, key]),
        );
      }
    }
  }
  for (const key of Object.keys(result.data)) {
    if (!(key in composeSchema.shape) && !key.startsWith('x-')) {
      throw composeError(
        `The compose file uses the top-level key ${key}, which the console does not deploy`,
        lineOf(doc, counter, [key]),
      );
    }
  }

  const warnings = [...unset].map(
    (name) => `The ${name} variable is not set; it stands for an empty string.`,
  );
  const line = (path: (string | number)[]) => lineOf(doc, counter, path);
  if (options.target === 'fleet') {
    fleetChecks(result.data, line, warnings);
  } else {
    for (const [name, service] of Object.entries(result.data.services)) {
      const key = FLEET_ONLY_DEPLOY_KEYS.find((k) => service.deploy?.[k] !== undefined);
      if (key) {
        throw composeError(
          `services.${name}.deploy.${key} is honoured only on the fleet (swarm services): deploy the stack to the fleet, or remove it`,
          line(['services', name, 'deploy', key]),
        );
      }
    }
  }
  return { file: result.data, warnings };
}

// ---- normalizing ------------------------------------------------------------------------------

export function parseDurationSeconds(text: string): number {
  const units: Record<string, number> = { us: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?)(us|ms|s|m|h)/g)) {
    total += Number(amount) * units[unit!]!;
  }
  return total;
}

/** Splits a command string the way compose does (POSIX shell words, no expansion). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else current += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && i + 1 < command.length && '"\\$`\n'.includes(command[i + 1]!))
        current += command[++i];
      else current += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < command.length) {
      current += command[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) throw new HttpError(400, `Unterminated quote in command: ${command}`);
  if (inWord) words.push(current);
  return words;
}

function toKeyValues(
  value: z.infer<typeof keyValues> | undefined,
  variables: Record<string, string>,
): Record<string, string> {
  if (!value) return {};
  if (Array.isArray(value)) {
    const out: Record<string, string> = {};
    for (const entry of value) {
      const eq = entry.indexOf('=');
      if (eq === -1) {
        // "KEY" alone takes the value from the deploying environment (here: the stack's variables).
        if (Object.hasOwn(variables, entry)) out[entry] = variables[entry]!;
      } else {
        out[entry.slice(0, eq)] = entry.slice(eq + 1);
      }
    }
    return out;
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null) {
      if (Object.hasOwn(variables, k)) out[k] = variables[k]!;
    } else out[k] = v;
  }
  return out;
}

function parsePort(spec: string | number | z.infer<typeof portLong>, service: string): PortBinding[] {
  if (typeof spec === 'object') {
    return [
      {
        containerPort: spec.target,
        protocol: spec.protocol ?? 'tcp',
        hostPort: spec.published === undefined ? null : String(spec.published),
        hostIp: spec.host_ip ?? null,
        ...(spec.mode ? { mode: spec.mode } : {}),
      },
    ];
  }
  const text = String(spec);
  const slash = text.lastIndexOf('/');
  const protocol = slash >= 0 ? text.slice(slash + 1) : 'tcp';
  const body = slash >= 0 ? text.slice(0, slash) : text;
  if (!['tcp', 'udp', 'sctp'].includes(protocol)) {
    throw new HttpError(400, `services.${service}.ports: unknown protocol ${protocol} in "${text}"`);
  }
  // [HOST_IP:][HOST_PORT:]CONTAINER_PORT, where HOST_IP may be an [IPv6] literal.
  const match = /^(?:(\[[^\]]+\]|[^:]+):)??(?:(\d+(?:-\d+)?)?:)?(\d+(?:-\d+)?)$/.exec(body);
  if (!match) throw new HttpError(400, `services.${service}.ports: cannot read "${text}"`);
  const [, hostIp, hostPart, containerPart] = match;
  const range = (p: string) => {
    const [a, b] = p.split('-').map(Number);
    return b === undefined ? [a!] : Array.from({ length: b - a! + 1 }, (_, i) => a! + i);
  };
  const containerPorts = range(containerPart!);
  const hostPorts = hostPart ? range(hostPart) : null;
  if (hostPorts && hostPorts.length !== containerPorts.length) {
    throw new HttpError(400, `services.${service}.ports: "${text}" maps ranges of different lengths`);
  }
  for (const p of [...containerPorts, ...(hostPorts ?? [])]) {
    if (p < 0 || p > 65535 || (p === 0 && containerPorts.includes(p))) {
      throw new HttpError(400, `services.${service}.ports: ${p} is not a port in "${text}"`);
    }
  }
  return containerPorts.map((containerPort, i) => ({
    containerPort,
    protocol,
    hostPort: hostPorts ? String(hostPorts[i]) : null,
    hostIp: hostIp ? hostIp.replace(/^\[|\]$/g, '') : null,
  }));
}

function parseVolume(
  spec: string | z.infer<typeof volumeLong>,
  service: string,
  declared: Set<string>,
): VolumeMount {
  if (typeof spec === 'object') {
    if (spec.type === 'bind' && !spec.source?.startsWith('/')) {
      throw new HttpError(
        400,
        `services.${service}.volumes: a bind mount needs an absolute host path (${spec.source ?? 'none'})`,
      );
    }
    if (spec.type === 'volume' && spec.source && !declared.has(spec.source)) {
      throw new HttpError(
        400,
        `services.${service}.volumes: volume ${spec.source} is not declared under the top-level volumes`,
      );
    }
    return {
      type: spec.type === 'volume' && !spec.source ? 'anonymous' : spec.type,
      source: spec.source ?? null,
      target: spec.target,
      readOnly: spec.read_only ?? false,
    };
  }
  const parts = spec.split(':');
  if (parts.length === 1) return { type: 'anonymous', source: null, target: parts[0]!, readOnly: false };
  const [source, target, mode = 'rw'] = parts as [string, string, string?];
  if (parts.length > 3 || !target)
    throw new HttpError(400, `services.${service}.volumes: cannot read "${spec}"`);
  const readOnly = mode.split(',').includes('ro');
  if (source.startsWith('/')) return { type: 'bind', source, target, readOnly };
  if (source.startsWith('.') || source.startsWith('~')) {
    throw new HttpError(
      400,
      `services.${service}.volumes: "${spec}" is relative; the console has no project folder, so bind mounts need an absolute path`,
    );
  }
  if (!declared.has(source)) {
    throw new HttpError(
      400,
      `services.${service}.volumes: volume ${source} is not declared under the top-level volumes`,
    );
  }
  return { type: 'volume', source, target, readOnly };
}

/** Orders services so each starts after its dependencies; a cycle or unknown service is a 400. */
function startOrder(services: Record<string, { dependsOn: { service: string }[] }>): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visitService = (name: string, chain: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      throw new HttpError(400, `The compose file's depends_on has a cycle: ${[...chain, name].join(' → ')}`);
    }
    state.set(name, 'visiting');
    for (const dep of services[name]!.dependsOn) {
      if (!services[dep.service]) {
        throw new HttpError(
          400,
          `services.${name}.depends_on names ${dep.service}, which is not a service of the file`,
        );
      }
      visitService(dep.service, [...chain, name]);
    }
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of Object.keys(services)) visitService(name, []);
  return order;
}

/** Parses a compose file into what the deployer creates, in start order. */
export function planStack(
  text: string,
  variables: Record<string, string> = {},
  options: PlanOptions = {},
): StackPlan {
  const { file, warnings } = parseCompose(text, variables, options);
  const declaredVolumes = new Set(Object.keys(file.volumes ?? {}));
  const declaredNetworks = new Set(Object.keys(file.networks ?? {}));

  const plans: Record<string, ServicePlan> = {};
  for (const [name, service] of Object.entries(file.services)) {
    const toList = (v: string | string[] | undefined) =>
      v === undefined ? null : Array.isArray(v) ? v : shellWords(v);
    const restartText = service.restart ?? 'no';
    const [restartName, retries] = restartText.split(':') as [string, string?];
    const dependsOn = Array.isArray(service.depends_on)
      ? service.depends_on.map((s) => ({ service: s, condition: 'service_started' as const }))
      : Object.entries(service.depends_on ?? {}).map(([s, d]) => ({ service: s, condition: d.condition }));

    let networks: { name: string; aliases: string[] }[] = [];
    if (service.network_mode && service.networks) {
      throw new HttpError(400, `services.${name}: network_mode and networks cannot be used together`);
    }
    if (!service.network_mode) {
      const entries = Array.isArray(service.networks)
        ? service.networks.map((n) => [n, null] as const)
        : Object.entries(service.networks ?? {});
      networks = entries.map(([net, config]) => {
        if (net !== 'default' && !declaredNetworks.has(net)) {
          throw new HttpError(
            400,
            `services.${name}.networks: network ${net} is not declared under the top-level networks`,
          );
        }
        return { name: net, aliases: config?.aliases ?? [] };
      });
      if (networks.length === 0) networks = [{ name: 'default', aliases: [] }];
    }

    plans[name] = {
      name,
      image: service.image,
      containerName: service.container_name ?? null,
      command: toList(service.command),
      entrypoint: toList(service.entrypoint),
      environment: toKeyValues(service.environment, variables),
      labels: toKeyValues(service.labels, variables),
      ports: (service.ports ?? []).flatMap((p) => parsePort(p, name)),
      expose: (service.expose ?? []).map((e) => {
        const [port, protocol = 'tcp'] = String(e).split('/');
        return { port: Number(port), protocol };
      }),
      volumes: (service.volumes ?? []).map((v) => parseVolume(v, name, declaredVolumes)),
      restart: { name: restartName, maxRetries: retries ? Number(retries) : 0 },
      dependsOn,
      networks,
      networkMode: (service.network_mode as ServicePlan['networkMode']) ?? null,
      pullPolicy:
        service.pull_policy === 'always' ? 'always' : service.pull_policy === 'never' ? 'never' : 'missing',
      raw: service,
    };
    if (service.network_mode === 'host' && service.ports?.length) {
      warnings.push(
        `services.${name}: ports are ignored with network_mode: host (the service uses the host's ports).`,
      );
    }
  }

  const order = startOrder(plans);
  return {
    services: order.map((name) => plans[name]!),
    volumes: Object.entries(file.volumes ?? {}).map(([key, v]) => ({
      key,
      name: v?.name ?? null,
      external: v?.external ?? false,
      driver: v?.driver ?? null,
      labels: toKeyValues(v?.labels, variables),
    })),
    networks: Object.entries(file.networks ?? {}).map(([key, n]) => ({
      key,
      name: n?.name ?? null,
      external: n?.external ?? false,
      labels: toKeyValues(n?.labels, variables),
    })),
    warnings,
  };
}

/** The names of the ${VARIABLES} a compose file refers to (for the catalog's forms and checks). */
export function referencedVariables(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(/\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)|([A-Za-z_][A-Za-z0-9_]*))/g)) {
    const name = match[1] ?? match[2];
    if (name) names.add(name);
  }
  return [...names];
}
