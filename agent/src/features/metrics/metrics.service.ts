import type { NexusStatus, SystemUptime } from '../../contract/status.js';
import { NEXUS_DEGRADED_DISK_PERCENT, NEXUS_DEGRADED_MEMORY_PERCENT } from '../../contract/status.js';
import type {
  ListeningPort,
  MetricSample,
  MetricWindow,
  NetworkInfo,
  WifiLink,
  ProcessList,
  SystemInfo,
} from '../../contract/system.js';
import { METRIC_WINDOW_INTERVAL_MS } from '../../contract/system.js';
import type { RawInterface, SystemInfoAdapter } from '../../adapters/system-info.js';
import type { MetricsSampler } from './metrics-sampler.js';

/** A sample older than this means the sampler has stalled. */
const STALE_SAMPLE_MS = 5_000;
/** Interfaces and sockets start processes to read: shared between requests for this long. */
const NETWORK_TTL_MS = 10_000;
/** Boot time and host name are re-read this often (a clock step or a rename shows within a minute). */
const FACTS_TTL_MS = 60_000;

/** Ports of the services a Nexus hub runs, to name them on the network screen. */
export const KNOWN_SERVICE_PORTS: Readonly<Record<number, string>> = {
  22: 'SSH',
  53: 'DNS',
  1883: 'MQTT',
  8883: 'MQTT (TLS)',
  2375: 'Docker Engine API',
  2376: 'Docker Engine API (TLS)',
  8123: 'Home Assistant',
  10200: 'Wyoming Piper (text to speech)',
  10300: 'Wyoming Whisper (speech to text)',
  10400: 'Wyoming openWakeWord',
  11434: 'Ollama',
  41641: 'Tailscale',
  51820: 'WireGuard',
};
const AGENT_SERVICE = 'Nexus Console agent';

/** Pure: the Nexus status of spec §3 from the latest sample and what else the sampler knows. */
export function nexusStatusFrom(input: {
  sample: MetricSample;
  at: number;
  hostname: string;
  uptime: number;
  defaultRouteUp: boolean;
  rootDiskPercent: number | null;
}): NexusStatus {
  const { sample } = input;
  const warnings: string[] = [];
  if (input.at - sample.t > STALE_SAMPLE_MS)
    warnings.push('System metrics have not been updated for a while');
  if (sample.memPercent >= NEXUS_DEGRADED_MEMORY_PERCENT)
    warnings.push(`Memory is ${sample.memPercent}% full`);
  if (input.rootDiskPercent !== null && input.rootDiskPercent >= NEXUS_DEGRADED_DISK_PERCENT) {
    warnings.push(`The system disk is ${input.rootDiskPercent}% full`);
  }
  return {
    status: warnings.length ? 'degraded' : 'online',
    systemLoad: sample.cpu,
    memoryUsage: sample.memPercent,
    networkStatus: input.defaultRouteUp ? 'connected' : 'disconnected',
    hostname: input.hostname,
    cpuTemperature: sample.cpuTemp,
    loadAverage: sample.load,
    uptime: Math.floor(input.uptime),
    warnings,
    sampledAt: sample.t,
  };
}

/** A link counts as up when sysfs says up, or unknown (virtual links such as WireGuard and many VMs' NICs). */
function linkUp(operstate: string | null): boolean {
  return operstate === 'up' || operstate === 'unknown';
}

export function createMetricsService(deps: {
  sampler: MetricsSampler;
  info: SystemInfoAdapter;
  now?: () => number;
}) {
  const { sampler, info } = deps;
  const now = deps.now ?? Date.now;
  interface NetworkReading {
    at: number;
    interfaces: RawInterface[];
    listening: Omit<ListeningPort, 'service'>[];
    wifi: WifiLink[];
  }
  let networkCache: NetworkReading | null = null;
  let networkInFlight: Promise<NetworkReading> | null = null;

  // The boot time is read once a minute and uptime derived from it, so no request reads /proc.
  let boot: { at: number; bootMs: number } | null = null;
  let hostname: { at: number; name: string } | null = null;
  function bootMs(): number {
    const t = now();
    if (!boot || t - boot.at > FACTS_TTL_MS) boot = { at: t, bootMs: t - info.uptimeSeconds() * 1000 };
    return boot.bootMs;
  }
  function host(): string {
    const t = now();
    if (!hostname || t - hostname.at > FACTS_TTL_MS) hostname = { at: t, name: info.hostname() };
    return hostname.name;
  }

  function uptime(): SystemUptime {
    const b = bootMs();
    return { uptime: Math.floor((now() - b) / 1000), bootTime: new Date(b).toISOString() };
  }

  async function readNetwork(): Promise<NetworkReading> {
    if (networkCache && now() - networkCache.at < NETWORK_TTL_MS) return networkCache;
    networkInFlight ??= Promise.all([
      info.networkInterfaces(),
      info.listeningPorts(),
      info.wifiLinks?.() ?? Promise.resolve([]),
    ])
      .then(([interfaces, listening, wifi]) => {
        networkCache = { at: now(), interfaces, listening, wifi };
        return networkCache;
      })
      .finally(() => {
        networkInFlight = null;
      });
    return networkInFlight;
  }

  async function processes(limit: number, sort: 'cpu' | 'mem'): Promise<ProcessList> {
    const snapshot = await sampler.processes();
    const key = sort === 'cpu' ? ('cpu' as const) : ('mem' as const);
    const top = [...snapshot.processes].sort((a, b) => b[key] - a[key] || b.rss - a.rss).slice(0, limit);
    return {
      sampledAt: snapshot.sampledAt,
      total: snapshot.total,
      running: snapshot.running,
      sleeping: snapshot.sleeping,
      blocked: snapshot.blocked,
      processes: top,
    };
  }

  return {
    async nexusStatus(): Promise<NexusStatus> {
      const sample = await sampler.ready();
      const { route, operstate } = sampler.network();
      const root = sampler.disks().disks.find((d) => d.mount === '/');
      return nexusStatusFrom({
        sample,
        at: now(),
        hostname: host(),
        uptime: (now() - bootMs()) / 1000,
        defaultRouteUp: route !== null && linkUp(operstate),
        rootDiskPercent: root?.usePercent ?? null,
      });
    },

    uptime,

    series(window: MetricWindow, since?: number) {
      return {
        window,
        intervalMs: METRIC_WINDOW_INTERVAL_MS[window],
        samples: sampler.series(window, since),
      };
    },

    async systemInfo(): Promise<SystemInfo> {
      const [facts, disks] = await Promise.all([sampler.hostFacts(), sampler.disksReady()]);
      const up = uptime();
      return {
        ...facts,
        uptime: up.uptime,
        bootTime: up.bootTime,
        disks: disks.disks,
        disksSampledAt: disks.sampledAt,
        agent: sampler.agent(),
        latest: sampler.latest(),
      };
    },

    /**
     * The busiest processes, as admins (and the diagnostics bundle, which redacts) see them.
     * Members read them through processesFor.
     */
    processes,

    /**
     * Command lines carry tokens and passwords (`--token=…`, URLs with credentials), so a member
     * gets each process's name as its command (no arguments, no path); an admin the full line.
     */
    async processesFor(viewer: { admin: boolean }, limit: number, sort: 'cpu' | 'mem'): Promise<ProcessList> {
      const list = await processes(limit, sort);
      if (viewer.admin) return list;
      return { ...list, processes: list.processes.map((p) => ({ ...p, command: p.name })) };
    },

    async network(): Promise<NetworkInfo> {
      const { interfaces, listening, wifi } = await readNetwork();
      const { route } = sampler.network();
      const rates = sampler.interfaceRates();
      return {
        hostname: host(),
        interfaces: interfaces.map((i) => ({
          ...i,
          isDefault: route ? i.name === route.iface : i.isDefault,
          rxSec: rates.get(i.name)?.rxSec ?? null,
          txSec: rates.get(i.name)?.txSec ?? null,
        })),
        defaultInterface: route?.iface ?? null,
        defaultGateway: route?.gateway ?? null,
        dns: info.dns(),
        listening: listening.map((l) => ({
          ...l,
          service: l.pid === process.pid ? AGENT_SERVICE : (KNOWN_SERVICE_PORTS[l.port] ?? null),
        })),
        wifi,
      };
    },
  };
}

export type MetricsService = ReturnType<typeof createMetricsService>;
