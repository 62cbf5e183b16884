import type { ContainerCreateSpec, EngineContainerInspect } from '../../adapters/docker.js';
import { parseImageRef, repoName } from '../../adapters/registry.js';

/**
 * Pure parts of a container update: comparing digests, and the create body that recreates a
 * container from its inspection with a new image (what `docker run` was given, nothing more).
 */

/** The image's own defaults (its config), which a container inherits unless it set its own. */
export interface ImageDefaults {
  Env?: string[] | null;
  Cmd?: string[] | null;
  Entrypoint?: string[] | string | null;
  Labels?: Record<string, string> | null;
  WorkingDir?: string;
  User?: string;
  ExposedPorts?: Record<string, object> | null;
  Volumes?: Record<string, object> | null;
  Healthcheck?: unknown;
  StopSignal?: string;
}

/**
 * Whether the registry's digest is one the local image was pulled with. RepoDigests list every
 * manifest digest the image is known by, per repository ("nginx@sha256:…" on Docker,
 * "docker.io/library/nginx@sha256:…" on Podman): only the entries of the reference's repository count.
 */
export function localDigestsFor(image: string, repoDigests: readonly string[]): string[] {
  const ref = parseImageRef(image);
  if (!ref) return [];
  const repo = repoName(ref);
  return repoDigests.flatMap((entry) => {
    const parsed = parseImageRef(entry);
    return parsed?.digest && repoName(parsed) === repo ? [parsed.digest] : [];
  });
}

export function compareDigests(
  localDigests: readonly string[],
  remoteDigest: string,
): 'up-to-date' | 'update-available' {
  return localDigests.includes(remoteDigest) ? 'up-to-date' : 'update-available';
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
/** A value the container set itself, or undefined when it is the old image's default (the new image's applies). */
const own = <T>(value: T, imageDefault: unknown): T | undefined =>
  same(value, imageDefault) ? undefined : value;

/**
 * Whether the container's healthcheck is the image's: the engine fills defaults the image left out
 * (Podman adds Timeout), so only what the image set is compared.
 */
function healthcheckFromImage(container: unknown, image: unknown): boolean {
  if (!container || !image || typeof container !== 'object' || typeof image !== 'object')
    return same(container, image);
  const c = container as Record<string, unknown>;
  // Zero durations mean "the engine's default", which the container's inspection shows filled in.
  return Object.entries(image as Record<string, unknown>).every(([k, v]) => !v || same(c[k], v));
}

/** Networks every engine has: the container joins them through HostConfig.NetworkMode, not by name. */
const BUILT_IN_NETWORKS = new Set(['bridge', 'host', 'none', 'default', 'podman']);

export interface RecreatePlan {
  spec: ContainerCreateSpec;
  /** Networks to connect after create (the engine's create takes one), with their aliases. */
  extraNetworks: { name: string; aliases: string[] }[];
}

/**
 * The create body for `name` from the old container's inspection, with `image`. What the old image
 * supplied (its ENV, CMD, labels, healthcheck…) is left out so the new image's own defaults apply;
 * what the owner gave the container is kept. HostConfig (mounts, ports, restart policy, devices,
 * resources) is taken as a whole, and anonymous volumes are named so their data stays.
 */
export function buildCreateSpec(
  old: EngineContainerInspect,
  image: string,
  name: string,
  oldImage: ImageDefaults = {},
  newImage: ImageDefaults = {},
): RecreatePlan {
  const cfg = old.Config as EngineContainerInspect['Config'] & {
    Healthcheck?: unknown;
    StopSignal?: string;
    StopTimeout?: number;
    Volumes?: Record<string, object> | null;
  };
  const imageEnv = new Set(oldImage.Env ?? []);
  const env = (cfg.Env ?? []).filter((e) => !imageEnv.has(e));
  const imageLabels = oldImage.Labels ?? {};
  const labels = Object.fromEntries(
    Object.entries(cfg.Labels ?? {}).filter(([k, v]) => imageLabels[k] !== v),
  );
  // The engine makes the hostname from the id; a new container gets its own.
  const hostname = cfg.Hostname && !old.Id.startsWith(cfg.Hostname) ? cfg.Hostname : undefined;

  const hostConfig = { ...(old.HostConfig as Record<string, unknown>) } as Record<string, unknown> & {
    Binds?: string[] | null;
    Mounts?: { Type?: string; Source?: string; Target?: string; ReadOnly?: boolean }[] | null;
  };
  const declared = new Set<string>([
    ...(hostConfig.Binds ?? []).map((b) => b.split(':')[1] ?? ''),
    ...(hostConfig.Mounts ?? []).map((m) => m.Target ?? ''),
  ]);
  const anonymous = (old.Mounts ?? [])
    .filter((m) => m.Type === 'volume' && m.Name && !declared.has(m.Destination))
    .map((m) => ({ Type: 'volume', Source: m.Name!, Target: m.Destination, ReadOnly: !m.RW }));
  if (anonymous.length) hostConfig.Mounts = [...(hostConfig.Mounts ?? []), ...anonymous];

  const networks = Object.entries(old.NetworkSettings?.Networks ?? {})
    .filter(([net]) => !BUILT_IN_NETWORKS.has(net))
    .map(([net, endpoint]) => ({
      name: net,
      // The engine adds the old container's short id as an alias; the new one gets its own.
      aliases: (endpoint.Aliases ?? []).filter((a: string) => !old.Id.startsWith(a)),
    }));
  const mode = String(hostConfig.NetworkMode ?? '');
  const primary = networks.find((n) => n.name === mode) ?? null;

  const spec: ContainerCreateSpec = {
    name,
    Image: image,
    Hostname: hostname,
    Domainname: cfg.Domainname || undefined,
    User: own(cfg.User, oldImage.User) || undefined,
    Env: env,
    Cmd: own(cfg.Cmd, oldImage.Cmd) ?? undefined,
    Entrypoint: own(cfg.Entrypoint, oldImage.Entrypoint) ?? undefined,
    WorkingDir: own(cfg.WorkingDir, oldImage.WorkingDir) || undefined,
    Labels: labels,
    ExposedPorts: own(cfg.ExposedPorts, oldImage.ExposedPorts) ?? undefined,
    Volumes: own(cfg.Volumes, oldImage.Volumes) ?? undefined,
    // The new image's own healthcheck is named explicitly: Podman's compat create does not always
    // apply an image's healthcheck by itself, and an update must not lose the check that proves it.
    Healthcheck: (healthcheckFromImage(cfg.Healthcheck, oldImage.Healthcheck)
      ? (newImage.Healthcheck ?? undefined)
      : cfg.Healthcheck) as ContainerCreateSpec['Healthcheck'],
    StopSignal: own(cfg.StopSignal, oldImage.StopSignal) || undefined,
    StopTimeout: cfg.StopTimeout,
    Tty: cfg.Tty,
    OpenStdin: cfg.OpenStdin,
    StdinOnce: cfg.StdinOnce,
    AttachStdin: cfg.AttachStdin,
    AttachStdout: cfg.AttachStdout,
    AttachStderr: cfg.AttachStderr,
    HostConfig: hostConfig as ContainerCreateSpec['HostConfig'],
    ...(primary
      ? { NetworkingConfig: { EndpointsConfig: { [primary.name]: { Aliases: primary.aliases } } } }
      : {}),
  };
  return { spec, extraNetworks: networks.filter((n) => n !== primary) };
}
