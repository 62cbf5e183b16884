import type { DockerAdapter, EngineService } from '../../adapters/docker.js';
import type { DeployEvent, DeploymentOutcome, StackSummary } from '../../contract/docker.js';
import { STACK_NAMESPACE_LABEL } from '../../contract/fleet.js';
import { HttpError } from '../../lib/http-error.js';
import type { StackPlan } from './compose.js';
import { fleetNames, networksToCreate, toServiceSpec, type FleetNames } from './swarm-stack.js';

/**
 * The engine work of a stack on the fleet (issue 24): swarm services and overlay networks, made,
 * updated and removed as `docker stack deploy` / `docker stack rm` do. stacks.service.ts keeps the
 * deployment record, the stored compose file and the one-at-a-time rule around these.
 */

type Emit = (event: DeployEvent) => void;

export const NOT_IN_FLEET =
  'This hub is not in a fleet: create one (or join one) on Multi-Jetson control first';

const namespaceFilter = (stack: string) => `${STACK_NAMESPACE_LABEL}=${stack}`;

export function createFleetStacks(engine: DockerAdapter) {
  /** A fleet deploy needs a swarm, and a manager: workers cannot create services. */
  async function requireManager(): Promise<void> {
    const { state, manager } = await engine.swarmMembership();
    if (state !== 'active') {
      throw new HttpError(
        409,
        state === 'inactive'
          ? NOT_IN_FLEET
          : `This hub's swarm is ${state}: the fleet cannot take a stack now`,
      );
    }
    if (!manager) {
      throw new HttpError(
        409,
        'This hub is a worker of the fleet: deploy stacks from a manager hub (workers cannot create services)',
      );
    }
  }

  /** The stack's services; none when the engine is in no swarm (it refuses to list them then). */
  async function services(stack?: string): Promise<EngineService[]> {
    try {
      return await engine.listServices({ label: [stack ? namespaceFilter(stack) : STACK_NAMESPACE_LABEL] });
    } catch (err) {
      // Outside a swarm the engine refuses (503, "not a swarm manager"; Podman has no such call):
      // no services then. An engine that cannot be reached is still an error.
      if (
        err instanceof HttpError &&
        err.status !== 504 &&
        !err.message.startsWith('Docker engine not reachable')
      ) {
        return [];
      }
      throw err;
    }
  }

  /** Builds every spec once before anything is created, so a spec the file cannot make is a 400 first. */
  function checkSpecs(stack: string, plan: StackPlan): void {
    const names = fleetNames(stack, plan);
    for (const service of plan.services) toServiceSpec(stack, service, names, plan, 0);
  }

  async function ensureNetworks(
    stack: string,
    plan: StackPlan,
    names: FleetNames,
    outcome: DeploymentOutcome,
    emit: Emit,
  ): Promise<void> {
    const existing = new Set(
      (await engine.listNetworks({ label: [namespaceFilter(stack)] })).map((n) => n.name),
    );
    for (const network of networksToCreate(plan, names)) {
      if (existing.has(network.name)) continue;
      await engine.createNetwork(
        network.name,
        { ...network.labels, [STACK_NAMESPACE_LABEL]: stack },
        { driver: 'overlay' },
      );
      outcome.created.push({ kind: 'network', name: network.name });
      emit({ type: 'created', kind: 'network', name: network.name });
    }
  }

  /**
   * Creates the services that are new, updates the ones that exist in place (with their current
   * version, as `docker service update` does: the engine rolls their tasks by update_config), and
   * removes the ones the file no longer has.
   */
  async function apply(
    stack: string,
    plan: StackPlan,
    deploymentId: number,
    outcome: DeploymentOutcome,
    emit: Emit,
  ): Promise<void> {
    const names = fleetNames(stack, plan);
    emit({ type: 'step', message: 'Every node pulls the images itself when it starts a task' });
    await ensureNetworks(stack, plan, names, outcome, emit);
    const current = new Map((await services(stack)).map((s) => [s.Spec?.Name ?? s.ID, s]));
    const wanted = new Set<string>();
    for (const service of plan.services) {
      const spec = toServiceSpec(stack, service, names, plan, deploymentId);
      const name = spec.Name!;
      wanted.add(name);
      const existing = current.get(name);
      if (existing) {
        emit({ type: 'step', message: `Updating service ${name}` });
        const { warnings } = await engine.updateService(existing.ID, existing.Version?.Index ?? 0, spec);
        for (const warning of warnings) emit({ type: 'step', message: `${name}: ${warning}` });
      } else {
        await engine.createService(spec);
        outcome.created.push({ kind: 'service', name });
        emit({ type: 'created', kind: 'service', name });
      }
      emit({ type: 'started', service: service.name, container: name });
    }
    for (const [name, service] of current) {
      if (wanted.has(name)) continue;
      emit({ type: 'step', message: `Removing service ${name}, which the file no longer has` });
      await engine.removeService(service.ID);
      outcome.removed.push(name);
    }
  }

  /** What `docker stack rm` does: the stack's services, then its networks (volumes stay, on each node). */
  async function remove(stack: string, outcome: DeploymentOutcome): Promise<void> {
    for (const service of await services(stack)) {
      await engine.removeService(service.ID);
      outcome.removed.push(service.Spec?.Name ?? service.ID);
    }
    // A network is in use until the removed services' tasks have stopped: retry for a while.
    for (const network of await engine.listNetworks({ label: [namespaceFilter(stack)] })) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        try {
          await engine.removeNetwork(network.name);
          outcome.removed.push(network.name);
          break;
        } catch (err) {
          if (Date.now() > deadline || !(err instanceof HttpError) || err.status === 502) throw err;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    }
  }

  /** Undoes a first deploy that failed part-way: what it created, newest first. */
  async function undo(outcome: DeploymentOutcome, emit: Emit): Promise<void> {
    const byName = new Map((await services().catch(() => [])).map((s) => [s.Spec?.Name, s.ID]));
    for (const item of [...outcome.created].reverse()) {
      try {
        if (item.kind === 'service') await engine.removeService(byName.get(item.name) ?? item.name);
        else if (item.kind === 'network') await engine.removeNetwork(item.name);
        else continue;
        outcome.removed.push(item.name);
        emit({ type: 'step', message: `Removed ${item.kind} ${item.name}` });
      } catch (err) {
        emit({
          type: 'step',
          message: `Could not remove ${item.kind} ${item.name}: ${(err as Error).message}`,
        });
      }
    }
  }

  /** Each service as the stacks list shows it: tasks running against tasks wanted. */
  function summarizeServices(stack: string, list: EngineService[]): StackSummary['services'] {
    return list
      .map((s) => {
        const name = s.Spec?.Name ?? s.ID;
        const running = s.ServiceStatus?.RunningTasks ?? 0;
        const desired = s.ServiceStatus?.DesiredTasks ?? 0;
        const image = s.Spec?.Labels?.['com.docker.stack.image'] ?? null;
        return {
          service: name.startsWith(`${stack}_`) ? name.slice(stack.length + 1) : name,
          containerId: null,
          containerName: null,
          image,
          state: desired === 0 ? 'stopped' : running >= desired ? 'running' : 'pending',
          status: `${running}/${desired} tasks running`,
        };
      })
      .sort((a, b) => a.service.localeCompare(b.service));
  }

  return { requireManager, services, checkSpecs, apply, remove, undo, summarizeServices };
}

export type FleetStacks = ReturnType<typeof createFleetStacks>;

/** Services grouped by their stack, as `docker stack ls` counts them. */
export function groupByStack(list: EngineService[]): Map<string, EngineService[]> {
  const groups = new Map<string, EngineService[]>();
  for (const service of list) {
    const stack = service.Spec?.Labels?.[STACK_NAMESPACE_LABEL];
    if (!stack) continue;
    groups.set(stack, [...(groups.get(stack) ?? []), service]);
  }
  return groups;
}
