import type { AgentProcess, Disk, HostFacts, MetricSample, MetricWindow } from '../../contract/system.js';
import { METRIC_WINDOW_CAPACITY } from '../../contract/system.js';
import type {
  CpuTimes,
  DefaultRoute,
  DiskCounters,
  InterfaceCounters,
  ProcessSnapshot,
  SystemInfoAdapter,
} from '../../adapters/system-info.js';
import { countsTowardTraffic, pickCpuTemperature } from '../../adapters/system-info.js';
import { inBackground } from '../../lib/background.js';
import type { Logger } from '../../lib/logger.js';
import { MinuteAggregator } from './aggregate.js';
import { SampleHistory } from './sample-history.js';

export const SAMPLE_INTERVAL_MS = 1000;
/** Disk usage changes slowly and `df` starts a process: read it every 30 s. */
export const DISK_INTERVAL_MS = 30_000;
/** The process list starts `ps`: read it every 10 s, and only while someone looked at it recently. */
export const PROCESS_INTERVAL_MS = 10_000;
export const PROCESS_INTEREST_MS = 60_000;
/** The default route and its link state are re-read this often. */
const ROUTE_INTERVAL_MS = 5_000;
/** The first sample comes this soon after start, measured over this short span, so the API answers at once. */
const FIRST_SAMPLE_DELAY_MS = 250;
/** Errors of a failing source are logged at most this often. */
const ERROR_LOG_INTERVAL_MS = 60_000;

export interface NetworkState {
  route: DefaultRoute | null;
  /** The default interface's link state from sysfs, null without a default route. */
  operstate: string | null;
}

export interface TimedProcesses extends ProcessSnapshot {
  sampledAt: number;
}

interface Reading {
  at: number;
  cpu: CpuTimes;
  net: Map<string, InterfaceCounters>;
  disk: DiskCounters;
  agentCpu: NodeJS.CpuUsage;
  agentAt: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const percent = (part: number, whole: number) =>
  whole > 0 ? round1(Math.min(100, (part / whole) * 100)) : 0;
const perSecond = (delta: number, ms: number) => (ms > 0 && delta > 0 ? Math.round((delta * 1000) / ms) : 0);

/**
 * Reads the host once a second into memory: the last hour at 1 s, the last day at 1 min. Every
 * status endpoint answers from here, so a request never waits on the system.
 */
export function createMetricsSampler(opts: {
  info: SystemInfoAdapter;
  log: Logger;
  version: string;
  now?: () => number;
}) {
  const { info, log } = opts;
  const now = opts.now ?? Date.now;
  const seconds = new SampleHistory(METRIC_WINDOW_CAPACITY['1h']);
  const minutes = new SampleHistory(METRIC_WINDOW_CAPACITY['24h']);
  const aggregator = new MinuteAggregator();
  const listeners = new Set<(sample: MetricSample) => void>();
  const startedAt = now();
  const lastErrorLog = new Map<string, number>();

  let previous: Reading | null = null;
  let timer: NodeJS.Timeout | null = null;
  let ticking = false;
  let running = false;
  let readyWaiters: ((s: MetricSample) => void)[] = [];

  let diskList: Disk[] = [];
  let disksAt: number | null = null;
  let disksInFlight: Promise<void> | null = null;

  let network: NetworkState = { route: null, operstate: null };
  let routeAt = 0;

  let processSnapshot: TimedProcesses | null = null;
  let processesInFlight: Promise<TimedProcesses> | null = null;
  let processInterestUntil = 0;

  let facts: Promise<HostFacts> | null = null;
  let interfaceRates = new Map<string, { rxSec: number; txSec: number }>();

  function logFailure(source: string, err: unknown) {
    const t = now();
    if (t - (lastErrorLog.get(source) ?? 0) < ERROR_LOG_INTERVAL_MS) return;
    lastErrorLog.set(source, t);
    log.warn({ err, source }, 'reading the system failed');
  }

  function read(): Reading {
    return {
      at: now(),
      cpu: info.readCpuTimes(),
      net: info.readNetworkCounters(),
      disk: info.readDiskCounters(),
      agentCpu: process.cpuUsage(),
      agentAt: performance.now(),
    };
  }

  function refreshDisks() {
    if (disksInFlight) return disksInFlight;
    disksInFlight = info
      .disks()
      .then((list) => {
        diskList = list;
        disksAt = now();
      })
      .catch((err: unknown) => logFailure('disks', err))
      .finally(() => {
        disksInFlight = null;
      });
    return disksInFlight;
  }

  function refreshProcesses(): Promise<TimedProcesses> {
    processesInFlight ??= info
      .processes()
      .then((snapshot) => (processSnapshot = { ...snapshot, sampledAt: now() }))
      .finally(() => {
        processesInFlight = null;
      });
    return processesInFlight;
  }

  function refreshRoute(t: number) {
    routeAt = t;
    try {
      const route = info.readDefaultRoute();
      network = { route, operstate: route ? info.readOperstate(route.iface) : null };
    } catch (err) {
      logFailure('route', err);
    }
  }

  async function tick() {
    if (ticking || !running) return;
    ticking = true;
    try {
      const current = read();
      const mem = await info.readMemory();
      let temps: Record<string, number> = {};
      try {
        temps = info.readTemperatures();
      } catch (err) {
        logFailure('temperatures', err);
      }
      const prev = previous;
      previous = current;
      if (!prev) return;

      const elapsed = current.at - prev.at;
      const cores = current.cpu.cores.map((c, i) => {
        const p = prev.cpu.cores[i];
        return p ? percent(c.busy - p.busy, c.total - p.total) : 0;
      });
      let rx = 0;
      let tx = 0;
      const rates = new Map<string, { rxSec: number; txSec: number }>();
      for (const [name, c] of current.net) {
        const p = prev.net.get(name);
        if (!p) continue;
        // Counters restart when an interface is re-created; a negative step is not traffic.
        const dRx = Math.max(0, c.rxBytes - p.rxBytes);
        const dTx = Math.max(0, c.txBytes - p.txBytes);
        rates.set(name, { rxSec: perSecond(dRx, elapsed), txSec: perSecond(dTx, elapsed) });
        if (!countsTowardTraffic(name)) continue;
        rx += dRx;
        tx += dTx;
      }
      interfaceRates = rates;
      const agentMicros =
        current.agentCpu.user - prev.agentCpu.user + (current.agentCpu.system - prev.agentCpu.system);
      const agentElapsedMicros = (current.agentAt - prev.agentAt) * 1000;
      const heap = process.memoryUsage();
      const sample: MetricSample = {
        t: current.at,
        cpu: percent(current.cpu.busy - prev.cpu.busy, current.cpu.total - prev.cpu.total),
        cores,
        load: info.loadAverage(),
        memUsed: mem.used,
        memTotal: mem.total,
        memPercent: percent(mem.used, mem.total),
        swapUsed: mem.swapUsed,
        swapTotal: mem.swapTotal,
        netRx: perSecond(rx, elapsed),
        netTx: perSecond(tx, elapsed),
        diskRead: perSecond(current.disk.readBytes - prev.disk.readBytes, elapsed),
        diskWrite: perSecond(current.disk.writeBytes - prev.disk.writeBytes, elapsed),
        cpuTemp: pickCpuTemperature(temps),
        temps,
        agentCpu: agentElapsedMicros > 0 ? round1((agentMicros / agentElapsedMicros) * 100) : 0,
        agentRss: heap.rss,
        agentHeap: heap.heapUsed,
      };
      seconds.push(sample);
      const minute = aggregator.add(sample);
      if (minute) minutes.push(minute);

      if (current.at - routeAt >= ROUTE_INTERVAL_MS) refreshRoute(current.at);
      if (disksAt === null || current.at - disksAt >= DISK_INTERVAL_MS) {
        inBackground(log, 'metrics: reading disks', refreshDisks);
      }
      if (
        current.at < processInterestUntil &&
        (!processSnapshot || current.at - processSnapshot.sampledAt >= PROCESS_INTERVAL_MS)
      ) {
        refreshProcesses().catch((err: unknown) => logFailure('processes', err));
      }

      const waiters = readyWaiters;
      readyWaiters = [];
      for (const resolve of waiters) resolve(sample);
      for (const listener of listeners) {
        try {
          listener(sample);
        } catch (err) {
          logFailure('listener', err);
        }
      }
    } catch (err) {
      logFailure('sample', err);
    } finally {
      ticking = false;
    }
  }

  return {
    /** Starts sampling; idempotent. */
    start() {
      if (running) return;
      running = true;
      previous = read();
      refreshRoute(previous.at);
      inBackground(log, 'metrics: reading disks', refreshDisks);
      timer = setTimeout(() => {
        inBackground(log, 'metrics: sampling', tick);
        timer = setInterval(() => inBackground(log, 'metrics: sampling', tick), SAMPLE_INTERVAL_MS);
        timer.unref();
      }, FIRST_SAMPLE_DELAY_MS);
      timer.unref();
    },

    stop() {
      running = false;
      if (timer) {
        clearTimeout(timer);
        clearInterval(timer);
      }
      timer = null;
    },

    get running() {
      return running;
    },

    latest(): MetricSample | null {
      return seconds.last() ?? null;
    },

    /** The latest sample, waiting for the first one after start. */
    ready(): Promise<MetricSample> {
      const last = seconds.last();
      if (last) return Promise.resolve(last);
      if (!running) this.start();
      return new Promise((resolve) => readyWaiters.push(resolve));
    },

    series(window: MetricWindow, since?: number): MetricSample[] {
      const history = window === '1h' ? seconds : minutes;
      return since === undefined ? history.toArray() : history.since(since);
    },

    /** Called with every new sample; returns the unsubscribe function. */
    onSample(listener: (sample: MetricSample) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    disks(): { disks: Disk[]; sampledAt: number | null } {
      return { disks: diskList, sampledAt: disksAt };
    },

    /** Waits for the first disk reading if there has been none yet. */
    async disksReady(): Promise<{ disks: Disk[]; sampledAt: number | null }> {
      if (disksAt === null) await refreshDisks();
      return { disks: diskList, sampledAt: disksAt };
    },

    network(): NetworkState {
      return network;
    },

    /** Bytes per second per interface over the last second. */
    interfaceRates(): ReadonlyMap<string, { rxSec: number; txSec: number }> {
      return interfaceRates;
    },

    /** The last process list, refreshed when older than PROCESS_INTERVAL_MS; keeps it fresh for a minute after. */
    async processes(): Promise<TimedProcesses> {
      const t = now();
      processInterestUntil = t + PROCESS_INTEREST_MS;
      if (processSnapshot && t - processSnapshot.sampledAt < PROCESS_INTERVAL_MS) return processSnapshot;
      if (processSnapshot && processesInFlight) return processSnapshot;
      return refreshProcesses();
    },

    /** Facts that do not change while the agent runs, read once. */
    hostFacts(): Promise<HostFacts> {
      facts ??= info.hostFacts().catch((err: unknown) => {
        facts = null;
        throw err;
      });
      return facts;
    },

    agent(): AgentProcess {
      const mem = process.memoryUsage();
      const t = now();
      return {
        pid: process.pid,
        version: opts.version,
        nodeVersion: process.version,
        startedAt: new Date(startedAt).toISOString(),
        uptime: Math.round((t - startedAt) / 1000),
        cpuPercent: seconds.last()?.agentCpu ?? 0,
        rss: mem.rss,
        heapUsed: mem.heapUsed,
        heapTotal: mem.heapTotal,
      };
    },
  };
}

export type MetricsSampler = ReturnType<typeof createMetricsSampler>;
