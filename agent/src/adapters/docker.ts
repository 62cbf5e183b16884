import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { HttpError } from '../lib/http-error.js';
import { LogDemuxer, demuxLogs, type LogLine } from './docker-log-frames.js';

/**
 * The Docker Engine API, through dockerode. This is the only module that imports dockerode; the
 * docker feature receives a DockerAdapter in AppDeps (main.ts builds it from DOCKER_HOST), so
 * tests point it at Podman's Docker-compatible service. Every engine failure leaves here as an
 * HttpError: 404/409/400 keep the engine's own message, an unreachable engine is a 502 that names
 * the endpoint, a timeout a 504.
 */

export type { LogLine, LogStream } from './docker-log-frames.js';
/** Mirrors the Engine API's request bodies and answers; the feature builds and reads these. */
export type ContainerCreateSpec = Docker.ContainerCreateOptions;
export type EngineContainer = Docker.ContainerInfo;
export type EngineContainerInspect = Docker.ContainerInspectInfo;
export type EngineImage = Docker.ImageInfo;
export type EngineStats = Docker.ContainerStats;
/** A swarm service's spec as a stack deploy builds it (issue 24), as dockerode types it. */
export type EngineServiceSpec = Docker.ServiceSpec;

/** One event of the engine's pull progress stream (Engine API, "Create an image"). */
export interface PullEvent {
  status?: string;
  id?: string;
  progress?: string;
  progressDetail?: { current?: number; total?: number };
  error?: string;
  errorDetail?: { message?: string };
}

export interface LogOptions {
  tail?: number | 'all';
  /** Unix seconds. */
  since?: number;
  timestamps?: boolean;
}

export interface LogFollow {
  /** Emits LogLine objects; pausing it pauses the engine's socket (TCP back-pressure). */
  lines: Readable;
  close(): void;
}

export interface EngineInfo {
  version: string;
  apiVersion: string;
  os: string;
  arch: string;
  kernelVersion: string;
  /** "Docker Engine - Community", "Podman Engine"… from the version's components. */
  platform: string;
}

/**
 * The swarm's objects as the Engine API answers them (GET /nodes, /services, /tasks, /swarm, the
 * Swarm section of /info): only the fields the fleet reads, all optional as the engine may omit them.
 */
export interface EngineVersioned {
  ID: string;
  Version?: { Index?: number };
  CreatedAt?: string;
  UpdatedAt?: string;
}
export interface EngineNode extends EngineVersioned {
  Spec?: { Name?: string; Labels?: Record<string, string>; Role?: string; Availability?: string };
  Description?: {
    Hostname?: string;
    Platform?: { Architecture?: string; OS?: string };
    Resources?: { NanoCPUs?: number; MemoryBytes?: number };
    Engine?: { EngineVersion?: string; Labels?: Record<string, string> };
  };
  Status?: { State?: string; Message?: string; Addr?: string };
  ManagerStatus?: { Leader?: boolean; Reachability?: string; Addr?: string };
}
export interface EngineService extends EngineVersioned {
  Spec?: Record<string, unknown> & {
    Name?: string;
    Labels?: Record<string, string>;
    TaskTemplate?: {
      ContainerSpec?: { Image?: string; Env?: string[] } & Record<string, unknown>;
      Placement?: { Constraints?: string[] };
    } & Record<string, unknown>;
    Mode?: { Replicated?: { Replicas?: number }; Global?: Record<string, never> };
    EndpointSpec?: {
      Ports?: { PublishedPort?: number; TargetPort?: number; Protocol?: string; PublishMode?: string }[];
    };
  };
  PreviousSpec?: Record<string, unknown>;
  Endpoint?: {
    Ports?: { PublishedPort?: number; TargetPort?: number; Protocol?: string; PublishMode?: string }[];
  };
  UpdateStatus?: { State?: string; Message?: string; StartedAt?: string; CompletedAt?: string };
  /** Filled when the list is asked with `status=true`. */
  ServiceStatus?: { RunningTasks?: number; DesiredTasks?: number; CompletedTasks?: number };
}
export interface EngineTask extends EngineVersioned {
  ServiceID?: string;
  NodeID?: string;
  Slot?: number;
  DesiredState?: string;
  Spec?: { ContainerSpec?: { Image?: string } };
  Status?: {
    State?: string;
    Message?: string;
    Err?: string;
    Timestamp?: string;
    ContainerStatus?: { ContainerID?: string };
  };
}
export interface EngineSwarm extends EngineVersioned {
  Spec?: Record<string, unknown>;
  JoinTokens?: { Worker?: string; Manager?: string };
}
/** GET /info's Swarm section. */
export interface EngineSwarmInfo {
  NodeID?: string;
  NodeAddr?: string;
  LocalNodeState?: string;
  ControlAvailable?: boolean;
  Error?: string;
  RemoteManagers?: { NodeID?: string; Addr?: string }[] | null;
  Nodes?: number;
  Managers?: number;
  Cluster?: { ID?: string } | null;
}
/** One line of a service's logs: the engine's `details` name the task and node that wrote it. */
export interface ServiceLogLine extends LogLine {
  taskId: string | null;
  nodeId: string | null;
}

export interface DockerAdapter {
  /** Where the engine is, as the owner configured it (for messages). */
  readonly endpoint: string;
  ping(): Promise<void>;
  version(): Promise<EngineInfo>;
  listContainers(filters?: { label?: string[] }): Promise<EngineContainer[]>;
  inspectContainer(id: string): Promise<EngineContainerInspect>;
  startContainer(id: string): Promise<void>;
  stopContainer(id: string, timeoutSeconds?: number): Promise<void>;
  restartContainer(id: string, timeoutSeconds?: number): Promise<void>;
  removeContainer(id: string, opts?: { force?: boolean; volumes?: boolean }): Promise<void>;
  renameContainer(id: string, name: string): Promise<void>;
  createContainer(spec: ContainerCreateSpec): Promise<string>;
  connectNetwork(network: string, containerId: string, aliases: string[]): Promise<void>;
  readLogs(id: string, opts: LogOptions & { tty: boolean }): Promise<LogLine[]>;
  followLogs(id: string, opts: LogOptions & { tty: boolean }): Promise<LogFollow>;
  /** One reading of the engine's stats (Docker fills precpu_stats in it; Podman leaves it empty). */
  statsSample(id: string): Promise<EngineStats>;
  listImages(): Promise<EngineImage[]>;
  removeImage(id: string, opts?: { force?: boolean }): Promise<void>;
  imageExists(ref: string): Promise<boolean>;
  /**
   * An image's id, the digests it was pulled with and its config (the defaults a container inherits);
   * null when the engine has no such image. `withHealthcheck` fills the config's Healthcheck where
   * the engine leaves it out (Podman's compat inspect does; its libpod inspect has it).
   */
  inspectImage(
    ref: string,
    opts?: { withHealthcheck?: boolean },
  ): Promise<{ id: string; repoDigests: string[]; config: Record<string, unknown> } | null>;
  /**
   * The registry's current manifest digest for a reference, asked by the engine without pulling
   * (`GET /distribution/{name}/json`); null when the engine does not implement it (Podman 4).
   */
  distributionDigest(ref: string): Promise<string | null>;
  /**
   * Runs a container's healthcheck now and answers its status. Podman runs healthchecks from
   * systemd timers, so without systemd they never run by themselves; its libpod API runs one on
   * demand. Null when the engine has no such call (Docker, whose daemon runs them itself).
   */
  runHealthcheck(id: string): Promise<string | null>;
  /** Pulls an image, reporting the engine's progress events; rejects with the engine's own error. */
  pullImage(ref: string, onEvent: (event: PullEvent) => void, signal?: AbortSignal): Promise<void>;
  listNetworks(filters: { label: string[] }): Promise<{ id: string; name: string }[]>;
  /** A bridge network unless told otherwise (the fleet's stacks make overlay networks). */
  createNetwork(
    name: string,
    labels: Record<string, string>,
    options?: { driver?: string; attachable?: boolean },
  ): Promise<void>;
  removeNetwork(name: string): Promise<void>;
  listVolumes(filters: { label: string[] }): Promise<{ name: string }[]>;
  volumeExists(name: string): Promise<boolean>;
  createVolume(name: string, labels: Record<string, string>): Promise<void>;
  removeVolume(name: string): Promise<void>;
  /**
   * The engine's event stream (GET /events) for these types, one parsed event object per item;
   * it ends (or errors) when the engine goes away. Optional so stand-ins need not stream.
   */
  streamEvents?(types: string[], signal: AbortSignal): Promise<Readable>;

  // ---- Swarm mode (the fleet, issue 24). A call that needs a swarm (or a manager) on an engine
  // outside one (or on a worker) is a 409 carrying the engine's own words.
  /** GET /info's Swarm section. */
  swarmInfo(): Promise<EngineSwarmInfo>;
  /** GET /swarm (managers only): the cluster's spec, version and join tokens. */
  swarmInspect(): Promise<EngineSwarm>;
  /** Answers the new node's id. */
  swarmInit(opts: { advertiseAddr: string; listenAddr: string }): Promise<string>;
  swarmJoin(opts: {
    remoteAddr: string;
    joinToken: string;
    advertiseAddr?: string;
    listenAddr: string;
  }): Promise<void>;
  swarmLeave(force: boolean): Promise<void>;
  /** POST /swarm/update with the spec unchanged, rotating a join token. */
  swarmRotateToken(role: 'worker' | 'manager'): Promise<void>;
  listNodes(): Promise<EngineNode[]>;
  inspectNode(id: string): Promise<EngineNode>;
  /** POST /nodes/{id}/update at `version` (the engine refuses a stale one: a conflict). */
  updateNode(id: string, version: number, spec: NonNullable<EngineNode['Spec']>): Promise<void>;
  /** GET /services with the engine's filters; `status` fills ServiceStatus (running/desired tasks). */
  listServices(filters?: { label?: string[]; name?: string[] }): Promise<EngineService[]>;
  inspectService(id: string): Promise<EngineService>;
  /** POST /services/{id}/update at `version`; `rollback: 'previous'` is the engine's own rollback. */
  updateService(
    id: string,
    version: number,
    spec: NonNullable<EngineService['Spec']> | EngineServiceSpec,
    opts?: { rollback?: 'previous' },
  ): Promise<{ warnings: string[] }>;
  listTasks(filters?: { service?: string[]; 'desired-state'?: string[] }): Promise<EngineTask[]>;
  /** A service's logs from all its tasks (GET /services/{id}/logs with details). */
  readServiceLogs(id: string, opts: LogOptions): Promise<ServiceLogLine[]>;
  /** `Swarm.LocalNodeState` from GET /info, and whether this node is a manager (`ControlAvailable`). */
  swarmMembership(): Promise<{ state: string; manager: boolean }>;
  /** Answers the new service's id. */
  createService(spec: EngineServiceSpec): Promise<string>;
  removeService(id: string): Promise<void>;
}

/**
 * Ordinary calls: the longest the engine may stay silent on the socket before the call is a 504.
 * Stop, restart and remove get a deadline from the container's own stop timeout instead.
 */
const REQUEST_TIMEOUT_MS = 120_000;
/**
 * An engine that does not accept the connection within this is reported unreachable. This bounds
 * the connect alone (docker-modem's `connectionTimeout` runs until the answer's headers arrive, so a
 * stop that took longer than it was reported as an unreachable engine although it succeeded).
 */
const CONNECT_TIMEOUT_MS = 5_000;
/** The engine's own default for a container without a stop timeout of its own. */
const ENGINE_DEFAULT_STOP_SECONDS = 10;
/** What a stop may take beyond the stop timeout: the kill, the engine's cleanup, a busy machine. */
const STOP_MARGIN_MS = 30_000;
/** Reachability checks (the engine screen, preflights) answer quickly or say the engine is down. */
const PING_TIMEOUT_MS = 5_000;
const CONNECT_TIMEOUT_CODE = 'ENGINE_CONNECT_TIMEOUT';
const DEFAULT_SOCKET = '/var/run/docker.sock';

/** dockerode's own DOCKER_HOST convention: unix:///path.sock, tcp://host:port, http(s)://host:port. */
export function dockerConnection(dockerHost: string | undefined): {
  endpoint: string;
  options: Docker.DockerOptions;
} {
  if (!dockerHost) return { endpoint: `unix://${DEFAULT_SOCKET}`, options: { socketPath: DEFAULT_SOCKET } };
  if (dockerHost.startsWith('unix://')) {
    const socketPath = dockerHost.slice('unix://'.length) || DEFAULT_SOCKET;
    // host: undefined overrides whatever dockerode's modem derives from the process environment.
    return { endpoint: `unix://${socketPath}`, options: { socketPath, host: undefined } };
  }
  const url = new URL(dockerHost.includes('://') ? dockerHost : `tcp://${dockerHost}`);
  const protocol = url.protocol === 'https:' || url.port === '2376' ? 'https' : 'http';
  return {
    endpoint: dockerHost,
    options: { host: url.hostname, port: url.port || (protocol === 'https' ? 2376 : 2375), protocol },
  };
}

interface EngineErrorShape {
  statusCode?: number;
  code?: string;
  message?: string;
  json?: { message?: string } | null;
  reason?: string;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'EACCES',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  CONNECT_TIMEOUT_CODE,
]);

export function engineUnreachable(endpoint: string, cause?: string): HttpError {
  return new HttpError(502, `Docker engine not reachable at ${endpoint}`, cause ? { cause } : undefined);
}

/** The engine's own words: its JSON `message`, else dockerode's text without the "(HTTP code …)" prefix. */
function engineMessage(err: EngineErrorShape): string {
  const fromJson = err.json && typeof err.json === 'object' ? err.json.message : undefined;
  if (fromJson) return fromJson;
  return (err.message ?? 'unknown engine error').replace(/^\(HTTP code \d+\)\s*[^-]*-\s*/, '').trim();
}

export function toHttpError(err: unknown, endpoint: string): HttpError {
  if (err instanceof HttpError) return err;
  const e = (err ?? {}) as EngineErrorShape;
  if (e.code && UNREACHABLE_CODES.has(e.code)) return engineUnreachable(endpoint, e.code);
  if (e.code === 'ETIMEDOUT' || e.code === 'ESOCKETTIMEDOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new HttpError(504, `Docker engine at ${endpoint} did not answer in time`);
  }
  if (e.statusCode === 404) return new HttpError(404, engineMessage(e));
  if (e.statusCode === 409) return new HttpError(409, engineMessage(e));
  // Podman answers 500 where Docker documents 409 (a name in use); the owner should see a conflict.
  if (e.statusCode === 500 && /already in use|already exists/i.test(engineMessage(e))) {
    return new HttpError(409, engineMessage(e));
  }
  if (e.statusCode === 400) return new HttpError(400, engineMessage(e));
  if (e.statusCode) return new HttpError(502, `Docker engine error: ${engineMessage(e)}`);
  // A socket that was destroyed mid-request (our timeout) has no status and no code we know.
  if (/socket hang up|aborted|timeout/i.test(e.message ?? '')) {
    return new HttpError(504, `Docker engine at ${endpoint} did not answer in time`);
  }
  return engineUnreachable(endpoint, e.message);
}

/**
 * An HTTP agent whose sockets fail with CONNECT_TIMEOUT_CODE when the connection is not established
 * in time; once connected, only the call's own timeout applies. Serves unix sockets and TCP alike.
 */
function connectTimeoutAgent(protocol: 'http' | 'https', timeoutMs: number): http.Agent {
  // keepAlive as Node's global agent, which dockerode used before: one connection serves many calls.
  const agent =
    protocol === 'https' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const createConnection = agent.createConnection.bind(agent);
  agent.createConnection = (options, callback) => {
    const socket = createConnection(options, callback) as net.Socket | null | undefined;
    if (!socket || !socket.connecting) return socket;
    const timer = setTimeout(() => {
      const err = Object.assign(new Error(`no connection within ${timeoutMs} ms`), {
        code: CONNECT_TIMEOUT_CODE,
      });
      socket.destroy(err);
    }, timeoutMs);
    socket.once('connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
    return socket;
  };
  return agent;
}

/**
 * dockerode's ping and version take options (abortSignal among them) although its type
 * declarations omit them.
 */
const quick = (docker: Docker) =>
  docker as unknown as {
    ping(opts: { abortSignal: AbortSignal }): Promise<unknown>;
    version(opts: {
      abortSignal: AbortSignal;
    }): Promise<Docker.DockerVersion & { Platform?: { Name?: string }; Components?: { Name: string }[] }>;
  };

/** Engine "not modified" (304): starting a running container or stopping a stopped one is not an error. */
const isNotModified = (err: unknown) => (err as EngineErrorShape)?.statusCode === 304;

/**
 * Swarm calls refused for the swarm's state (503 "not part of a swarm", "not a swarm manager",
 * "already part of a swarm", a manager leaving without force; 406 from older engines) and a
 * stale object version (500 "update out of sequence") are conflicts, with the engine's words.
 */
export function swarmHttpError(err: unknown, endpoint: string): HttpError {
  const e = (err ?? {}) as EngineErrorShape;
  if (e.statusCode === 503 || e.statusCode === 406) return new HttpError(409, engineMessage(e));
  if (e.statusCode === 500 && /out of sequence/i.test(engineMessage(e))) {
    return new HttpError(409, engineMessage(e));
  }
  return toHttpError(err, endpoint);
}

/** The engine's `details` of a service log line: `com.docker.swarm.node.id=…,…task.id=… text`. */
const LOG_DETAILS = /^((?:[A-Za-z0-9_.-]+=[^,\s]*)(?:,[A-Za-z0-9_.-]+=[^,\s]*)*) ?/;

export function splitLogDetails(line: LogLine): ServiceLogLine {
  const match = LOG_DETAILS.exec(line.text);
  if (!match) return { ...line, taskId: null, nodeId: null };
  const attrs = new Map(
    match[1]!.split(',').map((pair) => {
      const eq = pair.indexOf('=');
      return [pair.slice(0, eq), pair.slice(eq + 1)] as const;
    }),
  );
  return {
    ...line,
    text: line.text.slice(match[0].length),
    taskId: attrs.get('com.docker.swarm.task.id') ?? null,
    nodeId: attrs.get('com.docker.swarm.node.id') ?? null,
  };
}

export function createDockerAdapter(dockerHost: string | undefined): DockerAdapter {
  const { endpoint, options } = dockerConnection(dockerHost);
  // dockerode and its gRPC/protobuf dependencies are about 29 MB of memory: loaded on the first
  // engine call, so a hub whose owner never opens the container screens does not carry them.
  let loaded: Promise<{ docker: Docker; streaming: Docker }> | null = null;
  const clients = () =>
    (loaded ??= import('dockerode').then(({ default: Dockerode }) => {
      const agent = connectTimeoutAgent(options.protocol === 'https' ? 'https' : 'http', CONNECT_TIMEOUT_MS);
      return {
        docker: new Dockerode({ ...options, agent, timeout: REQUEST_TIMEOUT_MS } as Docker.DockerOptions),
        // Log following, stats, pulls and stops are long: no idle timeout (stops carry a deadline).
        streaming: new Dockerode({ ...options, agent } as Docker.DockerOptions),
      };
    }));

  /**
   * The background's engine calls (the alerts' event stream and its reconcile, the update check's
   * list, reachability) go over node:http with no dockerode: a hub whose owner does not open the
   * container screens never loads it. Over a unix socket or plain TCP; a TLS engine (whose client
   * certificates docker-modem finds) goes through dockerode.
   */
  const direct = options.protocol !== 'https';
  let directAgent: http.Agent | null = null;
  function engineGet(
    pathAndQuery: string,
    opts: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<http.IncomingMessage> {
    directAgent ??= connectTimeoutAgent('http', CONNECT_TIMEOUT_MS);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          ...(options.socketPath
            ? { socketPath: options.socketPath }
            : { host: options.host, port: options.port }),
          // The engine ignores the Host header on its socket; docker-modem sends this one.
          headers: { host: 'localhost' },
          path: pathAndQuery,
          method: 'GET',
          agent: directAgent!,
          signal: opts.signal,
        },
        (res) => {
          if ((res.statusCode ?? 0) < 400) return resolve(res);
          // An error answer in dockerode's shape, for toHttpError: the status and the engine's JSON.
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: { message?: string } | null = null;
            try {
              json = JSON.parse(text) as { message?: string };
            } catch {
              // not JSON: the text is the message
            }
            reject(
              Object.assign(new Error(json?.message ?? (text.trim() || `HTTP ${res.statusCode}`)), {
                statusCode: res.statusCode,
                json,
              }),
            );
          });
        },
      );
      if (opts.timeoutMs) {
        req.setTimeout(opts.timeoutMs, () =>
          req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
        );
      }
      req.on('error', reject);
      req.end();
    });
  }
  async function engineJson<T>(
    pathAndQuery: string,
    opts: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<T> {
    try {
      const res = await engineGet(pathAndQuery, { timeoutMs: REQUEST_TIMEOUT_MS, ...opts });
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
    } catch (err) {
      throw toHttpError(err, endpoint);
    }
  }

  async function call<T>(fn: (engine: { docker: Docker; streaming: Docker }) => Promise<T>): Promise<T> {
    try {
      return await fn(await clients());
    } catch (err) {
      throw toHttpError(err, endpoint);
    }
  }

  async function swarm<T>(fn: (engine: { docker: Docker; streaming: Docker }) => Promise<T>): Promise<T> {
    try {
      return await fn(await clients());
    } catch (err) {
      throw swarmHttpError(err, endpoint);
    }
  }

  /**
   * How long a stop (or a restart, or a forced remove, which Podman does as a stop) may take: the
   * stop timeout the call names, else the container's own (what the engine will wait), plus a margin.
   */
  async function stopDeadline(c: { docker: Docker }, id: string, t: number | undefined) {
    let seconds = t;
    if (seconds === undefined) {
      const info = (await c.docker.getContainer(id).inspect()) as EngineContainerInspect & {
        Config?: { StopTimeout?: number };
      };
      seconds = info.Config?.StopTimeout ?? ENGINE_DEFAULT_STOP_SECONDS;
    }
    return AbortSignal.timeout(seconds * 1000 + STOP_MARGIN_MS);
  }

  function logParams(opts: LogOptions) {
    return {
      stdout: true,
      stderr: true,
      // Omitting tail means all lines.
      ...(typeof opts.tail === 'number' ? { tail: opts.tail } : {}),
      since: opts.since ?? 0,
      timestamps: opts.timestamps ?? false,
    };
  }

  return {
    endpoint,

    ping: () =>
      direct
        ? engineGet('/_ping', { signal: AbortSignal.timeout(PING_TIMEOUT_MS) }).then(
            (res) => void res.resume(),
            (err: unknown) => {
              throw toHttpError(err, endpoint);
            },
          )
        : call(async (c) => {
            await quick(c.docker).ping({ abortSignal: AbortSignal.timeout(PING_TIMEOUT_MS) });
          }),

    version: async () => {
      const signal = AbortSignal.timeout(PING_TIMEOUT_MS);
      const v = direct
        ? await engineJson<Awaited<ReturnType<ReturnType<typeof quick>['version']>>>('/version', { signal })
        : await call((c) => quick(c.docker).version({ abortSignal: signal }));
      return {
        version: v.Version,
        apiVersion: v.ApiVersion,
        os: v.Os,
        arch: v.Arch,
        kernelVersion: v.KernelVersion,
        platform: v.Components?.[0]?.Name ?? v.Platform?.Name ?? 'Docker Engine',
      };
    },

    listContainers: (filters) =>
      direct
        ? engineJson<EngineContainer[]>(
            `/containers/json?all=1${
              filters?.label ? `&filters=${encodeURIComponent(JSON.stringify({ label: filters.label }))}` : ''
            }`,
          )
        : call((c) =>
            // An undefined filters key would be sent as an empty string, which Podman refuses.
            c.docker.listContainers(
              filters?.label ? { all: true, filters: { label: filters.label } } : { all: true },
            ),
          ),

    inspectContainer: (id) => call((c) => c.docker.getContainer(id).inspect()),

    startContainer: (id) =>
      call(async (c) => {
        try {
          await c.docker.getContainer(id).start();
        } catch (err) {
          if (!isNotModified(err)) throw err;
        }
      }),

    stopContainer: (id, t) =>
      call(async (c) => {
        try {
          const abortSignal = await stopDeadline(c, id, t);
          await c.streaming.getContainer(id).stop(t === undefined ? { abortSignal } : { t, abortSignal });
        } catch (err) {
          if (!isNotModified(err)) throw err;
        }
      }),

    restartContainer: (id, t) =>
      call(async (c) => {
        const abortSignal = await stopDeadline(c, id, t);
        await c.streaming.getContainer(id).restart(t === undefined ? { abortSignal } : { t, abortSignal });
      }),

    removeContainer: (id, opts) =>
      call(async (c) => {
        const force = opts?.force ?? false;
        // A forced remove of a running container stops it first on Podman, with its stop timeout.
        const abortSignal = force
          ? await stopDeadline(c, id, undefined)
          : AbortSignal.timeout(REQUEST_TIMEOUT_MS);
        await c.streaming.getContainer(id).remove({ force, v: opts?.volumes ?? false, abortSignal });
      }),

    renameContainer: (id, name) =>
      call(async (c) => {
        await c.docker.getContainer(id).rename({ name });
      }),

    createContainer: (spec) => call(async (c) => (await c.docker.createContainer(spec)).id),

    connectNetwork: (network, containerId, aliases) =>
      call(async (c) => {
        await c.docker
          .getNetwork(network)
          .connect({ Container: containerId, EndpointConfig: { Aliases: aliases } });
      }),

    readLogs: (id, opts) =>
      call(async (c) => {
        const raw = await c.docker.getContainer(id).logs({ ...logParams(opts), follow: false });
        // dockerode answers a Buffer; some engines answer text that it decodes to a string.
        const buffer = Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw), 'utf8');
        return demuxLogs(buffer, { tty: opts.tty, timestamps: opts.timestamps });
      }),

    followLogs: (id, opts) =>
      call(async (c) => {
        const source = (await c.streaming
          .getContainer(id)
          .logs({ ...logParams(opts), follow: true })) as Readable;
        const demuxer = new LogDemuxer({ tty: opts.tty, timestamps: opts.timestamps });
        const lines = new Readable({
          objectMode: true,
          // Bounded: when the consumer stops reading, the engine socket is paused instead of buffering.
          highWaterMark: 1024,
          read() {
            source.resume();
          },
          destroy(err, cb) {
            source.destroy();
            cb(err);
          },
        });
        source.on('data', (chunk: Buffer) => {
          let wantsMore = true;
          for (const line of demuxer.push(chunk)) wantsMore = lines.push(line);
          if (!wantsMore) source.pause();
        });
        source.on('end', () => {
          for (const line of demuxer.end()) lines.push(line);
          lines.push(null);
        });
        source.on('error', (err) => lines.destroy(toHttpError(err, endpoint)));
        return { lines, close: () => lines.destroy() };
      }),

    statsSample: (id) =>
      call(async (c) => (await c.docker.getContainer(id).stats({ stream: false })) as EngineStats),

    listImages: () => call((c) => c.docker.listImages({ all: false })),

    removeImage: (id, opts) =>
      call(async (c) => {
        await c.docker.getImage(id).remove({ force: opts?.force ?? false });
      }),

    imageExists: (ref) =>
      call(async (c) => {
        try {
          await c.docker.getImage(ref).inspect();
          return true;
        } catch (err) {
          if ((err as EngineErrorShape).statusCode === 404) return false;
          throw err;
        }
      }),

    inspectImage: (ref, opts) =>
      call(async (c) => {
        let info: Docker.ImageInspectInfo;
        try {
          info = await c.docker.getImage(ref).inspect();
        } catch (err) {
          if ((err as EngineErrorShape).statusCode === 404) return null;
          throw err;
        }
        const config = { ...(info.Config ?? {}) } as unknown as Record<string, unknown>;
        if (opts?.withHealthcheck && !('Healthcheck' in config)) {
          // Libpod paths need a version prefix (Podman answers 404 without one); 4.0.0 is its API's base.
          const libpod = await new Promise<{ Healthcheck?: unknown } | null>((resolve) => {
            c.docker.modem.dial(
              {
                path: `/v4.0.0/libpod/images/${encodeURIComponent(info.Id)}/json?`,
                method: 'GET',
                options: {},
                statusCodes: { 200: true },
              },
              // Docker has no libpod path (404): its compat answer already held what there is.
              (err: unknown, data: unknown) => resolve(err ? null : (data as { Healthcheck?: unknown })),
            );
          });
          if (libpod?.Healthcheck) config.Healthcheck = libpod.Healthcheck;
        }
        return { id: info.Id, repoDigests: info.RepoDigests ?? [], config };
      }),

    distributionDigest: (ref) =>
      call(async (c) => {
        try {
          const info = (await c.docker.getImage(ref).distribution()) as { Descriptor?: { digest?: string } };
          return info.Descriptor?.digest ?? null;
        } catch (err) {
          const e = err as EngineErrorShape;
          // An engine without the endpoint answers a bare 404 (no JSON message); a missing manifest
          // answers an engine message, which is the owner's reason.
          if (e.statusCode === 404 && !e.json?.message) return null;
          throw err;
        }
      }),

    runHealthcheck: (id) =>
      call(
        (c) =>
          new Promise<string | null>((resolve) => {
            c.docker.modem.dial(
              {
                path: `/v4.0.0/libpod/containers/${encodeURIComponent(id)}/healthcheck?`,
                method: 'GET',
                options: {},
                statusCodes: { 200: true },
              },
              // Any refusal (Docker's 404 for a libpod path, no healthcheck, a stopped container)
              // means "no answer here": the caller goes on reading the inspected state.
              (err: unknown, data: unknown) => {
                const status = (data as { Status?: unknown } | null)?.Status;
                resolve(!err && typeof status === 'string' ? status.toLowerCase() : null);
              },
            );
          }),
      ),

    pullImage: (ref, onEvent, signal) =>
      call(
        (c) =>
          new Promise<void>((resolve, reject) => {
            c.streaming.pull(ref, { abortSignal: signal }, (err, stream) => {
              if (err || !stream) return reject(err ?? new Error('no pull stream'));
              let engineError: string | null = null;
              c.streaming.modem.followProgress(
                stream,
                (doneErr: unknown) => {
                  if (doneErr) return reject(doneErr);
                  // The engine reports a failed pull inside a 200 stream, as an event with errorDetail.
                  if (engineError) return reject(new HttpError(502, engineError));
                  resolve();
                },
                (event: PullEvent) => {
                  if (event.error || event.errorDetail?.message) {
                    engineError = event.errorDetail?.message ?? event.error ?? 'pull failed';
                  }
                  onEvent(event);
                },
              );
            });
          }),
      ),

    listNetworks: (filters) =>
      call(async (c) =>
        (await c.docker.listNetworks({ filters: { label: filters.label } })).map((n) => ({
          id: n.Id,
          name: n.Name,
        })),
      ),

    createNetwork: (name, labels, options) =>
      call(async (c) => {
        await c.docker.createNetwork({
          Name: name,
          Labels: labels,
          Driver: options?.driver ?? 'bridge',
          CheckDuplicate: true,
          ...(options?.attachable !== undefined ? { Attachable: options.attachable } : {}),
        });
      }),

    removeNetwork: (name) =>
      call(async (c) => {
        await c.docker.getNetwork(name).remove();
      }),

    listVolumes: (filters) =>
      call(async (c) =>
        ((await c.docker.listVolumes({ filters: { label: filters.label } })).Volumes ?? []).map((v) => ({
          name: v.Name,
        })),
      ),

    volumeExists: (name) =>
      call(async (c) => {
        try {
          await c.docker.getVolume(name).inspect();
          return true;
        } catch (err) {
          if ((err as EngineErrorShape).statusCode === 404) return false;
          throw err;
        }
      }),

    createVolume: (name, labels) =>
      call(async (c) => {
        await c.docker.createVolume({ Name: name, Labels: labels });
      }),

    removeVolume: (name) =>
      call(async (c) => {
        await c.docker.getVolume(name).remove();
      }),

    streamEvents: (types, signal) =>
      (async () => {
        const filters = { type: types };
        let source: Readable;
        try {
          source = direct
            ? await engineGet(`/events?filters=${encodeURIComponent(JSON.stringify(filters))}`, { signal })
            : ((await (
                await clients()
              ).streaming.getEvents({
                filters,
                abortSignal: signal,
              } as Docker.GetEventsOptions)) as Readable);
        } catch (err) {
          throw toHttpError(err, endpoint);
        }
        // The engine writes one JSON object per line (Engine API, "Monitor events").
        let rest = '';
        const events = new Readable({
          objectMode: true,
          highWaterMark: 1024,
          read() {
            source.resume();
          },
          destroy(err, cb) {
            source.destroy();
            cb(err);
          },
        });
        source.on('data', (chunk: Buffer) => {
          const lines = (rest + chunk.toString('utf8')).split('\n');
          rest = lines.pop() ?? '';
          let wantsMore = true;
          for (const line of lines) {
            if (!line.trim()) continue;
            try {
              wantsMore = events.push(JSON.parse(line));
            } catch {
              // A line that is not JSON is not an event; the next one may be.
            }
          }
          if (!wantsMore) source.pause();
        });
        source.on('end', () => events.push(null));
        source.on('error', (err) => events.destroy(toHttpError(err, endpoint)));
        return events;
      })(),

    swarmInfo: () => call(async (c) => ((await c.docker.info()) as { Swarm?: EngineSwarmInfo }).Swarm ?? {}),

    swarmInspect: () => swarm((c) => c.docker.swarmInspect() as Promise<EngineSwarm>),

    swarmInit: (opts) =>
      swarm(async (c) => {
        const id = (await c.docker.swarmInit({
          AdvertiseAddr: opts.advertiseAddr,
          ListenAddr: opts.listenAddr,
        })) as unknown;
        return typeof id === 'string' ? id : String(id ?? '');
      }),

    swarmJoin: (opts) =>
      swarm(async (c) => {
        await c.docker.swarmJoin({
          RemoteAddrs: [opts.remoteAddr],
          JoinToken: opts.joinToken,
          ListenAddr: opts.listenAddr,
          ...(opts.advertiseAddr ? { AdvertiseAddr: opts.advertiseAddr } : {}),
        });
      }),

    swarmLeave: (force) =>
      swarm(async (c) => {
        await c.docker.swarmLeave({ force });
      }),

    swarmRotateToken: (role) =>
      swarm(async (c) => {
        const current = (await c.docker.swarmInspect()) as EngineSwarm;
        await c.docker.swarmUpdate({
          _query: {
            version: current.Version?.Index ?? 0,
            ...(role === 'worker' ? { rotateWorkerToken: true } : { rotateManagerToken: true }),
          },
          _body: current.Spec ?? {},
        });
      }),

    listNodes: () => swarm((c) => c.docker.listNodes() as Promise<EngineNode[]>),

    inspectNode: (id) => swarm((c) => c.docker.getNode(id).inspect() as Promise<EngineNode>),

    updateNode: (id, version, spec) =>
      swarm(async (c) => {
        await c.docker.getNode(id).update({ _query: { version }, _body: spec });
      }),

    listServices: (filters) =>
      swarm(
        async (c) =>
          (await c.docker.listServices({
            status: true,
            ...(filters ? { filters } : {}),
          })) as unknown as EngineService[],
      ),

    inspectService: (id) => swarm((c) => c.docker.getService(id).inspect() as Promise<EngineService>),

    updateService: (id, version, spec, opts) =>
      swarm(async (c) => {
        // The version goes in the query, the spec is the body (Engine API, "Update a service").
        const answer = (await c.docker.getService(id).update({
          _query: { version, ...(opts?.rollback ? { rollback: opts.rollback } : {}) },
          _body: spec,
        } as unknown as object)) as { Warnings?: string[] | null } | null;
        return { warnings: answer?.Warnings ?? [] };
      }),

    listTasks: (filters) =>
      swarm(
        (c) =>
          c.docker.listTasks(filters && Object.keys(filters).length ? { filters } : {}) as Promise<
            EngineTask[]
          >,
      ),

    readServiceLogs: (id, opts) =>
      swarm(async (c) => {
        const service = c.docker.getService(id);
        const spec = ((await service.inspect()) as EngineService).Spec;
        const tty = spec?.TaskTemplate?.ContainerSpec?.['TTY'] === true;
        const raw = (await service.logs({ ...logParams(opts), details: true, follow: false })) as unknown;
        const buffer = Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw), 'utf8');
        return demuxLogs(buffer, { tty, timestamps: opts.timestamps }).map(splitLogDetails);
      }),

    // ---- swarm services (fleet stacks, issue 24) ----
    swarmMembership: () =>
      call(async (c) => {
        const info = (await c.docker.info()) as {
          Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean };
        };
        return {
          state: info.Swarm?.LocalNodeState || 'inactive',
          manager: info.Swarm?.ControlAvailable ?? false,
        };
      }),

    createService: (spec) =>
      swarm(async (c) => {
        const created = (await c.docker.createService(spec)) as unknown as { ID?: string; id?: string };
        return created.ID ?? created.id ?? '';
      }),

    removeService: (id) =>
      swarm(async (c) => {
        await c.docker.getService(id).remove();
      }),
    // ---- end of swarm services ----
  };
}
