import type { EngineServiceSpec } from '../../adapters/docker.js';
import { STACK_NAMESPACE_LABEL } from '../../contract/fleet.js';
import { HttpError } from '../../lib/http-error.js';
import {
  durationNanos as nanos,
  engineHealthcheck,
  engineSysctls,
  type ServicePlan,
  type StackPlan,
} from './compose.js';

/**
 * A compose stack as swarm services, the way `docker stack deploy` makes them (docker/cli's
 * cli/compose/convert): services `<stack>_<service>`, networks and volumes `<stack>_<key>`, the
 * namespace label on services, their containers and networks, and `com.docker.stack.image` on the
 * service, so `docker stack ls` / `docker stack services` see the same stack as the console.
 */

/** The image as the compose file names it; the CLI labels services with it. */
export const STACK_IMAGE_LABEL = 'com.docker.stack.image';
/** Ours: the console deployment that last wrote the service. */
export const DEPLOYMENT_LABEL = 'io.nexus.console.deployment';

export interface FleetNames {
  service(name: string): string;
  /** The engine name of a network key; external networks (e.g. `host`) keep their own name. */
  network(key: string): string;
  volume(key: string): string;
}

export function fleetNames(stack: string, plan: StackPlan): FleetNames {
  return {
    service: (name) => `${stack}_${name}`,
    network: (key) => {
      const declared = plan.networks.find((n) => n.key === key);
      if (declared?.external) return declared.name ?? key;
      return declared?.name ?? `${stack}_${key}`;
    },
    volume: (key) => {
      const declared = plan.volumes.find((v) => v.key === key);
      if (declared?.external) return declared.name ?? key;
      return declared?.name ?? `${stack}_${key}`;
    },
  };
}

/** The stack's networks this engine must create: the ones a service uses that are not external. */
export function networksToCreate(
  plan: StackPlan,
  names: FleetNames,
): { key: string; name: string; labels: Record<string, string> }[] {
  const used = new Set(plan.services.flatMap((s) => s.networks.map((n) => n.name)));
  return [...used]
    .map((key) => ({ key, declared: plan.networks.find((n) => n.key === key) }))
    .filter(({ declared }) => !declared?.external)
    .map(({ key, declared }) => ({ key, name: names.network(key), labels: declared?.labels ?? {} }));
}

function bytes(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return value;
  const match = /^(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?$/i.exec(value.trim());
  if (!match) throw new HttpError(400, `Cannot read the size ${value}`);
  const power = ['', 'k', 'm', 'g', 't'].indexOf(match[2]!.toLowerCase());
  return Math.round(Number(match[1]) * 1024 ** power);
}

function cpus(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new HttpError(400, `Cannot read the CPU count ${value}`);
  return Math.round(n * 1e9);
}

type UpdateConfigInput = NonNullable<NonNullable<ServicePlan['raw']['deploy']>['update_config']>;

function updateConfig(config: UpdateConfigInput | undefined) {
  if (!config) return undefined;
  // The CLI's defaults for keys the file leaves out: one task at a time, stop-first.
  return {
    Parallelism: config.parallelism ?? 1,
    Delay: nanos(config.delay),
    FailureAction: config.failure_action,
    Monitor: nanos(config.monitor),
    MaxFailureRatio: config.max_failure_ratio,
    Order: config.order ?? 'stop-first',
  };
}

/** compose's `restart:` when the file has no deploy.restart_policy (the CLI converts it so too). */
function restartPolicy(service: ServicePlan) {
  const policy = service.raw.deploy?.restart_policy;
  if (policy) {
    return {
      Condition: policy.condition,
      Delay: nanos(policy.delay),
      MaxAttempts: policy.max_attempts,
      Window: nanos(policy.window),
    };
  }
  if (service.raw.restart === undefined) return undefined;
  switch (service.restart.name) {
    case 'no':
      return { Condition: 'none' };
    case 'on-failure':
      return { Condition: 'on-failure', MaxAttempts: service.restart.maxRetries };
    default:
      return { Condition: 'any' };
  }
}

/** compose's `host:ip` (or `host=ip`) becomes swarm's `ip host`. */
function hostsEntry(entry: string): string {
  const sep = entry.search(/[:=]/);
  if (sep === -1) throw new HttpError(400, `Cannot read the extra host ${entry}`);
  return `${entry.slice(sep + 1)} ${entry.slice(0, sep)}`;
}

/** The ServiceSpec of one compose service, with the labels `docker stack deploy` puts on it. */
export function toServiceSpec(
  stack: string,
  service: ServicePlan,
  names: FleetNames,
  plan: StackPlan,
  deploymentId: number,
): EngineServiceSpec {
  const raw = service.raw;
  const deploy = raw.deploy ?? {};
  const namespace = { [STACK_NAMESPACE_LABEL]: stack };

  const mounts: Record<string, unknown>[] = service.volumes.map((v) => {
    if (v.type === 'tmpfs') return { Type: 'tmpfs', Target: v.target, ReadOnly: v.readOnly };
    if (v.type === 'anonymous') return { Type: 'volume', Target: v.target, ReadOnly: v.readOnly };
    if (v.type === 'bind') return { Type: 'bind', Source: v.source, Target: v.target, ReadOnly: v.readOnly };
    const declared = plan.volumes.find((d) => d.key === v.source);
    return {
      Type: 'volume',
      Source: names.volume(v.source!),
      Target: v.target,
      ReadOnly: v.readOnly,
      // Each node creates the volume when a task first needs it; these are its labels and driver.
      VolumeOptions: declared?.external
        ? undefined
        : {
            Labels: { ...declared?.labels, ...namespace },
            ...(declared?.driver ? { DriverConfig: { Name: declared.driver } } : {}),
          },
    };
  });
  for (const t of typeof raw.tmpfs === 'string' ? [raw.tmpfs] : (raw.tmpfs ?? [])) {
    mounts.push({ Type: 'tmpfs', Target: t.split(':')[0] });
  }

  const healthCheck = engineHealthcheck(raw.healthcheck);

  const limits = deploy.resources?.limits;
  const reservations = deploy.resources?.reservations;
  const limitCpus = cpus(raw.cpus ?? limits?.cpus);
  const limitMemory = bytes(raw.mem_limit ?? limits?.memory);
  const resources = {
    ...(limitCpus !== undefined || limitMemory !== undefined
      ? { Limits: { NanoCPUs: limitCpus, MemoryBytes: limitMemory } }
      : {}),
    ...(reservations?.cpus !== undefined || reservations?.memory !== undefined
      ? { Reservations: { NanoCPUs: cpus(reservations.cpus), MemoryBytes: bytes(reservations.memory) } }
      : {}),
  };

  const placement = deploy.placement;
  const networks =
    service.networkMode === 'host'
      ? [{ Target: 'host' }]
      : service.networks.map((n) => ({
          Target: names.network(n.name),
          Aliases: [service.name, ...n.aliases],
        }));

  const extraHosts = Array.isArray(raw.extra_hosts)
    ? raw.extra_hosts.map(hostsEntry)
    : raw.extra_hosts
      ? Object.entries(raw.extra_hosts).map(([host, ip]) => `${ip} ${host}`)
      : undefined;

  const spec = {
    Name: names.service(service.name),
    Labels: {
      ...toLabels(deploy.labels),
      ...namespace,
      [STACK_IMAGE_LABEL]: service.image,
      [DEPLOYMENT_LABEL]: String(deploymentId),
    },
    TaskTemplate: {
      ContainerSpec: {
        Image: service.image,
        Labels: { ...service.labels, ...namespace },
        // compose's entrypoint is the container's Command and its command the Args (as the CLI maps them).
        Command: service.entrypoint ?? undefined,
        Args: service.command ?? undefined,
        Env: Object.entries(service.environment).map(([k, v]) => `${k}=${v}`),
        Hostname: raw.hostname,
        User: raw.user,
        Dir: raw.working_dir,
        Groups: raw.group_add,
        Init: raw.init,
        TTY: raw.tty,
        OpenStdin: raw.stdin_open,
        Mounts: mounts,
        StopSignal: raw.stop_signal,
        StopGracePeriod: nanos(raw.stop_grace_period),
        HealthCheck: healthCheck,
        Hosts: extraHosts,
        DNSConfig: raw.dns ? { Nameservers: typeof raw.dns === 'string' ? [raw.dns] : raw.dns } : undefined,
        Sysctls: engineSysctls(raw.sysctls),
        CapabilityAdd: raw.cap_add,
        CapabilityDrop: raw.cap_drop,
      },
      Resources: resources,
      RestartPolicy: restartPolicy(service),
      Placement: placement
        ? {
            Constraints: placement.constraints,
            Preferences: placement.preferences?.map((p) => ({ Spread: { SpreadDescriptor: p.spread } })),
            MaxReplicas: placement.max_replicas_per_node,
          }
        : undefined,
      Networks: networks,
    },
    Mode: deploy.mode === 'global' ? { Global: {} } : { Replicated: { Replicas: deploy.replicas ?? 1 } },
    UpdateConfig: updateConfig(deploy.update_config),
    RollbackConfig: updateConfig(deploy.rollback_config),
    EndpointSpec: {
      Mode: deploy.endpoint_mode ?? 'vip',
      Ports:
        service.networkMode === 'host'
          ? []
          : service.ports.map((p) => ({
              Protocol: p.protocol as 'tcp' | 'udp' | 'sctp',
              TargetPort: p.containerPort,
              PublishedPort: p.hostPort ? Number(p.hostPort) : undefined,
              // Host mode unless the file asks for the routing mesh (see docs/fleet.md).
              PublishMode: p.mode ?? 'host',
            })),
    },
  };
  if (deploy.mode === 'global' && deploy.replicas !== undefined) {
    throw new HttpError(
      400,
      `services.${service.name}: deploy.replicas cannot be used with deploy.mode: global`,
    );
  }
  // dockerode types every mount with a Source; anonymous volumes and tmpfs mounts have none.
  return spec as unknown as EngineServiceSpec;
}

function toLabels(value: Record<string, string | null> | string[] | undefined): Record<string, string> {
  if (!value) return {};
  if (Array.isArray(value)) {
    return Object.fromEntries(
      value.map((entry) => {
        const eq = entry.indexOf('=');
        return eq === -1 ? [entry, ''] : [entry.slice(0, eq), entry.slice(eq + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v ?? '']));
}

/** Warnings for the deploy's progress: what the engine of this test machine or any hub may not do. */
export function fleetWarnings(plan: StackPlan): string[] {
  const warnings: string[] = [];
  for (const service of plan.services) {
    const raw = service.raw.ports ?? [];
    if (service.networkMode !== 'host' && raw.some((p) => typeof p !== 'object' || !p.mode)) {
      warnings.push(
        `services.${service.name}: ports are published in host mode, on the node that runs each task (write mode: ingress for the routing mesh).`,
      );
    }
  }
  return warnings;
}
