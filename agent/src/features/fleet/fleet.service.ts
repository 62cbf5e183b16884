import type { DockerAdapter, EngineNode } from '../../adapters/docker.js';
import type {
  FleetJoinTokens,
  FleetLogs,
  FleetNode,
  FleetNodeNexus,
  FleetNodeUpdate,
  FleetService,
  FleetStatus,
  SwarmRole,
} from '../../contract/fleet.js';
import type { PeerStatus } from '../../contract/nexus-management.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { AuditRecorder } from '../audit/index.js';
import { toFleetNode, toFleetServices, toFleetStatus } from './fleet-map.js';

/** What the peer monitor (nexus-management) last heard from another hub: read, never asked now. */
export interface FleetPeerReading {
  url: string;
  remote: PeerStatus | null;
  checkedAt: string | null;
}

export interface FleetServiceDeps {
  engine: DockerAdapter;
  audit: AuditRecorder;
  log: Logger;
  /** The latest readings of the paired hubs; must answer at once (no network). */
  peers?: () => FleetPeerReading[];
  /** This hub's own board and figures, for its own node (read locally, in the peer's shape). */
  self?: () => Promise<Omit<FleetPeerReading, 'url'> | null>;
}

/** The engine's default swarm port, which `docker swarm join` also assumes. */
const SWARM_PORT = 2377;
/** This hub's own reading is local, but a stuck sampler must not hold the node list. */
const SELF_READING_TIMEOUT_MS = 500;

export const NOT_IN_FLEET = 'This hub is not in a fleet';
const WORKER_MESSAGE =
  'This hub is a worker in the fleet: only a manager can see or change the fleet. Open the console of a manager hub';

/** Adds the swarm port to an address given without one (IPv6 in brackets keeps its colons). */
export function withSwarmPort(addr: string): string {
  if (/^\[.*\]:\d+$/.test(addr) || /^[^:]+:\d+$/.test(addr)) return addr;
  if (addr.includes(':') && !addr.startsWith('[')) return `[${addr}]:${SWARM_PORT}`;
  return `${addr}:${SWARM_PORT}`;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return null;
  }
};

export function peerToNexus(reading: Omit<FleetPeerReading, 'url'>): FleetNodeNexus | null {
  const remote = reading.remote;
  if (!remote) return null;
  const celsius = remote.status.cpuTemperature;
  return {
    name: remote.hubName,
    jetsonModel: remote.jetsonModel ?? null,
    temperatures: celsius === null ? [] : [{ zone: 'cpu', celsius }],
    cpuPercent: remote.status.systemLoad,
    memoryPercent: remote.status.memoryUsage,
    readAt: reading.checkedAt,
  };
}

/** The paired hub a node is: by the address the swarm knows it at, else by hostname. */
export function matchPeer(node: EngineNode, readings: FleetPeerReading[]): FleetPeerReading | null {
  const addr = node.Status?.Addr?.toLowerCase();
  const hostname = node.Description?.Hostname?.toLowerCase();
  return (
    readings.find((r) => r.remote && addr && hostOf(r.url) === addr) ??
    readings.find((r) => r.remote && hostname && r.remote.hostname.toLowerCase() === hostname) ??
    null
  );
}

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

export function createFleetService(deps: FleetServiceDeps) {
  const { engine, audit } = deps;
  const log = deps.log.child({ feature: 'fleet' });

  const status = async (): Promise<FleetStatus> => toFleetStatus(await engine.swarmInfo());

  /**
   * The engine's refusal for the swarm's state (a 409 from the adapter), in words for the owner,
   * the engine's own in details. Other errors pass unchanged.
   */
  function explain(error: unknown, words?: (engine: string) => string | null): never {
    if (error instanceof HttpError && error.status === 409) {
      const engineMessage = error.message;
      let message = words?.(engineMessage) ?? null;
      if (!message) {
        if (/not part of a swarm/i.test(engineMessage)) message = NOT_IN_FLEET;
        else if (/not a swarm manager/i.test(engineMessage)) message = WORKER_MESSAGE;
        else if (/out of sequence/i.test(engineMessage))
          message = 'It changed while you were editing it: load it again and retry';
        else message = engineMessage;
      }
      throw new HttpError(409, message, {
        engine: engineMessage,
        ...(/out of sequence/i.test(engineMessage) ? { retry: true } : {}),
      });
    }
    throw error;
  }

  async function guarded<T>(run: () => Promise<T>, words?: (engine: string) => string | null): Promise<T> {
    try {
      return await run();
    } catch (error) {
      explain(error, words);
    }
  }

  /** Manager-only reads and changes: clear words before the engine's, without a second round trip after. */
  async function requireManager(): Promise<FleetStatus> {
    const s = await status();
    if (s.state !== 'active') {
      throw new HttpError(409, NOT_IN_FLEET, { state: s.state, ...(s.error ? { engine: s.error } : {}) });
    }
    if (!s.canManage) throw new HttpError(409, WORKER_MESSAGE, { state: s.state, role: s.role });
    return s;
  }

  async function nodeNexus(nodes: EngineNode[], selfId: string | null) {
    const readings = deps.peers?.() ?? [];
    const self = deps.self ? await withTimeout(deps.self(), SELF_READING_TIMEOUT_MS, null) : null;
    return (node: EngineNode): FleetNodeNexus | null => {
      if (node.ID === selfId && self) return peerToNexus(self);
      const reading = matchPeer(node, readings);
      return reading ? peerToNexus(reading) : null;
    };
  }

  async function readNodes(): Promise<FleetNode[]> {
    const [info, nodes] = await Promise.all([engine.swarmInfo(), guarded(() => engine.listNodes())]);
    const selfId = info.NodeID || null;
    const nexusOf = await nodeNexus(nodes, selfId);
    return nodes
      .map((n) => toFleetNode(n, selfId, nexusOf(n)))
      .sort((a, b) => Number(b.self) - Number(a.self) || a.hostname.localeCompare(b.hostname));
  }

  async function readServices(): Promise<FleetService[]> {
    const [services, tasks, nodes] = await guarded(() =>
      Promise.all([engine.listServices(), engine.listTasks(), engine.listNodes()]),
    );
    return toFleetServices(services, tasks, nodes);
  }

  async function joinTokens(): Promise<FleetJoinTokens> {
    const s = await requireManager();
    const [swarm, info] = await guarded(() => Promise.all([engine.swarmInspect(), engine.swarmInfo()]));
    // The address the others reach this manager at, with its port, as `docker swarm join-token` prints it.
    const self = info.RemoteManagers?.find((m) => m.NodeID === s.nodeId);
    const addr = self?.Addr ?? withSwarmPort(s.nodeAddr ?? '');
    const command = (token: string) => `docker swarm join --token ${token} ${addr}`;
    const worker = swarm.JoinTokens?.Worker ?? '';
    const manager = swarm.JoinTokens?.Manager ?? '';
    return {
      worker: { token: worker, command: command(worker) },
      manager: { token: manager, command: command(manager) },
    };
  }

  async function inspectService(id: string) {
    await requireManager();
    const service = await guarded(() => engine.inspectService(id));
    if (!service.Spec || service.Version?.Index === undefined) throw notFound('No such service');
    return { service, spec: service.Spec, version: service.Version.Index };
  }

  async function serviceById(id: string): Promise<FleetService> {
    const found = (await readServices()).find((s) => s.id === id || s.name === id);
    if (!found) throw notFound('No such service');
    return found;
  }

  const serviceUpdateWords = (engineMessage: string) =>
    /out of sequence/i.test(engineMessage)
      ? 'The service changed while you were changing it: load it again and retry'
      : null;

  return {
    status,

    async init(input: { advertiseAddr: string; listenAddr?: string }): Promise<FleetStatus> {
      const before = await status();
      if (before.state !== 'inactive') {
        throw new HttpError(409, 'This hub is already in a fleet: leave it first to create another', {
          state: before.state,
          role: before.role,
        });
      }
      const nodeId = await guarded(
        () =>
          engine.swarmInit({
            advertiseAddr: input.advertiseAddr,
            listenAddr: input.listenAddr ?? `0.0.0.0:${SWARM_PORT}`,
          }),
        (m) => (/already part of a swarm/i.test(m) ? 'This hub is already in a fleet' : null),
      );
      audit.record({ type: 'fleet_created', target: input.advertiseAddr, details: { nodeId } });
      log.info({ nodeId, advertiseAddr: input.advertiseAddr }, 'fleet created');
      return status();
    },

    async join(input: { remoteAddr: string; token: string; advertiseAddr?: string }): Promise<FleetStatus> {
      const before = await status();
      if (before.state !== 'inactive') {
        throw new HttpError(409, 'This hub is already in a fleet: leave it first to join another', {
          state: before.state,
          role: before.role,
        });
      }
      const remoteAddr = withSwarmPort(input.remoteAddr);
      try {
        await guarded(() =>
          engine.swarmJoin({
            remoteAddr,
            joinToken: input.token,
            advertiseAddr: input.advertiseAddr,
            listenAddr: `0.0.0.0:${SWARM_PORT}`,
          }),
        );
      } catch (error) {
        // Never the token: it lets a machine into the swarm.
        audit.record({ type: 'fleet_joined', outcome: 'failure', target: remoteAddr });
        throw error;
      }
      const after = await status();
      audit.record({
        type: 'fleet_joined',
        target: remoteAddr,
        details: { nodeId: after.nodeId, role: after.role },
      });
      log.info({ remoteAddr, nodeId: after.nodeId, role: after.role }, 'joined a fleet');
      return after;
    },

    async leave(input: { force: boolean }): Promise<FleetStatus> {
      const before = await status();
      if (before.state === 'inactive') throw new HttpError(409, NOT_IN_FLEET, { state: before.state });
      await guarded(
        () => engine.swarmLeave(input.force),
        (m) => {
          if (!/manager/i.test(m)) return null;
          const others = (before.nodes ?? 1) - 1;
          if (before.managers === 1 && others > 0) {
            return `This hub is the fleet's only manager: leaving ends the fleet for the other ${others} node${others === 1 ? '' : 's'} (they keep their tasks, nobody can change them). Make another node a manager first, or leave with force`;
          }
          if (before.managers === 1) {
            return 'This hub is the fleet’s only node and manager: leaving ends the fleet and removes its services. Leave with force to do it';
          }
          return 'This hub is a manager: leaving may cost the other managers their quorum. Demote it from another manager first, or leave with force';
        },
      );
      audit.record({
        type: 'fleet_left',
        target: before.clusterId,
        details: { nodeId: before.nodeId, role: before.role, force: input.force },
      });
      log.info({ nodeId: before.nodeId, force: input.force }, 'left the fleet');
      return status();
    },

    joinTokens,

    async rotateToken(role: SwarmRole): Promise<FleetJoinTokens> {
      await requireManager();
      await guarded(() => engine.swarmRotateToken(role));
      audit.record({ type: 'fleet_token_rotated', target: role });
      log.info({ role }, 'fleet join token rotated');
      return joinTokens();
    },

    async nodes(): Promise<FleetNode[]> {
      await requireManager();
      return readNodes();
    },

    async updateNode(id: string, change: FleetNodeUpdate): Promise<FleetNode> {
      await requireManager();
      const node = await guarded(() => engine.inspectNode(id));
      const version = node.Version?.Index;
      if (version === undefined || !node.Spec) throw notFound('No such node');
      const spec = {
        ...node.Spec,
        ...(change.labels !== undefined ? { Labels: change.labels } : {}),
        ...(change.availability !== undefined ? { Availability: change.availability } : {}),
      };
      await guarded(
        () => engine.updateNode(id, version, spec),
        (m) =>
          /out of sequence/i.test(m)
            ? 'The node changed while you were editing it (another admin, or the engine): load it again and retry'
            : null,
      );
      const hostname = node.Description?.Hostname ?? id;
      audit.record({
        type: 'fleet_node_changed',
        target: hostname,
        details: {
          nodeId: id,
          ...(change.labels !== undefined ? { labels: change.labels } : {}),
          ...(change.availability !== undefined ? { availability: change.availability } : {}),
        },
      });
      const updated = (await readNodes()).find((n) => n.id === id);
      if (!updated) throw notFound('No such node');
      return updated;
    },

    async services(): Promise<FleetService[]> {
      await requireManager();
      return readServices();
    },

    async scale(id: string, replicas: number): Promise<FleetService> {
      const { service, spec, version } = await inspectService(id);
      if (!spec.Mode?.Replicated) {
        throw new HttpError(409, 'A global service runs one task on every node: it cannot be scaled');
      }
      const next = { ...spec, Mode: { Replicated: { Replicas: replicas } } };
      await guarded(() => engine.updateService(service.ID, version, next), serviceUpdateWords);
      log.info({ serviceId: service.ID, replicas }, 'fleet service scaled');
      return serviceById(service.ID);
    },

    async updateImage(id: string, image: string): Promise<FleetService> {
      const { service, spec, version } = await inspectService(id);
      const template = spec.TaskTemplate ?? {};
      // The service's own UpdateConfig (parallelism, delay, order, failure action) drives the rollout.
      const next = {
        ...spec,
        TaskTemplate: { ...template, ContainerSpec: { ...(template.ContainerSpec ?? {}), Image: image } },
      };
      await guarded(() => engine.updateService(service.ID, version, next), serviceUpdateWords);
      log.info({ serviceId: service.ID, image }, 'fleet service update started');
      return serviceById(service.ID);
    },

    async rollback(id: string): Promise<FleetService> {
      const { service, spec, version } = await inspectService(id);
      if (!service.PreviousSpec) {
        throw new HttpError(409, 'This service has no previous version to roll back to');
      }
      await guarded(
        () => engine.updateService(service.ID, version, spec, { rollback: 'previous' }),
        serviceUpdateWords,
      );
      log.info({ serviceId: service.ID }, 'fleet service rollback started');
      return serviceById(service.ID);
    },

    async logs(id: string, query: { tail: number; since?: number }): Promise<FleetLogs> {
      const { service } = await inspectService(id);
      const lines = await guarded(() =>
        engine.readServiceLogs(service.ID, { tail: query.tail, since: query.since, timestamps: true }),
      );
      // The engine sends each task's lines as they come; one timeline reads better. The tail
      // applies per task at the engine, so the whole is cut to it again.
      const ordered = lines
        .map((line, index) => ({ line, index }))
        .sort((a, b) => (a.line.ts ?? '').localeCompare(b.line.ts ?? '') || a.index - b.index)
        .map(({ line }) => line)
        .slice(-query.tail);
      return { serviceId: service.ID, lines: ordered };
    },
  };
}

export type FleetFeatureService = ReturnType<typeof createFleetService>;
