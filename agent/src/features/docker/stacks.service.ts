import { createHash } from 'node:crypto';
import type {
  ContainerCreateSpec,
  DockerAdapter,
  EngineContainer,
  PullEvent,
} from '../../adapters/docker.js';
import {
  COMPOSE_PROJECT_LABEL,
  COMPOSE_SERVICE_LABEL,
  type DeployEvent,
  type Deployment,
  type DeploymentOutcome,
  type StackDetail,
  type StackSummary,
  type StackTarget,
} from '../../contract/docker.js';
import type { EngineService } from '../../adapters/docker.js';
import { HttpError } from '../../lib/http-error.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { engineHealthcheck, engineSysctls, planStack, type ServicePlan, type StackPlan } from './compose.js';
import type { DockerRepository } from './docker.repository.js';
import { createFleetStacks, groupByStack } from './fleet-stacks.js';
import { fleetWarnings } from './swarm-stack.js';

/** docker compose's labels (compose v2), so stacks from here and from `docker compose` look the same. */
const LABEL = {
  project: COMPOSE_PROJECT_LABEL,
  service: COMPOSE_SERVICE_LABEL,
  number: 'com.docker.compose.container-number',
  oneoff: 'com.docker.compose.oneoff',
  configHash: 'com.docker.compose.config-hash',
  dependsOn: 'com.docker.compose.depends_on',
  network: 'com.docker.compose.network',
  volume: 'com.docker.compose.volume',
  /** Ours: which console deployment created it. */
  deployment: 'io.nexus.console.deployment',
} as const;

/** How long a `depends_on: condition` may take before the deployment gives up. */
const DEPENDENCY_TIMEOUT_MS = 120_000;
const DEPENDENCY_POLL_MS = 500;
/** Per-layer pull progress reaches the browser at most this often (the engine sends far more). */
const PULL_EVENT_INTERVAL_MS = 150;

export interface Actor {
  id: number | null;
  name: string;
}

export type Emit = (event: DeployEvent) => void;
const silent: Emit = () => {};

function parseBytes(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return value;
  const match = /^(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?$/i.exec(value.trim());
  if (!match) throw new HttpError(400, `Cannot read the size ${value}`);
  const power = ['', 'k', 'm', 'g', 't'].indexOf(match[2]!.toLowerCase());
  return Math.round(Number(match[1]) * 1024 ** power);
}

export interface StackNames {
  volume(key: string): string;
  network(key: string): string;
  container(service: ServicePlan): string;
}

export function stackNames(project: string, plan: StackPlan): StackNames {
  return {
    volume: (key) => {
      const declared = plan.volumes.find((v) => v.key === key);
      return declared?.name ?? `${project}_${key}`;
    },
    network: (key) => {
      const declared = plan.networks.find((n) => n.key === key);
      return declared?.name ?? `${project}_${key}`;
    },
    container: (service) => service.containerName ?? `${project}-${service.name}-1`,
  };
}

/** The Engine API body for one service, with compose's labels. */
export function toCreateSpec(
  project: string,
  service: ServicePlan,
  names: StackNames,
  deploymentId: number,
): ContainerCreateSpec {
  const raw = service.raw;
  const exposed: Record<string, object> = {};
  const bindings: Record<string, { HostIp?: string; HostPort?: string }[]> = {};
  for (const p of service.ports) {
    const key = `${p.containerPort}/${p.protocol}`;
    exposed[key] = {};
    (bindings[key] ??= []).push({
      ...(p.hostIp ? { HostIp: p.hostIp } : {}),
      HostPort: p.hostPort ?? '',
    });
  }
  for (const e of service.expose) exposed[`${e.port}/${e.protocol}`] = {};

  const binds: string[] = [];
  const anonymous: Record<string, object> = {};
  const tmpfs: Record<string, string> = {};
  for (const v of service.volumes) {
    if (v.type === 'anonymous') anonymous[v.target] = {};
    else if (v.type === 'tmpfs') tmpfs[v.target] = '';
    else {
      const source = v.type === 'volume' ? names.volume(v.source!) : v.source!;
      binds.push(`${source}:${v.target}${v.readOnly ? ':ro' : ''}`);
    }
  }
  for (const t of typeof raw.tmpfs === 'string' ? [raw.tmpfs] : (raw.tmpfs ?? [])) {
    const [target, options = ''] = t.split(/:(.*)/s) as [string, string?];
    tmpfs[target] = options;
  }

  const healthcheck = engineHealthcheck(raw.healthcheck);

  const reservations = raw.deploy?.resources?.reservations;
  const limits = raw.deploy?.resources?.limits;
  const deviceRequests = reservations?.devices?.map((d) => ({
    Driver: d.driver ?? '',
    Count: d.count === 'all' ? -1 : (d.count ?? (d.device_ids ? 0 : -1)),
    DeviceIDs: d.device_ids,
    Capabilities: [d.capabilities],
    Options: d.options ?? {},
  }));
  const cpus = raw.cpus ?? limits?.cpus;
  const firstNetwork = service.networks[0];

  const labels: Record<string, string> = {
    ...service.labels,
    [LABEL.project]: project,
    [LABEL.service]: service.name,
    [LABEL.number]: '1',
    [LABEL.oneoff]: 'False',
    [LABEL.deployment]: String(deploymentId),
  };
  if (service.dependsOn.length) {
    labels[LABEL.dependsOn] = service.dependsOn.map((d) => `${d.service}:${d.condition}:false`).join(',');
  }

  const spec: ContainerCreateSpec = {
    name: names.container(service),
    Image: service.image,
    Cmd: service.command ?? undefined,
    Entrypoint: service.entrypoint ?? undefined,
    Env: Object.entries(service.environment).map(([k, v]) => `${k}=${v}`),
    Labels: labels,
    Hostname: raw.hostname,
    User: raw.user,
    WorkingDir: raw.working_dir,
    Tty: raw.tty,
    OpenStdin: raw.stdin_open,
    ExposedPorts: exposed,
    Volumes: Object.keys(anonymous).length ? anonymous : undefined,
    StopSignal: raw.stop_signal,
    StopTimeout: raw.stop_grace_period === undefined ? undefined : Math.round(raw.stop_grace_period),
    Healthcheck: healthcheck,
    HostConfig: {
      PortBindings: service.networkMode === 'host' ? undefined : bindings,
      Binds: binds,
      Tmpfs: Object.keys(tmpfs).length ? tmpfs : undefined,
      RestartPolicy: {
        Name: service.restart.name === 'no' ? '' : service.restart.name,
        MaximumRetryCount: service.restart.maxRetries,
      },
      NetworkMode: service.networkMode ?? (firstNetwork ? names.network(firstNetwork.name) : undefined),
      Privileged: raw.privileged,
      Init: raw.init,
      Runtime: raw.runtime,
      Devices: raw.devices?.map((d) => {
        const [host, container = host, permissions = 'rwm'] = d.split(':') as [string, string?, string?];
        return { PathOnHost: host, PathInContainer: container, CgroupPermissions: permissions };
      }),
      DeviceRequests: deviceRequests,
      CapAdd: raw.cap_add,
      CapDrop: raw.cap_drop,
      SecurityOpt: raw.security_opt,
      GroupAdd: raw.group_add,
      ExtraHosts: Array.isArray(raw.extra_hosts)
        ? raw.extra_hosts
        : raw.extra_hosts
          ? Object.entries(raw.extra_hosts).map(([h, ip]) => `${h}:${ip}`)
          : undefined,
      Dns: typeof raw.dns === 'string' ? [raw.dns] : raw.dns,
      ShmSize: parseBytes(raw.shm_size),
      Memory: parseBytes(raw.mem_limit ?? limits?.memory),
      NanoCpus: cpus === undefined ? undefined : Math.round(Number(cpus) * 1e9),
      IpcMode: raw.ipc,
      PidMode: raw.pid,
      Sysctls: engineSysctls(raw.sysctls),
    },
    NetworkingConfig:
      firstNetwork && !service.networkMode
        ? {
            EndpointsConfig: {
              [names.network(firstNetwork.name)]: { Aliases: [service.name, ...firstNetwork.aliases] },
            },
          }
        : undefined,
  };
  // compose's config-hash: a digest of the configuration, so a changed service is recognisable.
  labels[LABEL.configHash] = createHash('sha256')
    .update(JSON.stringify({ ...spec, Labels: { ...labels, [LABEL.deployment]: '' } }))
    .digest('hex');
  return spec;
}

const containerName = (c: EngineContainer) => (c.Names?.[0] ?? c.Id).replace(/^\//, '');

/** Start order of existing containers: by creation, which follows depends_on for stacks made here. */
const byCreated = (a: EngineContainer, b: EngineContainer) =>
  a.Created - b.Created || containerName(a).localeCompare(containerName(b));

export function createStacksService(deps: {
  engine: DockerAdapter;
  repo: DockerRepository;
  secrets: SecretBox;
  now?: () => number;
}) {
  const { engine, repo, secrets } = deps;
  const running = new Set<string>();
  const fleet = createFleetStacks(engine);

  const projectContainers = async (name: string) =>
    (await engine.listContainers({ label: [`${LABEL.project}=${name}`] })).sort(byCreated);

  function sealVariables(variables: Record<string, string>): string {
    return secrets.seal(JSON.stringify(variables));
  }
  function openVariables(sealed: string): Record<string, string> {
    return JSON.parse(secrets.open(sealed)) as Record<string, string>;
  }

  /** One deployment at a time per stack; a second is a 409 rather than a race on the engine. */
  async function exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
    if (running.has(name))
      throw new HttpError(409, `Something is already being done to the stack ${name}; wait for it to finish`);
    running.add(name);
    try {
      return await fn();
    } finally {
      running.delete(name);
    }
  }

  async function pullImages(
    images: string[],
    emit: Emit,
    outcome: DeploymentOutcome,
    signal?: AbortSignal,
  ): Promise<void> {
    for (const image of images) {
      emit({ type: 'step', message: `Pulling ${image}` });
      const lastSent = new Map<string, number>();
      try {
        await engine.pullImage(
          image,
          (event: PullEvent) => {
            if (event.error || event.errorDetail) return;
            const layer = event.id && event.id !== image ? event.id : null;
            const key = `${layer}:${event.status}`;
            const t = Date.now();
            const isProgress = event.progressDetail?.total !== undefined;
            if (isProgress && t - (lastSent.get(key) ?? 0) < PULL_EVENT_INTERVAL_MS) return;
            lastSent.set(key, t);
            emit({
              type: 'pull',
              image,
              layer,
              status: event.status ?? '',
              current: event.progressDetail?.current ?? null,
              total: event.progressDetail?.total ?? null,
            });
          },
          signal,
        );
      } catch (err) {
        const reason = err instanceof HttpError ? err.message : String(err);
        if (
          err instanceof HttpError &&
          err.status === 502 &&
          reason.startsWith('Docker engine not reachable')
        )
          throw err;
        throw new HttpError(502, `Pulling ${image} failed: ${reason.replace(/^Docker engine error: /, '')}`);
      }
      outcome.pulled.push(image);
      emit({ type: 'pulled', image });
    }
  }

  /** Images to pull: on deploy the missing ones, on redeploy all but pull_policy: never. */
  async function imagesToPull(plan: StackPlan, mode: 'missing' | 'all'): Promise<string[]> {
    const images: string[] = [];
    for (const service of plan.services) {
      if (images.includes(service.image)) continue;
      if (service.pullPolicy === 'never') continue;
      if (mode === 'all' || service.pullPolicy === 'always' || !(await engine.imageExists(service.image))) {
        images.push(service.image);
      }
    }
    for (const service of plan.services) {
      if (service.pullPolicy === 'never' && !(await engine.imageExists(service.image))) {
        throw new HttpError(
          400,
          `services.${service.name} has pull_policy: never but the image ${service.image} is not on this engine`,
        );
      }
    }
    return images;
  }

  async function ensureNetworksAndVolumes(
    project: string,
    plan: StackPlan,
    names: StackNames,
    outcome: DeploymentOutcome,
    emit: Emit,
  ): Promise<void> {
    const usedNetworks = new Set(plan.services.flatMap((s) => s.networks.map((n) => n.name)));
    const existingNetworks = new Set(
      (await engine.listNetworks({ label: [`${LABEL.project}=${project}`] })).map((n) => n.name),
    );
    for (const key of usedNetworks) {
      const declared = plan.networks.find((n) => n.key === key);
      const name = names.network(key);
      if (declared?.external) continue;
      if (existingNetworks.has(name)) continue;
      await engine.createNetwork(name, {
        ...(declared?.labels ?? {}),
        [LABEL.project]: project,
        [LABEL.network]: key,
      });
      outcome.created.push({ kind: 'network', name });
      emit({ type: 'created', kind: 'network', name });
    }
    for (const volume of plan.volumes) {
      const name = names.volume(volume.key);
      const exists = await engine.volumeExists(name);
      if (volume.external) {
        if (!exists) throw new HttpError(400, `The external volume ${name} does not exist on this engine`);
        continue;
      }
      if (exists) continue;
      await engine.createVolume(name, {
        ...volume.labels,
        [LABEL.project]: project,
        [LABEL.volume]: volume.key,
      });
      outcome.created.push({ kind: 'volume', name });
      emit({ type: 'created', kind: 'volume', name });
    }
  }

  async function waitForCondition(
    service: ServicePlan,
    dependency: { service: string; condition: string },
    names: StackNames,
    plan: StackPlan,
  ) {
    if (dependency.condition === 'service_started') return;
    const target = plan.services.find((s) => s.name === dependency.service)!;
    const name = names.container(target);
    const deadline = Date.now() + DEPENDENCY_TIMEOUT_MS;
    for (;;) {
      const info = await engine.inspectContainer(name);
      if (dependency.condition === 'service_healthy') {
        const health = info.State?.Health?.Status;
        if (!health)
          throw new HttpError(
            400,
            `${service.name} waits for ${target.name} to be healthy, but ${target.name} has no healthcheck`,
          );
        if (health === 'healthy') return;
        if (health === 'unhealthy')
          throw new HttpError(502, `${target.name} is unhealthy, so ${service.name} was not started`);
      } else if (info.State?.Status === 'exited' || info.State?.Status === 'dead') {
        if (info.State.ExitCode === 0) return;
        throw new HttpError(
          502,
          `${target.name} exited with code ${info.State.ExitCode}, so ${service.name} was not started`,
        );
      }
      if (Date.now() > deadline) {
        throw new HttpError(
          504,
          `${target.name} did not become ${dependency.condition.replace('service_', '').replace(/_/g, ' ')} within ${DEPENDENCY_TIMEOUT_MS / 1000} s`,
        );
      }
      await new Promise((r) => setTimeout(r, DEPENDENCY_POLL_MS));
    }
  }

  async function createAndStart(
    project: string,
    plan: StackPlan,
    names: StackNames,
    deploymentId: number,
    outcome: DeploymentOutcome,
    emit: Emit,
  ): Promise<void> {
    for (const service of plan.services) {
      for (const dependency of service.dependsOn) await waitForCondition(service, dependency, names, plan);
      const spec = toCreateSpec(project, service, names, deploymentId);
      const id = await engine.createContainer(spec);
      outcome.created.push({ kind: 'container', name: spec.name! });
      emit({ type: 'created', kind: 'container', name: spec.name! });
      for (const extra of service.networks.slice(1)) {
        await engine.connectNetwork(names.network(extra.name), id, [service.name, ...extra.aliases]);
      }
      await engine.startContainer(id);
      emit({ type: 'started', service: service.name, container: spec.name! });
    }
  }

  /** Removes what this deployment created, newest first, and says what it could not. */
  async function rollback(outcome: DeploymentOutcome, emit: Emit): Promise<void> {
    for (const item of [...outcome.created].reverse()) {
      try {
        if (item.kind === 'container')
          await engine.removeContainer(item.name, { force: true, volumes: true });
        else if (item.kind === 'network') await engine.removeNetwork(item.name);
        else await engine.removeVolume(item.name);
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

  async function standing(
    project: string,
    target: StackTarget = 'hub',
  ): Promise<DeploymentOutcome['standing']> {
    try {
      if (target === 'fleet') {
        return fleet
          .summarizeServices(project, await fleet.services(project))
          .map((s) => ({ name: `${project}_${s.service}`, state: s.status ?? s.state }));
      }
      return (await projectContainers(project)).map((c) => ({ name: containerName(c), state: c.State }));
    } catch {
      return [];
    }
  }

  const emptyOutcome = (): DeploymentOutcome => ({ pulled: [], created: [], removed: [], standing: [] });

  /** Records a failure and answers it with the deployment attached, so the client shows what stands. */
  function failed(id: number, err: unknown, outcome: DeploymentOutcome): HttpError {
    const http =
      err instanceof HttpError ? err : new HttpError(502, `Deployment failed: ${(err as Error).message}`);
    const deployment = repo.finishDeployment(id, 'failed', http.message, outcome);
    return new HttpError(http.status, http.message, { deployment });
  }

  /** What can be refused before anything is created: a bad file (400), no engine (502), a name in use (409). */
  async function preflightDeploy(
    input: { name: string; compose: string; variables: Record<string, string>; target?: StackTarget },
    checkBusy = true,
  ) {
    const target = input.target ?? 'hub';
    const plan = planStack(input.compose, input.variables, { target });
    await engine.ping();
    if (target === 'fleet') {
      await fleet.requireManager();
      fleet.checkSpecs(input.name, plan);
    }
    if (
      (await projectContainers(input.name)).length > 0 ||
      repo.getStack(input.name) ||
      (await fleet.services(input.name)).length > 0
    ) {
      throw new HttpError(409, `A stack named ${input.name} already exists: redeploy or remove it instead`);
    }
    if (checkBusy && running.has(input.name)) {
      throw new HttpError(
        409,
        `Something is already being done to the stack ${input.name}; wait for it to finish`,
      );
    }
    return plan;
  }

  async function preflightRedeploy(
    name: string,
    opts: { compose?: string; variables?: Record<string, string> },
    checkBusy = true,
  ) {
    const stored = repo.getStack(name);
    if (!stored) {
      if ((await projectContainers(name)).length > 0) {
        throw new HttpError(
          409,
          `The stack ${name} was not deployed from the console, so its compose file is not known here`,
        );
      }
      throw new HttpError(404, `No stack named ${name}`);
    }
    const compose = opts.compose ?? stored.compose;
    const variables = opts.variables ?? openVariables(stored.variablesSealed);
    const plan = planStack(compose, variables, { target: stored.target });
    await engine.ping();
    if (stored.target === 'fleet') {
      await fleet.requireManager();
      fleet.checkSpecs(name, plan);
    }
    if (checkBusy && running.has(name)) {
      throw new HttpError(409, `Something is already being done to the stack ${name}; wait for it to finish`);
    }
    return { stored, compose, variables, plan };
  }

  async function deploy(
    input: {
      name: string;
      compose: string;
      variables: Record<string, string>;
      catalogApp?: string | null;
      target?: StackTarget;
    },
    actor: Actor,
    emit: Emit = silent,
    signal?: AbortSignal,
  ): Promise<Deployment> {
    const plan = planStack(input.compose, input.variables, { target: input.target });
    if (input.target === 'fleet') return deployToFleet(input, plan, actor, emit);
    return exclusive(input.name, async () => {
      await preflightDeploy(input, false);
      for (const warning of plan.warnings) emit({ type: 'step', message: warning });
      const id = repo.startDeployment({
        stack: input.name,
        action: 'deploy',
        catalogApp: input.catalogApp ?? null,
        userId: actor.id,
        userName: actor.name,
      });
      const names = stackNames(input.name, plan);
      const outcome = emptyOutcome();
      try {
        await pullImages(await imagesToPull(plan, 'missing'), emit, outcome, signal);
        await ensureNetworksAndVolumes(input.name, plan, names, outcome, emit);
        await createAndStart(input.name, plan, names, id, outcome, emit);
        repo.saveStack({
          name: input.name,
          compose: input.compose,
          variablesSealed: sealVariables(input.variables),
          catalogApp: input.catalogApp ?? null,
          userId: actor.id,
        });
        outcome.standing = await standing(input.name);
        return repo.finishDeployment(id, 'success', plan.warnings.join(' ') || null, outcome);
      } catch (err) {
        if (outcome.created.length) emit({ type: 'step', message: 'Removing what this deployment created' });
        await rollback(outcome, emit);
        outcome.standing = await standing(input.name);
        throw failed(id, err, outcome);
      }
    });
  }

  /**
   * A first deploy, or a redeploy, of a stack on the fleet: swarm services made or updated in place
   * (fleet-stacks.ts). A first deploy that fails removes what it made; a redeploy that fails leaves
   * the services it already updated as they are (each has the engine's rollback).
   */
  async function deployToFleet(
    input: { name: string; compose: string; variables: Record<string, string>; catalogApp?: string | null },
    plan: StackPlan,
    actor: Actor,
    emit: Emit,
    redeployOf?: { catalogApp: string | null },
  ): Promise<Deployment> {
    const run = async () => {
      if (!redeployOf) await preflightDeploy({ ...input, target: 'fleet' }, false);
      const warnings = [...plan.warnings, ...fleetWarnings(plan)];
      for (const warning of warnings) emit({ type: 'step', message: warning });
      const catalogApp = redeployOf ? redeployOf.catalogApp : (input.catalogApp ?? null);
      const id = repo.startDeployment({
        stack: input.name,
        action: redeployOf ? 'redeploy' : 'deploy',
        catalogApp,
        userId: actor.id,
        userName: actor.name,
      });
      const outcome = emptyOutcome();
      try {
        await fleet.apply(input.name, plan, id, outcome, emit);
        repo.saveStack({
          name: input.name,
          compose: input.compose,
          variablesSealed: sealVariables(input.variables),
          catalogApp,
          userId: actor.id,
          target: 'fleet',
        });
        outcome.standing = await standing(input.name, 'fleet');
        return repo.finishDeployment(id, 'success', warnings.join(' ') || null, outcome);
      } catch (err) {
        if (outcome.created.length) emit({ type: 'step', message: 'Removing what this deployment created' });
        await fleet.undo(outcome, emit);
        outcome.standing = await standing(input.name, 'fleet');
        throw failed(id, err, outcome);
      }
    };
    // A redeploy already holds the stack (redeploy's exclusive).
    return redeployOf ? run() : exclusive(input.name, run);
  }

  async function redeploy(
    name: string,
    opts: { pull: boolean; compose?: string; variables?: Record<string, string> },
    actor: Actor,
    emit: Emit = silent,
    signal?: AbortSignal,
  ): Promise<Deployment> {
    return exclusive(name, async () => {
      const { stored, compose, variables, plan } = await preflightRedeploy(name, opts, false);
      if (stored.target === 'fleet') {
        return deployToFleet({ name, compose, variables }, plan, actor, emit, {
          catalogApp: stored.catalogApp,
        });
      }
      const id = repo.startDeployment({
        stack: name,
        action: 'redeploy',
        catalogApp: stored.catalogApp,
        userId: actor.id,
        userName: actor.name,
      });
      const names = stackNames(name, plan);
      const outcome = emptyOutcome();
      // Old containers are stopped and renamed aside, not removed, until the new ones run.
      const aside: { id: string; name: string; wasRunning: boolean }[] = [];
      try {
        if (opts.pull) await pullImages(await imagesToPull(plan, 'all'), emit, outcome, signal);
        else await pullImages(await imagesToPull(plan, 'missing'), emit, outcome, signal);
        const old = await projectContainers(name);
        for (const c of [...old].reverse()) {
          const original = containerName(c);
          emit({ type: 'step', message: `Stopping ${original}` });
          await engine.stopContainer(c.Id);
          await engine.renameContainer(c.Id, `${original}-replaced-${id}`);
          aside.push({ id: c.Id, name: original, wasRunning: c.State === 'running' });
        }
        await ensureNetworksAndVolumes(name, plan, names, outcome, emit);
        await createAndStart(name, plan, names, id, outcome, emit);
        for (const c of aside) {
          await engine.removeContainer(c.id, { force: true });
          outcome.removed.push(c.name);
        }
        repo.saveStack({
          name,
          compose,
          variablesSealed: sealVariables(variables),
          catalogApp: stored.catalogApp,
          userId: actor.id,
        });
        outcome.standing = await standing(name);
        return repo.finishDeployment(id, 'success', plan.warnings.join(' ') || null, outcome);
      } catch (err) {
        emit({ type: 'step', message: 'Restoring the previous containers' });
        await rollback(outcome, emit);
        for (const c of aside.reverse()) {
          try {
            await engine.renameContainer(c.id, c.name);
            if (c.wasRunning) await engine.startContainer(c.id);
            emit({ type: 'step', message: `Restored ${c.name}` });
          } catch (restoreErr) {
            emit({ type: 'step', message: `Could not restore ${c.name}: ${(restoreErr as Error).message}` });
          }
        }
        outcome.standing = await standing(name);
        throw failed(id, err, outcome);
      }
    });
  }

  async function simpleAction(
    name: string,
    action: 'start' | 'stop' | 'remove',
    actor: Actor,
    fn: (containers: EngineContainer[], outcome: DeploymentOutcome) => Promise<void>,
  ): Promise<Deployment> {
    return exclusive(name, async () => {
      const containers = await projectContainers(name);
      const stored = repo.getStack(name);
      if (containers.length === 0 && !stored) throw new HttpError(404, `No stack named ${name}`);
      if (stored?.target === 'fleet' && action !== 'remove') {
        throw new HttpError(
          409,
          `The stack ${name} runs on the fleet: its services are scaled (to 0 and back), not stopped and started`,
        );
      }
      const id = repo.startDeployment({
        stack: name,
        action,
        catalogApp: stored?.catalogApp ?? null,
        userId: actor.id,
        userName: actor.name,
      });
      const outcome = emptyOutcome();
      try {
        await fn(containers, outcome);
        outcome.standing = await standing(name);
        return repo.finishDeployment(id, 'success', null, outcome);
      } catch (err) {
        outcome.standing = await standing(name);
        throw failed(id, err, outcome);
      }
    });
  }

  /** `docker stack rm`: the stack's services and networks; its stored compose file goes too. */
  async function removeFromFleet(name: string, actor: Actor): Promise<Deployment> {
    return exclusive(name, async () => {
      const stored = repo.getStack(name);
      if (stored && stored.target !== 'fleet') {
        throw new HttpError(
          409,
          `The stack ${name} runs on this hub, not on the fleet: remove it from the hub's stacks`,
        );
      }
      await fleet.requireManager();
      const present = await fleet.services(name);
      if (present.length === 0 && !stored) throw new HttpError(404, `No stack named ${name} on the fleet`);
      const id = repo.startDeployment({
        stack: name,
        action: 'remove',
        catalogApp: stored?.catalogApp ?? null,
        userId: actor.id,
        userName: actor.name,
      });
      const outcome = emptyOutcome();
      try {
        await fleet.remove(name, outcome);
        repo.deleteStack(name);
        outcome.standing = await standing(name, 'fleet');
        return repo.finishDeployment(id, 'success', null, outcome);
      } catch (err) {
        outcome.standing = await standing(name, 'fleet');
        throw failed(id, err, outcome);
      }
    });
  }

  function summarizeFleet(
    name: string,
    services: EngineService[],
    stored: { catalogApp: string | null; updatedAt: Date } | undefined,
  ): StackSummary {
    const list = fleet.summarizeServices(name, services);
    const runningCount = list.filter((s) => s.state === 'running').length;
    return {
      name,
      source: stored ? 'console' : 'external',
      status:
        list.length === 0
          ? 'missing'
          : runningCount === list.length
            ? 'running'
            : runningCount === 0
              ? 'stopped'
              : 'partial',
      catalogApp: stored?.catalogApp ?? null,
      target: 'fleet',
      services: list,
      updatedAt: stored?.updatedAt.toISOString() ?? null,
    };
  }

  return {
    preflightDeploy,
    preflightRedeploy,
    deploy,
    redeploy,
    variablesOf: (stored: { variablesSealed: string }) => openVariables(stored.variablesSealed),

    start: (name: string, actor: Actor) =>
      simpleAction(name, 'start', actor, async (containers) => {
        for (const c of containers) await engine.startContainer(c.Id);
      }),

    stop: (name: string, actor: Actor, t?: number) =>
      simpleAction(name, 'stop', actor, async (containers) => {
        for (const c of [...containers].reverse()) await engine.stopContainer(c.Id, t);
      }),

    remove: (name: string, actor: Actor, opts: { volumes: boolean }) =>
      repo.getStack(name)?.target === 'fleet'
        ? removeFromFleet(name, actor)
        : simpleAction(name, 'remove', actor, async (containers, outcome) => {
            for (const c of [...containers].reverse()) {
              await engine.removeContainer(c.Id, { force: true, volumes: opts.volumes });
              outcome.removed.push(containerName(c));
            }
            for (const network of await engine.listNetworks({ label: [`${LABEL.project}=${name}`] })) {
              await engine.removeNetwork(network.name);
              outcome.removed.push(network.name);
            }
            if (opts.volumes) {
              for (const volume of await engine.listVolumes({ label: [`${LABEL.project}=${name}`] })) {
                await engine.removeVolume(volume.name);
                outcome.removed.push(volume.name);
              }
            }
            repo.deleteStack(name);
          }),

    async list(): Promise<StackSummary[]> {
      const [all, swarmServices] = await Promise.all([
        engine.listContainers({ label: [LABEL.project] }),
        fleet.services(),
      ]);
      const stored = new Map(repo.listStacks().map((s) => [s.name, s]));
      const byProject = new Map<string, EngineContainer[]>();
      for (const c of all.sort(byCreated)) {
        const project = c.Labels[LABEL.project]!;
        byProject.set(project, [...(byProject.get(project) ?? []), c]);
      }
      const onFleet = groupByStack(swarmServices);
      const names = new Set([...byProject.keys(), ...stored.keys(), ...onFleet.keys()]);
      return [...names].sort().map((name) => {
        const row = stored.get(name);
        if (row?.target === 'fleet' || (!row && !byProject.has(name))) {
          return summarizeFleet(name, onFleet.get(name) ?? [], row);
        }
        return summarize(name, byProject.get(name) ?? [], row);
      });
    },

    async get(name: string): Promise<StackDetail> {
      const containers = await projectContainers(name);
      const stored = repo.getStack(name);
      const swarmServices =
        stored?.target === 'fleet' || (!stored && containers.length === 0) ? await fleet.services(name) : [];
      if (containers.length === 0 && !stored && swarmServices.length === 0) {
        throw new HttpError(404, `No stack named ${name}`);
      }
      const summary =
        stored?.target === 'fleet' || swarmServices.length > 0
          ? summarizeFleet(name, swarmServices, stored)
          : summarize(name, containers, stored);
      return {
        ...summary,
        compose: stored?.compose ?? null,
        variableNames: stored ? Object.keys(openVariables(stored.variablesSealed)) : [],
      };
    },

    history: (opts: { stack?: string; limit: number }) => repo.listDeployments(opts),

    /** `GET /api/fleet/stacks`: every stack on the swarm, as `docker stack ls` lists them. */
    async fleetList(): Promise<{ name: string; services: number; managed: boolean }[]> {
      const groups = groupByStack(await fleet.services());
      const stored = repo.listStacks().filter((s) => s.target === 'fleet');
      const names = new Set([...groups.keys(), ...stored.map((s) => s.name)]);
      return [...names].sort().map((name) => ({
        name,
        services: groups.get(name)?.length ?? 0,
        managed: stored.some((s) => s.name === name),
      }));
    },
    removeFromFleet,
    storedStack: (name: string) => repo.getStack(name),
  };
}

function summarize(
  name: string,
  containers: EngineContainer[],
  stored: { catalogApp: string | null; updatedAt: Date } | undefined,
): StackSummary {
  const runningCount = containers.filter((c) => c.State === 'running').length;
  return {
    name,
    source: stored ? 'console' : 'external',
    status:
      containers.length === 0
        ? 'missing'
        : runningCount === containers.length
          ? 'running'
          : runningCount === 0
            ? 'stopped'
            : 'partial',
    catalogApp: stored?.catalogApp ?? null,
    target: 'hub',
    services: containers.map((c) => ({
      service: c.Labels[LABEL.service] ?? containerName(c),
      containerId: c.Id,
      containerName: containerName(c),
      image: c.Image,
      state: c.State,
      status: c.Status,
    })),
    updatedAt: stored?.updatedAt.toISOString() ?? null,
  };
}

export type StacksService = ReturnType<typeof createStacksService>;
