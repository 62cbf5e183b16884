import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { DockerAdapter, EngineContainer, EngineContainerInspect } from '../../adapters/docker.js';
import { parseImageRef, type RegistryAdapter } from '../../adapters/registry.js';
import type {
  ContainerUpdateCheck,
  ContainerUpdateResult,
  DockerUpdates,
} from '../../contract/docker-updates.js';
import { inBackground } from '../../lib/background.js';
import { HttpError } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { AuditLog } from '../audit/index.js';
import { buildCreateSpec, compareDigests, localDigestsFor, type ImageDefaults } from './recreate.js';

/**
 * Safe container updates (issue 20). The check compares the digest the local image was pulled with
 * against the registry's current one for the tag, pulling nothing; answers are cached in memory and
 * renewed every 6 h. An update pulls the tag, keeps the old container (stopped, renamed) until the
 * new one proves itself (healthy, or running for 30 s without a healthcheck), and otherwise puts the
 * old one back. The hub's own container is refused (the agent cannot watch its own replacement).
 */

export const CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;
/** The first check after start waits a little, so booting does not hit every registry at once. */
const FIRST_CHECK_DELAY_MS = 60_000;
/** A container without a healthcheck proves itself by running this long. */
export const RUNNING_PROOF_MS = 30_000;
/** Bound on waiting for a healthcheck verdict, beyond what its own settings allow. */
const HEALTH_MARGIN_MS = 30_000;
const MAX_HEALTH_WAIT_MS = 10 * 60_000;
const POLL_MS = 500;

export type UpdateListener = (check: ContainerUpdateCheck) => void;

export interface UpdatesDeps {
  engine: DockerAdapter;
  registry: RegistryAdapter;
  audit: Pick<AuditLog, 'record'>;
  log: Logger;
  /** NEXUS_AGENT_CONTAINER: the name or id of the container this agent runs in, when known. */
  agentContainer?: string;
  /**
   * A backup before the hub's own update (the backups feature). Kept for when the hub's swap is
   * delegated to a helper; today the hub's update is refused before anything changes.
   */
  beforeHubUpdate?: () => Promise<void>;
  /** How long a container without a healthcheck must run to count as good (tests shorten it). */
  runningProofMs?: number;
  checkIntervalMs?: number;
  onShutdown?: (stop: () => void) => void;
  now?: () => number;
}

/** The ids this process could be running in: a container's hostname is its short id, the cgroup holds its id. */
function selfContainerHints(): { hostname: string | null; cgroupIds: string[] } {
  const hostname = os.hostname();
  let cgroup = '';
  try {
    cgroup = readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    // Not Linux, or no procfs: the hostname and the env variable remain.
  }
  return {
    hostname: /^[a-f0-9]{12}$/.test(hostname) ? hostname : null,
    cgroupIds: [...cgroup.matchAll(/[a-f0-9]{64}/g)].map((m) => m[0]),
  };
}

const nameOf = (c: { Names?: string[]; Name?: string; Id: string }) =>
  (c.Names?.[0] ?? c.Name ?? c.Id.slice(0, 12)).replace(/^\//, '');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds of the engine's nanosecond durations. */
const ns = (v: number | undefined, fallback: number) => (v && v > 0 ? v / 1e6 : fallback);

class UpdateFailure extends Error {}

const LOCAL_IMAGE =
  'The image was built or imported here, not pulled from a registry, so no registry knows it';

export function createUpdatesService(deps: UpdatesDeps) {
  const { engine, registry } = deps;
  const now = deps.now ?? Date.now;
  const log = deps.log.child({ feature: 'docker-updates' });
  const runningProofMs = deps.runningProofMs ?? RUNNING_PROOF_MS;
  const hints = selfContainerHints();
  const listeners = new Set<UpdateListener>();
  let cache: DockerUpdates = { containers: [], checkedAt: null };
  let checking: Promise<DockerUpdates> | null = null;
  /** Null until known: whether the engine answers GET /distribution (Docker does, Podman 4 does not). */
  let engineDistribution: boolean | null = null;
  const updating = new Set<string>();

  function isHub(c: { Id: string; name: string }): boolean {
    const wanted = deps.agentContainer;
    if (
      wanted &&
      (c.Id === wanted || c.name === wanted || (wanted.length >= 12 && c.Id.startsWith(wanted)))
    ) {
      return true;
    }
    if (hints.hostname && c.Id.startsWith(hints.hostname)) return true;
    return hints.cgroupIds.includes(c.Id);
  }

  /** The registry's digest: asked through the engine when it can, else directly (both behind the guard). */
  async function remoteDigest(image: string): Promise<string> {
    const ref = parseImageRef(image)!;
    await registry.checkAllowed(ref);
    if (engineDistribution !== false) {
      const digest = await engine.distributionDigest(image);
      if (digest) {
        engineDistribution = true;
        return digest;
      }
      engineDistribution = false;
    }
    return registry.tagDigest(ref);
  }

  async function checkOne(c: EngineContainer): Promise<ContainerUpdateCheck> {
    const name = nameOf(c);
    const base = {
      containerId: c.Id,
      name,
      image: c.Image,
      isHub: isHub({ Id: c.Id, name }),
      checkedAt: new Date(now()).toISOString(),
    };
    const unknown = (reason: string, localDigest: string | null = null): ContainerUpdateCheck => ({
      ...base,
      state: 'unknown',
      localDigest,
      remoteDigest: null,
      reason,
    });
    const ref = parseImageRef(c.Image);
    if (!ref)
      return unknown(
        'The container was created from an image id, not a name and tag, so there is nothing to compare',
      );
    if (ref.digest)
      return unknown('The image is pinned to a digest; it changes only when its reference is edited');
    // Podman names images it built or imported "localhost/…" (and gives them digests of its own).
    if (ref.registry === 'localhost') return unknown(LOCAL_IMAGE);
    const local = await engine.inspectImage(c.ImageID).catch(() => null);
    const localDigests = local ? localDigestsFor(c.Image, local.repoDigests) : [];
    if (!localDigests.length) {
      // No digest: built here, unless the tag has moved on to another image (pulled since), which
      // leaves the container's image untagged and without digests. Then the registry decides.
      const tagged = await engine.inspectImage(c.Image).catch(() => null);
      if (!tagged || tagged.id === c.ImageID) return unknown(LOCAL_IMAGE);
    }
    try {
      const remote = await remoteDigest(c.Image);
      return {
        ...base,
        state: compareDigests(localDigests, remote),
        localDigest: localDigests.includes(remote) ? remote : (localDigests[0] ?? null),
        remoteDigest: remote,
        reason: null,
      };
    } catch (err) {
      return unknown((err as Error).message || 'The registry could not be asked', localDigests[0] ?? null);
    }
  }

  async function checkAll(): Promise<DockerUpdates> {
    const containers = await engine.listContainers();
    const results: ContainerUpdateCheck[] = [];
    // One at a time: a hub has a handful of containers, and registries limit anonymous callers.
    for (const c of containers) results.push(await checkOne(c));
    const previous = new Map(cache.containers.map((r) => [r.containerId, r]));
    cache = { containers: results, checkedAt: new Date(now()).toISOString() };
    for (const r of results) {
      const before = previous.get(r.containerId);
      // Told once per new registry digest, not at every check.
      if (r.state === 'update-available' && before?.remoteDigest !== r.remoteDigest) {
        for (const listener of listeners) {
          try {
            listener(r);
          } catch (err) {
            log.error({ err }, 'an update listener failed');
          }
        }
      }
    }
    return cache;
  }

  function refresh(): Promise<DockerUpdates> {
    checking ??= checkAll().finally(() => (checking = null));
    return checking;
  }

  // The periodic check: a timer whose stop is registered for shutdown.
  const tick = () => inBackground(log, 'the container update check', refresh);
  const first = setTimeout(tick, FIRST_CHECK_DELAY_MS);
  const every = setInterval(tick, deps.checkIntervalMs ?? CHECK_INTERVAL_MS);
  first.unref();
  every.unref();
  deps.onShutdown?.(() => {
    clearTimeout(first);
    clearInterval(every);
  });

  /** Waits until the new container has proved itself; throws UpdateFailure with the reason otherwise. */
  async function waitUntilGood(id: string): Promise<void> {
    const started = now();
    const first = await engine.inspectContainer(id);
    const hc = (
      first.Config as {
        Healthcheck?: {
          Test?: string[];
          Interval?: number;
          Timeout?: number;
          Retries?: number;
          StartPeriod?: number;
        };
      }
    ).Healthcheck;
    const hasHealthcheck = !!hc?.Test?.length && hc.Test[0] !== 'NONE';
    const interval = ns(hc?.Interval, 30_000);
    const limit = hasHealthcheck
      ? Math.min(
          MAX_HEALTH_WAIT_MS,
          ns(hc?.StartPeriod, 0) +
            (interval + ns(hc?.Timeout, 30_000)) * ((hc?.Retries || 3) + 1) +
            HEALTH_MARGIN_MS,
        )
      : runningProofMs;
    let lastRun = started;
    for (;;) {
      const info = await engine.inspectContainer(id);
      const state = info.State as EngineContainerInspect['State'] & {
        Health?: { Status?: string; Log?: { Output?: string }[] };
      };
      if (!state.Running || state.Restarting || (info.RestartCount ?? 0) > 0) {
        throw new UpdateFailure(`The new container stopped (exit code ${state.ExitCode ?? 'unknown'})`);
      }
      if (hasHealthcheck) {
        let health = state.Health?.Status;
        // Podman without systemd never runs healthchecks by itself: ask it to, once per interval.
        if (health === 'starting' && now() - lastRun >= Math.min(interval, 2_000)) {
          lastRun = now();
          health = (await engine.runHealthcheck(id)) ?? health;
        }
        if (health === 'healthy') return;
        if (health === 'unhealthy') {
          const output = state.Health?.Log?.at(-1)?.Output?.trim();
          throw new UpdateFailure(
            `The new container's healthcheck failed${output ? `: ${output.slice(0, 200)}` : ''}`,
          );
        }
        if (now() - started > limit) {
          throw new UpdateFailure(`The new container was not healthy within ${Math.round(limit / 1000)} s`);
        }
      } else if (now() - started >= runningProofMs) {
        return;
      }
      await sleep(POLL_MS);
    }
  }

  async function update(idOrName: string): Promise<ContainerUpdateResult> {
    const old = await engine.inspectContainer(idOrName);
    const name = old.Name.replace(/^\//, '');
    if (updating.has(old.Id)) throw new HttpError(409, `${name} is being updated already`);
    if (isHub({ Id: old.Id, name })) {
      throw new HttpError(
        409,
        `${name} runs this hub: the hub cannot replace the container it runs in and watch the new one. ` +
          'Take a backup in Nexus management, then update it on the host (e.g. `docker compose pull && docker compose up -d`).',
      );
    }
    const image = old.Config.Image;
    const ref = parseImageRef(image);
    if (!ref || ref.digest) {
      throw new HttpError(
        409,
        `${name} has no tag to update (${ref ? 'pinned to a digest' : 'created from an image id'})`,
      );
    }
    updating.add(old.Id);
    try {
      return await replace(old, name, image);
    } finally {
      updating.delete(old.Id);
    }
  }

  async function replace(
    old: EngineContainerInspect,
    name: string,
    image: string,
  ): Promise<ContainerUpdateResult> {
    const from = old.Image;
    const rolledBack = (reason: string): ContainerUpdateResult => {
      deps.audit.record({
        type: 'container_updated',
        outcome: 'failure',
        target: name,
        details: { image, from, reason },
      });
      log.warn({ container: name, reason }, 'container update rolled back');
      return { result: 'rolled-back', from, to: from, reason };
    };
    try {
      await engine.pullImage(image, () => {});
    } catch (err) {
      return rolledBack(`The image could not be pulled: ${(err as Error).message}`);
    }
    const pulled = await engine.inspectImage(image, { withHealthcheck: true });
    if (!pulled) return rolledBack('The pulled image is not on the engine');
    const oldImage = await engine.inspectImage(from, { withHealthcheck: true }).catch(() => null);
    const plan = buildCreateSpec(
      old,
      image,
      name,
      (oldImage?.config ?? {}) as ImageDefaults,
      pulled.config as ImageDefaults,
    );
    const wasRunning = old.State.Running;
    if (pulled.id === from) {
      return { result: 'updated', from, to: from, reason: null, containerId: old.Id };
    }
    // A unique name: a leftover from an earlier, interrupted update must not block this one.
    const keptName = `${name}-nexus-previous-${now().toString(36)}`;
    await engine.stopContainer(old.Id);
    try {
      await engine.renameContainer(old.Id, keptName);
    } catch (err) {
      if (wasRunning) await engine.startContainer(old.Id);
      throw err;
    }
    let newId: string | null = null;
    try {
      try {
        newId = await engine.createContainer(plan.spec);
        for (const net of plan.extraNetworks) await engine.connectNetwork(net.name, newId, net.aliases);
      } catch (err) {
        throw new UpdateFailure(`The new container could not be created: ${(err as Error).message}`);
      }
      if (wasRunning) {
        try {
          await engine.startContainer(newId);
        } catch (err) {
          throw new UpdateFailure(`The new container could not start: ${(err as Error).message}`);
        }
        await waitUntilGood(newId);
      }
    } catch (err) {
      const reason =
        err instanceof UpdateFailure ? err.message : `The update failed: ${(err as Error).message}`;
      // Put the old container back as it was; a failure here is the owner's to see at once.
      try {
        if (newId) await engine.removeContainer(newId, { force: true });
        await engine.renameContainer(old.Id, name);
        if (wasRunning) await engine.startContainer(old.Id);
      } catch (restoreErr) {
        log.error({ err: restoreErr, container: name }, 'restoring the old container failed');
        throw new HttpError(
          502,
          `The update of ${name} failed (${reason}) and the old container could not be restored: ${(restoreErr as Error).message}. It is kept as ${keptName}.`,
        );
      }
      return rolledBack(reason);
    }
    await engine.removeContainer(old.Id, { force: true });
    deps.audit.record({
      type: 'container_updated',
      outcome: 'success',
      target: name,
      details: { image, from, to: pulled.id },
    });
    log.info({ container: name, from, to: pulled.id }, 'container updated');
    // The cached check for this container is stale now; the next list shows it afresh.
    cache = { ...cache, containers: cache.containers.filter((r) => r.containerId !== old.Id) };
    return { result: 'updated', from, to: pulled.id, reason: null, containerId: newId! };
  }

  return {
    /** The last check's answers, or a fresh check (`refresh`, or when none has run yet). */
    async list(opts: { refresh: boolean }): Promise<DockerUpdates> {
      if (opts.refresh || cache.checkedAt === null) return refresh();
      return cache;
    },
    update,
    /** Issue 19's notifications subscribe here: told when a container's tag gets a new image. */
    onUpdateAvailable(listener: UpdateListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type UpdatesService = ReturnType<typeof createUpdatesService>;
