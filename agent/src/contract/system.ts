import { z } from 'zod';

/**
 * One reading of the hub, taken every second by the agent's sampler. The minute series of the
 * last day has the same shape: every figure is the mean over that minute, except `t` (the
 * minute's start) and `load` (the last reading of the minute).
 */
export const metricSampleSchema = z.object({
  /** Milliseconds since the epoch. */
  t: z.number(),
  /** Share of all CPU time that was busy since the previous sample, 0-100. */
  cpu: z.number(),
  /** The same per logical core. */
  cores: z.array(z.number()),
  /** The kernel's 1, 5 and 15 minute load averages. */
  load: z.tuple([z.number(), z.number(), z.number()]),
  /** Bytes in use: MemTotal - MemAvailable (what the kernel cannot hand out without swapping). */
  memUsed: z.number(),
  memTotal: z.number(),
  /** memUsed / memTotal, 0-100. */
  memPercent: z.number(),
  swapUsed: z.number(),
  swapTotal: z.number(),
  /** Bytes per second received and sent over the host's own interfaces (loopback and container plumbing excluded). */
  netRx: z.number(),
  netTx: z.number(),
  /** Bytes per second read from and written to the host's disks. */
  diskRead: z.number(),
  diskWrite: z.number(),
  /** The CPU's temperature in °C, when the hardware reports one. */
  cpuTemp: z.number().nullable(),
  /** Every temperature sensor the kernel exposes, by its label, in °C. */
  temps: z.record(z.string(), z.number()),
  /** The agent's own CPU use in percent of one core, resident memory and JS heap in bytes. */
  agentCpu: z.number(),
  agentRss: z.number(),
  agentHeap: z.number(),
});
export type MetricSample = z.infer<typeof metricSampleSchema>;

export const METRIC_WINDOWS = ['1h', '24h'] as const;
export const metricWindowSchema = z.enum(METRIC_WINDOWS);
export type MetricWindow = z.infer<typeof metricWindowSchema>;
/** Samples kept per window: the last hour at 1 s, the last day at 1 min. */
export const METRIC_WINDOW_CAPACITY: Record<MetricWindow, number> = { '1h': 3600, '24h': 1440 };
export const METRIC_WINDOW_INTERVAL_MS: Record<MetricWindow, number> = { '1h': 1000, '24h': 60_000 };

export const metricsQuerySchema = z.object({
  window: metricWindowSchema.default('1h'),
  /** Only samples newer than this (ms since the epoch), for a chart that already has the rest. */
  since: z.coerce.number().int().nonnegative().optional(),
});

export const metricSeriesSchema = z.object({
  window: metricWindowSchema,
  intervalMs: z.number(),
  samples: z.array(metricSampleSchema),
});
export type MetricSeries = z.infer<typeof metricSeriesSchema>;

export const diskSchema = z.object({
  /** The device or source, e.g. /dev/nvme0n1p1. */
  fs: z.string(),
  type: z.string(),
  mount: z.string(),
  size: z.number(),
  used: z.number(),
  available: z.number(),
  /** used / size, 0-100. */
  usePercent: z.number(),
});
export type Disk = z.infer<typeof diskSchema>;

export const agentProcessSchema = z.object({
  pid: z.number(),
  version: z.string(),
  nodeVersion: z.string(),
  startedAt: z.string(),
  /** Seconds since the agent started. */
  uptime: z.number(),
  /** Percent of one core over the last second. */
  cpuPercent: z.number(),
  rss: z.number(),
  heapUsed: z.number(),
  heapTotal: z.number(),
});
export type AgentProcess = z.infer<typeof agentProcessSchema>;

export const hostFactsSchema = z.object({
  hostname: z.string(),
  os: z.object({
    platform: z.string(),
    distro: z.string(),
    release: z.string(),
    codename: z.string(),
    kernel: z.string(),
    arch: z.string(),
  }),
  hardware: z.object({
    manufacturer: z.string(),
    model: z.string(),
    virtual: z.boolean(),
  }),
  cpu: z.object({
    manufacturer: z.string(),
    brand: z.string(),
    cores: z.number(),
    physicalCores: z.number(),
    /** GHz, when the kernel reports it. */
    speedMax: z.number().nullable(),
  }),
  memTotal: z.number(),
  /** The L4T release line of an NVIDIA Jetson (/etc/nv_tegra_release), null elsewhere. */
  jetson: z.object({ release: z.string() }).nullable(),
});
export type HostFacts = z.infer<typeof hostFactsSchema>;

export const systemInfoSchema = hostFactsSchema.extend({
  /** Seconds since the host booted. */
  uptime: z.number(),
  bootTime: z.string(),
  disks: z.array(diskSchema),
  /** When the disk figures were read (they are refreshed every 30 s). */
  disksSampledAt: z.number().nullable(),
  agent: agentProcessSchema,
  latest: metricSampleSchema.nullable(),
});
export type SystemInfo = z.infer<typeof systemInfoSchema>;

export const PROCESS_SORT_KEYS = ['cpu', 'mem'] as const;
export const processesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(15),
  sort: z.enum(PROCESS_SORT_KEYS).default('cpu'),
});

export const processInfoSchema = z.object({
  pid: z.number(),
  parentPid: z.number(),
  name: z.string(),
  command: z.string(),
  user: z.string(),
  /** Percent of one core since the previous process sample. */
  cpu: z.number(),
  /** Percent of the host's memory. */
  mem: z.number(),
  rss: z.number(),
  state: z.string(),
  started: z.string(),
});
export type ProcessInfo = z.infer<typeof processInfoSchema>;

export const processListSchema = z.object({
  sampledAt: z.number(),
  total: z.number(),
  running: z.number(),
  sleeping: z.number(),
  blocked: z.number(),
  processes: z.array(processInfoSchema),
});
export type ProcessList = z.infer<typeof processListSchema>;

export const networkInterfaceSchema = z.object({
  name: z.string(),
  mac: z.string(),
  ip4: z.string().nullable(),
  ip4Subnet: z.string().nullable(),
  ip6: z.string().nullable(),
  /** up, down, unknown (loopback and some virtual interfaces report unknown). */
  operstate: z.string(),
  type: z.string(),
  /** Mbit/s, when the link reports it. */
  speed: z.number().nullable(),
  mtu: z.number().nullable(),
  internal: z.boolean(),
  virtual: z.boolean(),
  isDefault: z.boolean(),
  /** Bytes per second over the last second. */
  rxSec: z.number().nullable(),
  txSec: z.number().nullable(),
});
export type NetworkInterface = z.infer<typeof networkInterfaceSchema>;

export const listeningPortSchema = z.object({
  protocol: z.string(),
  address: z.string(),
  port: z.number(),
  pid: z.number().nullable(),
  process: z.string().nullable(),
  /** What the hub runs on that port, when it is one of its known services. */
  service: z.string().nullable(),
});
export type ListeningPort = z.infer<typeof listeningPortSchema>;

/** A Wi-Fi interface's link, from /proc/net/wireless and `iw dev <if> link` where iw is installed. */
export const wifiLinkSchema = z.object({
  interface: z.string(),
  /** null when iw is not installed or the interface is not associated. */
  ssid: z.string().nullable(),
  /** dBm, e.g. -56; null when the driver does not report it. */
  signalDbm: z.number().nullable(),
  /** Link quality 0–100 %. */
  quality: z.number().nullable(),
  /** Mbit/s the link sends at, from iw. */
  txBitrate: z.number().nullable(),
  frequencyMhz: z.number().nullable(),
});
export type WifiLink = z.infer<typeof wifiLinkSchema>;

export const networkInfoSchema = z.object({
  hostname: z.string(),
  interfaces: z.array(networkInterfaceSchema),
  defaultInterface: z.string().nullable(),
  defaultGateway: z.string().nullable(),
  dns: z.object({ nameservers: z.array(z.string()), search: z.array(z.string()) }),
  listening: z.array(listeningPortSchema),
  /** Wi-Fi links (none on a wired hub); absent in answers from before issue 17. */
  wifi: z.array(wifiLinkSchema).optional(),
});
export type NetworkInfo = z.infer<typeof networkInfoSchema>;

export const diagnosticsBundleSchema = z.object({
  generatedAt: z.string(),
  agent: agentProcessSchema.extend({ config: z.record(z.string(), z.unknown()) }),
  host: systemInfoSchema.omit({ agent: true, latest: true }),
  network: networkInfoSchema.nullable(),
  processes: processListSchema.nullable(),
  metrics: z.object({ lastMinutes: z.array(metricSampleSchema), lastDay: z.array(metricSampleSchema) }),
  /** Recent log lines of the agent, parsed, with anything that looks like a secret replaced. */
  logs: z.array(z.record(z.string(), z.unknown())),
  errors: z.array(z.string()),
});
export type DiagnosticsBundle = z.infer<typeof diagnosticsBundleSchema>;
