import type { DockerAdapter, EngineContainer, EngineStats } from '../../adapters/docker.js';
import {
  COMPOSE_PROJECT_LABEL,
  COMPOSE_SERVICE_LABEL,
  type ContainerStats,
  type ContainerSummary,
  type EngineStatus,
  type ImageSummary,
  type LogLine,
  type LogsResponse,
} from '../../contract/docker.js';
import { HttpError } from '../../lib/http-error.js';
import { memberContainerInspect, memberContainerSummary } from './member-view.js';

/** Who reads: admins see containers' configuration as is, members without its credentials. */
export interface Viewer {
  admin: boolean;
}

export function toContainerSummary(c: EngineContainer): ContainerSummary {
  const labels = c.Labels ?? {};
  return {
    id: c.Id,
    name: (c.Names?.[0] ?? c.Id.slice(0, 12)).replace(/^\//, ''),
    image: c.Image,
    imageId: c.ImageID,
    command: c.Command ?? '',
    state: c.State,
    status: c.Status ?? c.State,
    createdAt: new Date(c.Created * 1000).toISOString(),
    ports: (c.Ports ?? []).map((p) => ({
      privatePort: p.PrivatePort,
      publicPort: p.PublicPort || null,
      type: p.Type,
      ip: p.IP || null,
    })),
    labels,
    composeProject: labels[COMPOSE_PROJECT_LABEL] ?? null,
    composeService: labels[COMPOSE_SERVICE_LABEL] ?? null,
  };
}

/** `since` as the logs query accepts it, into the unix seconds the engine takes. */
export function sinceToUnixSeconds(since: string | undefined, now: number): number | undefined {
  if (!since) return undefined;
  if (/^\d+(\.\d+)?$/.test(since)) return Number(since);
  const duration = /^(\d+)([smhd])$/.exec(since);
  if (duration) {
    const seconds =
      Number(duration[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[duration[2] as 's' | 'm' | 'h' | 'd'];
    return Math.floor(now / 1000) - seconds;
  }
  const parsed = Date.parse(since);
  if (Number.isNaN(parsed)) throw new HttpError(400, `since is not a date: ${since}`);
  return Math.floor(parsed / 1000);
}

export function computeStats(id: string, previous: EngineStats, current: EngineStats): ContainerStats {
  const cpu = current.cpu_stats;
  const prev = previous === current ? current.precpu_stats : previous.cpu_stats;
  const cpuDelta = (cpu?.cpu_usage?.total_usage ?? 0) - (prev?.cpu_usage?.total_usage ?? 0);
  const systemDelta = (cpu?.system_cpu_usage ?? 0) - (prev?.system_cpu_usage ?? 0);
  const onlineCpus = cpu?.online_cpus || cpu?.cpu_usage?.percpu_usage?.length || 1;
  const cpuPercent = cpuDelta > 0 && systemDelta > 0 ? (cpuDelta / systemDelta) * onlineCpus * 100 : 0;

  const mem = current.memory_stats ?? {};
  const memStats = (mem as { stats?: Record<string, number> }).stats ?? {};
  // docker stats subtracts the page cache: inactive_file on cgroup v2, total_inactive_file/cache on v1.
  const cache = memStats.inactive_file ?? memStats.total_inactive_file ?? memStats.cache ?? 0;
  const usage = Math.max(0, (mem.usage ?? 0) - cache);
  const limit = mem.limit ?? 0;

  let rxBytes = 0;
  let txBytes = 0;
  for (const net of Object.values(current.networks ?? {})) {
    rxBytes += net.rx_bytes ?? 0;
    txBytes += net.tx_bytes ?? 0;
  }
  let readBytes = 0;
  let writeBytes = 0;
  for (const entry of current.blkio_stats?.io_service_bytes_recursive ?? []) {
    const op = entry.op.toLowerCase();
    if (op === 'read') readBytes += entry.value;
    else if (op === 'write') writeBytes += entry.value;
  }
  const named = current as EngineStats & { name?: string; pids_stats?: { current?: number } };
  return {
    id,
    name: (named.name ?? id).replace(/^\//, ''),
    readAt: current.read,
    cpuPercent: Math.round(cpuPercent * 100) / 100,
    onlineCpus,
    memory: {
      usageBytes: usage,
      limitBytes: limit,
      percent: limit > 0 ? Math.round((usage / limit) * 10000) / 100 : 0,
    },
    network: { rxBytes, txBytes },
    blockIo: { readBytes, writeBytes },
    pids: named.pids_stats?.current ?? null,
  };
}

/** A cached reading older than this is too old to compute CPU % against. */
const STATS_CACHE_MS = 60_000;
/** Without a previous reading, a second is sampled after this long (the first stats request only). */
const STATS_FIRST_GAP_MS = 1_000;

export function createDockerService(engine: DockerAdapter, now: () => number = Date.now) {
  /** The last reading per container: CPU % is the change between two readings. */
  const lastStats = new Map<string, { at: number; sample: EngineStats }>();

  async function containerTty(id: string): Promise<{ id: string; tty: boolean }> {
    const info = await engine.inspectContainer(id);
    return { id: info.Id, tty: Boolean(info.Config?.Tty) };
  }

  return {
    engine,

    async engineStatus(): Promise<EngineStatus> {
      try {
        const v = await engine.version();
        return {
          endpoint: engine.endpoint,
          reachable: true,
          message: null,
          platform: v.platform,
          version: v.version,
          apiVersion: v.apiVersion,
          os: v.os,
          arch: v.arch,
          kernelVersion: v.kernelVersion,
        };
      } catch (err) {
        const message =
          err instanceof HttpError ? err.message : `Docker engine not reachable at ${engine.endpoint}`;
        return {
          endpoint: engine.endpoint,
          reachable: false,
          message,
          platform: null,
          version: null,
          apiVersion: null,
          os: null,
          arch: null,
          kernelVersion: null,
        };
      }
    },

    async listContainers(viewer: Viewer): Promise<ContainerSummary[]> {
      const containers = (await engine.listContainers())
        .map(toContainerSummary)
        .map((c) => (viewer.admin ? c : memberContainerSummary(c)));
      return containers.sort(
        (a, b) =>
          (a.composeProject ?? '\uffff').localeCompare(b.composeProject ?? '\uffff') ||
          a.name.localeCompare(b.name),
      );
    },

    async inspect(id: string, viewer: Viewer) {
      const info = await engine.inspectContainer(id);
      return viewer.admin ? info : memberContainerInspect(info);
    },
    start: (id: string) => engine.startContainer(id),
    stop: (id: string, t?: number) => engine.stopContainer(id, t),
    restart: (id: string, t?: number) => engine.restartContainer(id, t),
    remove: (id: string, opts: { force: boolean; volumes: boolean }) => engine.removeContainer(id, opts),

    async logs(
      id: string,
      query: { tail: number | 'all'; since?: string; timestamps: boolean },
    ): Promise<LogsResponse> {
      const target = await containerTty(id);
      const lines: LogLine[] = await engine.readLogs(target.id, {
        tail: query.tail,
        since: sinceToUnixSeconds(query.since, now()),
        timestamps: query.timestamps,
        tty: target.tty,
      });
      return { containerId: target.id, tty: target.tty, lines };
    },

    containerTty,

    async stats(id: string): Promise<ContainerStats> {
      const info = await engine.inspectContainer(id);
      if (!info.State?.Running) {
        throw new HttpError(
          409,
          `Container ${info.Name.replace(/^\//, '')} is not running, so it has no stats`,
        );
      }
      let current = await engine.statsSample(info.Id);
      const cached = lastStats.get(info.Id);
      let previous: EngineStats;
      if (cached && now() - cached.at < STATS_CACHE_MS) {
        previous = cached.sample;
      } else if (current.precpu_stats?.system_cpu_usage) {
        previous = current;
      } else {
        previous = current;
        await new Promise((r) => setTimeout(r, STATS_FIRST_GAP_MS));
        current = await engine.statsSample(info.Id);
      }
      lastStats.set(info.Id, { at: now(), sample: current });
      // Forget containers nobody asked about for a while, so the cache stays small.
      for (const [id, entry] of lastStats) if (now() - entry.at > STATS_CACHE_MS) lastStats.delete(id);
      return computeStats(info.Id, previous, current);
    },

    async listImages(): Promise<ImageSummary[]> {
      return (await engine.listImages())
        .map((img) => ({
          id: img.Id,
          tags: (img.RepoTags ?? []).filter((t) => t !== '<none>:<none>'),
          sizeBytes: img.Size,
          createdAt: new Date(img.Created * 1000).toISOString(),
          containers: typeof img.Containers === 'number' ? img.Containers : -1,
        }))
        .sort((a, b) => (a.tags[0] ?? '\uffff').localeCompare(b.tags[0] ?? '\uffff'));
    },

    removeImage: (id: string, force: boolean) => engine.removeImage(id, { force }),
  };
}

export type DockerService = ReturnType<typeof createDockerService>;
