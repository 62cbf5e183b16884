/**
 * The fleet feature's public surface (issue 24): other features import it from here, never from
 * its files. h/fleet-stacks reads services through `readFleetServices`; the LLM router finds the
 * nodes that run Ollama through `fleetNodes` (or the feature's `fleet.nodes()`).
 */
import type { DockerAdapter } from '../../adapters/docker.js';
import type { FleetNode, FleetService } from '../../contract/fleet.js';
import type { Logger } from '../../lib/logger.js';
import type { AuditRecorder } from '../audit/index.js';
import { toFleetNode, toFleetServices, toFleetStatus } from './fleet-map.js';
import { fleetRoutes } from './fleet.routes.js';
import { createFleetService, type FleetPeerReading } from './fleet.service.js';

export type { FleetFeatureService, FleetPeerReading } from './fleet.service.js';
export { NOT_IN_FLEET, withSwarmPort } from './fleet.service.js';
export { toFleetNode, toFleetServices, toFleetStatus } from './fleet-map.js';

/**
 * The swarm's nodes straight from the engine (no peer readings: `nexus` is null), or [] when the
 * engine is in no swarm or is a worker: for callers that only need hostnames, addresses, labels
 * and states (e.g. which nodes carry `nexus.ollama`). Engine failures other than those reject.
 */
export async function fleetNodes(engine: DockerAdapter): Promise<FleetNode[]> {
  const status = toFleetStatus(await engine.swarmInfo());
  if (!status.canManage) return [];
  return (await engine.listNodes()).map((n) => toFleetNode(n, status.nodeId, null));
}

/** The swarm's services with their tasks, or [] outside a swarm or on a worker. */
export async function readFleetServices(engine: DockerAdapter): Promise<FleetService[]> {
  const status = toFleetStatus(await engine.swarmInfo());
  if (!status.canManage) return [];
  const [services, tasks, nodes] = await Promise.all([
    engine.listServices(),
    engine.listTasks(),
    engine.listNodes(),
  ]);
  return toFleetServices(services, tasks, nodes);
}

export function createFleetFeature(deps: {
  engine: DockerAdapter;
  audit: AuditRecorder;
  log: Logger;
  peers?: () => FleetPeerReading[];
  self?: () => Promise<Omit<FleetPeerReading, 'url'> | null>;
}) {
  const fleet = createFleetService({
    engine: deps.engine,
    audit: deps.audit,
    log: deps.log,
    peers: deps.peers,
    self: deps.self,
  });
  return { service: fleet, routes: fleetRoutes(fleet) };
}
