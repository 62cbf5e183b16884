import type { EngineNode, EngineService, EngineSwarmInfo, EngineTask } from '../../adapters/docker.js';
import {
  STACK_NAMESPACE_LABEL,
  nodeAvailabilitySchema,
  swarmStateSchema,
  type FleetNode,
  type FleetNodeNexus,
  type FleetService,
  type FleetStatus,
  type FleetTask,
} from '../../contract/fleet.js';

/**
 * Pure translations of the Engine API's swarm objects into the fleet contract. Kept apart from
 * the service so the benchmark and unit tests can feed them recorded engine answers.
 */

export function toFleetStatus(info: EngineSwarmInfo): FleetStatus {
  const parsed = swarmStateSchema.safeParse(info.LocalNodeState || 'inactive');
  const state = parsed.success ? parsed.data : 'error';
  const active = state === 'active';
  const manager = active && info.ControlAvailable === true;
  return {
    state,
    role: active ? (manager ? 'manager' : 'worker') : null,
    nodeId: info.NodeID || null,
    clusterId: info.Cluster?.ID || null,
    nodeAddr: info.NodeAddr || null,
    nodes: active && manager ? (info.Nodes ?? null) : null,
    managers: active && manager ? (info.Managers ?? null) : null,
    error: info.Error || null,
    canManage: manager,
  };
}

export function toFleetNode(
  node: EngineNode,
  selfId: string | null,
  nexus: FleetNodeNexus | null,
): FleetNode {
  const availability = nodeAvailabilitySchema.safeParse(node.Spec?.Availability);
  const nanoCpus = node.Description?.Resources?.NanoCPUs;
  return {
    id: node.ID,
    hostname: node.Description?.Hostname ?? node.ID,
    role: node.Spec?.Role === 'manager' ? 'manager' : 'worker',
    leader: node.ManagerStatus?.Leader === true,
    self: selfId !== null && node.ID === selfId,
    availability: availability.success ? availability.data : 'active',
    status: node.Status?.State ?? 'unknown',
    statusMessage: node.Status?.Message || null,
    addr: node.Status?.Addr || null,
    engineVersion: node.Description?.Engine?.EngineVersion ?? null,
    os: node.Description?.Platform?.OS ?? null,
    arch: node.Description?.Platform?.Architecture ?? null,
    cpus: typeof nanoCpus === 'number' ? nanoCpus / 1e9 : null,
    memoryBytes: node.Description?.Resources?.MemoryBytes ?? null,
    labels: { ...(node.Spec?.Labels ?? {}) },
    nexus,
  };
}

/** Desired states of a task the service still wants; the rest is history the engine keeps. */
const CURRENT_DESIRED = new Set([
  'new',
  'pending',
  'assigned',
  'accepted',
  'preparing',
  'ready',
  'starting',
  'running',
]);
/** An ended task worth showing beside the current ones: why the engine had to replace it. */
const FAILED_STATES = new Set(['failed', 'rejected', 'orphaned']);

function toFleetTask(task: EngineTask, hostnames: Map<string, string>): FleetTask {
  return {
    id: task.ID,
    slot: typeof task.Slot === 'number' && task.Slot > 0 ? task.Slot : null,
    nodeId: task.NodeID || null,
    nodeHostname: task.NodeID ? (hostnames.get(task.NodeID) ?? null) : null,
    desiredState: task.DesiredState ?? 'unknown',
    state: task.Status?.State ?? 'unknown',
    message: task.Status?.Message || null,
    error: task.Status?.Err || null,
    containerId: task.Status?.ContainerStatus?.ContainerID || null,
    image: task.Spec?.ContainerSpec?.Image ?? null,
    updatedAt: task.Status?.Timestamp ?? task.UpdatedAt ?? null,
  };
}

/**
 * The tasks a person looks at: every task the service still wants, and per slot (or node, for a
 * global service) the latest failed one when no current task there runs yet, so the engine's
 * reason (a missing image, a crash) stays visible while it retries.
 */
export function visibleTasks(tasks: EngineTask[], hostnames: Map<string, string>): FleetTask[] {
  const current = tasks.filter((t) => CURRENT_DESIRED.has(t.DesiredState ?? ''));
  const runningSlots = new Set(current.filter((t) => t.Status?.State === 'running').map((t) => slotKey(t)));
  const latestFailed = new Map<string, EngineTask>();
  for (const t of tasks) {
    if (CURRENT_DESIRED.has(t.DesiredState ?? '') || !FAILED_STATES.has(t.Status?.State ?? '')) continue;
    const key = slotKey(t);
    if (runningSlots.has(key)) continue;
    const seen = latestFailed.get(key);
    if (!seen || stamp(t) > stamp(seen)) latestFailed.set(key, t);
  }
  return [...current, ...latestFailed.values()]
    .sort((a, b) => (a.Slot ?? 0) - (b.Slot ?? 0) || stamp(b).localeCompare(stamp(a)))
    .map((t) => toFleetTask(t, hostnames));
}

const slotKey = (t: EngineTask) => (t.Slot ? `slot:${t.Slot}` : `node:${t.NodeID ?? ''}`);
const stamp = (t: EngineTask) => t.Status?.Timestamp ?? t.UpdatedAt ?? '';

export function toFleetService(
  service: EngineService,
  tasks: EngineTask[],
  hostnames: Map<string, string>,
): FleetService {
  const spec = service.Spec ?? {};
  const replicated = spec.Mode?.Global === undefined;
  const ports = service.Endpoint?.Ports ?? spec.EndpointSpec?.Ports ?? [];
  const update = service.UpdateStatus;
  return {
    id: service.ID,
    name: spec.Name ?? service.ID,
    stack: spec.Labels?.[STACK_NAMESPACE_LABEL] ?? null,
    // The engine pins the digest (image:tag@sha256:…); people read the tag.
    image: (spec.TaskTemplate?.ContainerSpec?.Image ?? '').replace(/@sha256:[a-f0-9]+$/, ''),
    mode: replicated ? 'replicated' : 'global',
    replicas: replicated ? (spec.Mode?.Replicated?.Replicas ?? 1) : null,
    running: tasks.filter((t) => t.Status?.State === 'running' && t.DesiredState === 'running').length,
    constraints: [...(spec.TaskTemplate?.Placement?.Constraints ?? [])],
    ports: ports.map((p) => ({
      published: p.PublishedPort ?? null,
      target: p.TargetPort ?? 0,
      protocol: p.Protocol ?? 'tcp',
      mode: p.PublishMode ?? 'ingress',
    })),
    updateStatus: update?.State
      ? {
          state: update.State,
          message: update.Message || null,
          startedAt: update.StartedAt ?? null,
          completedAt: update.CompletedAt ?? null,
        }
      : null,
    canRollback: service.PreviousSpec !== undefined && service.PreviousSpec !== null,
    createdAt: service.CreatedAt ?? null,
    updatedAt: service.UpdatedAt ?? null,
    tasks: visibleTasks(tasks, hostnames),
  };
}

/** Services with their tasks, grouped in one pass (the engine answers all tasks at once). */
export function toFleetServices(
  services: EngineService[],
  tasks: EngineTask[],
  nodes: EngineNode[],
): FleetService[] {
  const hostnames = new Map(nodes.map((n) => [n.ID, n.Description?.Hostname ?? n.ID]));
  const byService = new Map<string, EngineTask[]>();
  for (const t of tasks) {
    const id = t.ServiceID ?? '';
    const list = byService.get(id);
    if (list) list.push(t);
    else byService.set(id, [t]);
  }
  return services
    .map((s) => toFleetService(s, byService.get(s.ID) ?? [], hostnames))
    .sort((a, b) => a.name.localeCompare(b.name));
}
