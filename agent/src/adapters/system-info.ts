import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Si from 'systeminformation';
import { lazyRequire } from '../lib/lazy-require.js';
import type {
  Disk,
  HostFacts,
  ListeningPort,
  NetworkInterface,
  ProcessInfo,
  WifiLink,
} from '../contract/system.js';

/**
 * systeminformation's index loads all of its ~25 modules (graphics, Wi-Fi, Bluetooth, printers…);
 * the agent calls eight functions of six of them, each module loaded on its first call.
 */
const memory = lazyRequire<Pick<typeof Si, 'mem'>>('systeminformation/lib/memory.js');
const cpu = lazyRequire<Pick<typeof Si, 'cpu'>>('systeminformation/lib/cpu.js');
const osinfo = lazyRequire<Pick<typeof Si, 'osInfo'>>('systeminformation/lib/osinfo.js');
const system = lazyRequire<Pick<typeof Si, 'system'>>('systeminformation/lib/system.js');
const processes = lazyRequire<Pick<typeof Si, 'processes'>>('systeminformation/lib/processes.js');
const network = lazyRequire<Pick<typeof Si, 'networkInterfaces' | 'networkConnections'>>(
  'systeminformation/lib/network.js',
);
const si = {
  mem: () => memory().mem(),
  cpu: () => cpu().cpu(),
  osInfo: () => osinfo().osInfo(),
  system: () => system().system(),
  processes: () => processes().processes(),
  networkInterfaces: () => network().networkInterfaces(),
  networkConnections: () => network().networkConnections(),
};

/**
 * The host, as the agent sees it. This is the only module that talks to systeminformation.
 *
 * The figures read every second come straight from procfs and sysfs instead: on Linux,
 * systeminformation's currentLoad, networkStats and cpuTemperature each start a shell (`cat
 * /proc/stat | grep cpu`, seven `cat`s per interface, a loop over hwmon, then `sensors`). Measured
 * on the development machine, those three at 1 Hz cost about 27 ms of CPU per second (2.7 % of a
 * core, more than the agent's whole idle budget), the same readings from the files about 0.5 ms.
 * Memory is parsed from /proc/meminfo the way systeminformation's mem() did; the expensive calls
 * (processes, interfaces, sockets, static facts) run seldom or on demand; the disks come from
 * /proc/self/mounts and statfs (readDisks).
 */

export interface CpuTimes {
  /** Jiffies (or ms off Linux) spent busy and in total, all cores together and per core. */
  busy: number;
  total: number;
  cores: { busy: number; total: number }[];
}

export interface MemoryReading {
  total: number;
  /** MemTotal - MemAvailable. */
  used: number;
  swapTotal: number;
  swapUsed: number;
}

export interface InterfaceCounters {
  rxBytes: number;
  txBytes: number;
}

export interface DiskCounters {
  readBytes: number;
  writeBytes: number;
}

export interface DefaultRoute {
  iface: string;
  gateway: string;
}

export interface ProcessSnapshot {
  total: number;
  running: number;
  sleeping: number;
  blocked: number;
  processes: ProcessInfo[];
}

export type RawInterface = Omit<NetworkInterface, 'rxSec' | 'txSec'>;

export interface SystemInfoAdapter {
  readCpuTimes(): CpuTimes;
  readMemory(): Promise<MemoryReading>;
  /** Byte counters per interface name. */
  readNetworkCounters(): Map<string, InterfaceCounters>;
  readDiskCounters(): DiskCounters;
  /** °C per sensor label. */
  readTemperatures(): Record<string, number>;
  loadAverage(): [number, number, number];
  /** Seconds since the host booted. */
  uptimeSeconds(): number;
  hostname(): string;
  readDefaultRoute(): DefaultRoute | null;
  /** up, down, unknown… from sysfs; null when the interface does not exist. */
  readOperstate(iface: string): string | null;
  hostFacts(): Promise<HostFacts>;
  disks(): Promise<Disk[]>;
  processes(): Promise<ProcessSnapshot>;
  networkInterfaces(): Promise<RawInterface[]>;
  listeningPorts(): Promise<Omit<ListeningPort, 'service'>[]>;
  dns(): { nameservers: string[]; search: string[] };
  /** MemAvailable and the kernel's memory pressure (PSI "some avg10", %) from the host root; null off Linux. */
  readMemoryPressure?(): MemoryPressure | null;
  /** Every thermal zone with its temperature and its lowest passive/hot/critical trip point, in °C. */
  readThermalTrips?(): ThermalTrip[];
  /** The Wi-Fi links: /proc/net/wireless under the host root, with `iw dev <if> link` where iw is installed. */
  wifiLinks?(): Promise<WifiLink[]>;
}

export interface MemoryPressure {
  totalBytes: number;
  availableBytes: number;
  /** Share of the last 10 s some task waited for memory; null without /proc/pressure (kernel < 4.20). */
  someAvg10: number | null;
}

export interface ThermalTrip {
  zone: string;
  /** The zone's type, e.g. "CPU-therm". */
  type: string;
  temp: number;
  trip: { type: string; temp: number } | null;
}

/** Trip types that mean "too hot" (an `active` trip only switches a fan on). */
const HOT_TRIPS = new Set(['passive', 'hot', 'critical']);

/** /proc/meminfo's fields (proc(5), in kB) as bytes: null for a field the file does not have. */
function meminfoFields(meminfo: string): (name: string) => number | null {
  const fields = new Map<string, number>();
  for (const line of meminfo.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon), Number.parseInt(line.slice(colon + 1), 10) * 1024);
  }
  return (name) => {
    const value = fields.get(name);
    return value !== undefined && Number.isFinite(value) ? value : null;
  };
}

/**
 * Parses /proc/meminfo into the memory card's figures, as systeminformation's mem() computed them:
 * used is MemTotal - MemAvailable, or, on kernels before 3.14 without MemAvailable, what free,
 * buffers, page cache and slab leave.
 */
export function parseMeminfo(meminfo: string): MemoryReading | null {
  const kb = meminfoFields(meminfo);
  const total = kb('MemTotal');
  if (!total) return null;
  const available =
    kb('MemAvailable') ??
    (kb('MemFree') ?? 0) + (kb('Buffers') ?? 0) + (kb('Cached') ?? 0) + (kb('Slab') ?? 0);
  const swapTotal = kb('SwapTotal') ?? 0;
  return { total, used: total - available, swapTotal, swapUsed: swapTotal - (kb('SwapFree') ?? 0) };
}

/** /proc/meminfo's MemTotal and MemAvailable (kB) and /proc/pressure/memory's `some avg10=`. */
export function parseMemoryPressure(meminfo: string, pressure: string | null): MemoryPressure | null {
  const kb = meminfoFields(meminfo);
  const total = kb('MemTotal');
  const available = kb('MemAvailable');
  if (total === null || available === null) return null;
  const some = pressure ? /^some .*?avg10=([\d.]+)/m.exec(pressure) : null;
  return { totalBytes: total, availableBytes: available, someAvg10: some ? Number(some[1]) : null };
}

/** Interfaces whose traffic is also counted on a physical one (container bridges, veth pairs). */
const PLUMBING_INTERFACE = /^(lo|veth|docker|br-|cni|podman|virbr|flannel|cali|vxlan|tunl|kube)/;

/** Whether an interface's traffic counts toward the host's network rate. */
export function countsTowardTraffic(iface: string): boolean {
  return !PLUMBING_INTERFACE.test(iface);
}

/** Parses /proc/stat's cpu lines (proc(5)): user nice system idle iowait irq softirq steal … */
export function parseProcStat(text: string): CpuTimes | null {
  let all: { busy: number; total: number } | null = null;
  const cores: { busy: number; total: number }[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('cpu')) continue;
    const [label, ...fields] = line.trim().split(/\s+/);
    const n = fields.map(Number);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = n;
    // guest time is already part of user time, so it is not added again.
    const idleAll = idle + iowait;
    const busy = user + nice + system + irq + softirq + steal;
    const entry = { busy, total: busy + idleAll };
    if (label === 'cpu') all = entry;
    else cores.push(entry);
  }
  return all ? { ...all, cores } : null;
}

/** Parses /proc/net/dev into byte counters per interface. */
export function parseNetDev(text: string): Map<string, InterfaceCounters> {
  const result = new Map<string, InterfaceCounters>();
  for (const line of text.split('\n').slice(2)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    const f = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    // Receive: bytes packets errs drop fifo frame compressed multicast; then transmit: bytes …
    result.set(name, { rxBytes: f[0] ?? 0, txBytes: f[8] ?? 0 });
  }
  return result;
}

/** Sums sectors read/written in /proc/diskstats for the given whole disks (sectors are 512 bytes there). */
export function parseDiskStats(text: string, disks: ReadonlySet<string>): DiskCounters {
  let readBytes = 0;
  let writeBytes = 0;
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || !disks.has(f[2] ?? '')) continue;
    readBytes += Number(f[5]) * 512;
    writeBytes += Number(f[9]) * 512;
  }
  return { readBytes, writeBytes };
}

export interface Mount {
  /** The source: a device (/dev/nvme0n1p1), or a name for virtual filesystems (tmpfs, overlay). */
  fs: string;
  mount: string;
  type: string;
}

/**
 * Parses /proc/self/mounts (fstab's format: source, mount point, type, options, 0, 0). The kernel
 * writes a space, tab, newline or backslash in a path as an octal escape (\040, \011, \012, \134).
 */
export function parseMounts(text: string): Mount[] {
  const unescape = (field: string) =>
    field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
  const mounts: Mount[] = [];
  for (const line of text.split('\n')) {
    const [source, mount, type] = line.split(' ');
    if (!source || !mount || !type) continue;
    mounts.push({ fs: unescape(source), mount: unescape(mount), type });
  }
  return mounts;
}

/**
 * Types a disk list leaves out unless the source is a device or the mount is /: memory-backed and
 * image filesystems (the list systeminformation used, with `df -x squashfs`).
 */
const MEMORY_OR_IMAGE_FS =
  /rootfs|unionfs|squashfs|cramfs|initrd|initramfs|devtmpfs|tmpfs|udev|devfs|specfs|appimaged/i;
/**
 * Network filesystems are left out: statfs on one whose server has gone away blocks, and it would
 * hold one of libuv's four threads for as long. The card is about the hub's own storage.
 */
const NETWORK_FS =
  /^(?:nfs4?|cifs|smb3?|smbfs|ncpfs|afs|ceph|glusterfs|lustre|9p|davfs|fuse\.(?:sshfs|rclone|s3fs))$/;

/**
 * Types df calls dummies and never asks. An autofs entry is a trigger, not a filesystem: statfs on
 * its mount point makes the automounter mount what is behind it (a NAS share, binfmt_misc), every
 * 30 s for as long as the agent runs, and waits on it when the server has gone.
 */
const DUMMY_FS = new Set([
  'autofs',
  'proc',
  'subfs',
  'debugfs',
  'devpts',
  'fusectl',
  'fuse.portal',
  'mqueue',
  'rpc_pipefs',
  'sysfs',
  'devfs',
  'kernfs',
  'ignore',
  'none',
]);

/**
 * The mounted filesystems with their size, as `df` lists them: none with no blocks of their own
 * (proc, sysfs, cgroup…), and each filesystem once, under its shortest mount path (a bind mount or
 * a container's view of the same device is not a second disk).
 */
export async function readDisks(mounts: Mount[]): Promise<Disk[]> {
  const candidates = mounts.filter(
    (m) =>
      m.type !== 'squashfs' &&
      !DUMMY_FS.has(m.type) &&
      !NETWORK_FS.test(m.type) &&
      (m.fs.startsWith('/') || m.mount === '/' || !MEMORY_OR_IMAGE_FS.test(m.type)),
  );
  const read = await Promise.all(
    candidates.map(async (m) => {
      try {
        const [space, stat] = await Promise.all([fs.promises.statfs(m.mount), fs.promises.stat(m.mount)]);
        return { m, space, device: stat.dev };
      } catch {
        return null; // unmounted meanwhile, or not ours to read
      }
    }),
  );
  const byDevice = new Map<number, Disk>();
  for (const entry of read) {
    if (!entry || entry.space.blocks === 0) continue;
    const { m, space } = entry;
    const size = space.blocks * space.bsize;
    const available = space.bavail * space.bsize;
    // df's "used": what is taken, blocks reserved for root included; Use% is of what users can have.
    const used = (space.blocks - space.bfree) * space.bsize;
    const known = byDevice.get(entry.device);
    if (known && known.mount.length <= m.mount.length) continue;
    byDevice.set(entry.device, {
      fs: m.fs,
      type: m.type,
      mount: m.mount,
      size,
      used,
      available,
      usePercent: used + available > 0 ? round1((100 * used) / (used + available)) : 0,
    });
  }
  return [...byDevice.values()];
}

/** Parses /proc/net/route (hex, little-endian) for the default IPv4 route. */
export function parseDefaultRoute(text: string): DefaultRoute | null {
  for (const line of text.split('\n').slice(1)) {
    const [iface, destination, gateway, flags] = line.trim().split(/\s+/);
    if (!iface || destination !== '00000000' || !gateway) continue;
    // RTF_UP = 0x1
    if ((parseInt(flags ?? '0', 16) & 1) === 0) continue;
    const n = parseInt(gateway, 16);
    const ip = [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff].join('.');
    return { iface, gateway: ip };
  }
  return null;
}

/** Parses resolv.conf(5) for nameservers and search domains. */
export function parseResolvConf(text: string): { nameservers: string[]; search: string[] } {
  const nameservers: string[] = [];
  const search: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/[#;].*$/, '').trim();
    const [key, ...values] = line.split(/\s+/);
    if (key === 'nameserver' && values[0]) nameservers.push(values[0]);
    if (key === 'search' || key === 'domain') search.push(...values);
  }
  return { nameservers, search: [...new Set(search)] };
}

const CPU_SENSOR_PREFERENCE = [
  /^cpu[-_ ]?therm/i,
  /^cpu/i,
  /x86_pkg_temp/i,
  /package id/i,
  /tctl|tdie/i,
  /coretemp|k10temp|zenpower/i,
  /^soc/i,
];

/** The sensor that best stands for the CPU, by its label. */
export function pickCpuTemperature(temps: Record<string, number>): number | null {
  const labels = Object.keys(temps);
  for (const pattern of CPU_SENSOR_PREFERENCE) {
    const label = labels.find((l) => pattern.test(l));
    if (label) return temps[label] ?? null;
  }
  return null;
}

interface TemperatureSensor {
  label: string;
  file: string;
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** Finds the kernel's temperature sensors once: thermal zones, then hwmon inputs. */
function discoverTemperatureSensors(sysRoot: string): TemperatureSensor[] {
  const sensors: TemperatureSensor[] = [];
  const seen = new Set<string>();
  const add = (label: string, file: string) => {
    let unique = label;
    for (let i = 2; seen.has(unique); i++) unique = `${label} ${i}`;
    seen.add(unique);
    sensors.push({ label: unique, file });
  };
  const thermal = path.join(sysRoot, 'class/thermal');
  for (const zone of listDir(thermal)
    .filter((d) => d.startsWith('thermal_zone'))
    .sort()) {
    const type = readText(path.join(thermal, zone, 'type'))?.trim();
    add(type || zone, path.join(thermal, zone, 'temp'));
  }
  const hwmon = path.join(sysRoot, 'class/hwmon');
  for (const mon of listDir(hwmon).sort()) {
    const dir = path.join(hwmon, mon);
    const name = readText(path.join(dir, 'name'))?.trim() || mon;
    for (const input of listDir(dir).filter((f) => /^temp\d+_input$/.test(f))) {
      const label = readText(path.join(dir, input.replace('_input', '_label')))?.trim();
      add(label ? `${name} ${label}` : name, path.join(dir, input));
    }
  }
  return sensors;
}

/** Whole disks in /sys/block, without loop, RAM and device-mapper devices that would count twice. */
function discoverDisks(sysRoot: string): Set<string> {
  return new Set(listDir(path.join(sysRoot, 'block')).filter((d) => !/^(loop|ram|zram|dm-|md|sr)/.test(d)));
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * /proc/net/wireless: two header lines, then `wlan0: 0000   54.  -56.  -256 …` — status, link
 * quality (of 70 on most drivers), signal level (dBm when negative), noise.
 */
export function parseProcWireless(
  text: string,
): { interface: string; quality: number | null; signalDbm: number | null }[] {
  const links = [];
  for (const line of text.split('\n').slice(2)) {
    const match = /^\s*([\w.:-]+):\s+\S+\s+(-?[\d.]+)\s+(-?[\d.]+)/.exec(line);
    if (!match) continue;
    const link = Number(match[2]);
    const level = Number(match[3]);
    links.push({
      interface: match[1]!,
      quality: Number.isFinite(link) ? Math.max(0, Math.min(100, Math.round((link / 70) * 100))) : null,
      // Old drivers report an unsigned level (level - 256 is the dBm); 0 means not measured.
      signalDbm: !Number.isFinite(level) || level === 0 ? null : level > 63 ? level - 256 : level,
    });
  }
  return links;
}

/** `iw dev wlan0 link`: `Connected to …`, then `SSID: name`, `freq: 5180`, `signal: -56 dBm`, `tx bitrate: 433.3 MBit/s …`. */
export function parseIwLink(text: string): {
  ssid: string | null;
  signalDbm: number | null;
  txBitrate: number | null;
  frequencyMhz: number | null;
} {
  const field = (name: string) => new RegExp(`^\\s*${name}:\\s*(.+)$`, 'm').exec(text)?.[1]?.trim() ?? null;
  const num = (v: string | null) => {
    const n = v === null ? NaN : Number.parseFloat(v);
    return Number.isFinite(n) ? n : null;
  };
  if (!/^Connected to/m.test(text))
    return { ssid: null, signalDbm: null, txBitrate: null, frequencyMhz: null };
  return {
    ssid: field('SSID'),
    signalDbm: num(field('signal')),
    txBitrate: num(field('tx bitrate')),
    frequencyMhz: num(field('freq')),
  };
}

function iwLink(iface: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('iw', ['dev', iface, 'link'], { timeout: 2000, maxBuffer: 64 * 1024 }, (err, stdout) =>
      resolve(err ? null : stdout),
    );
  });
}

export function createSystemInfo(opts: { hostRoot?: string } = {}): SystemInfoAdapter {
  const root = opts.hostRoot ?? '/';
  const procRoot = path.join(root, 'proc');
  const sysRoot = path.join(root, 'sys');
  const linux = process.platform === 'linux' && fs.existsSync(path.join(procRoot, 'stat'));
  let sensors: TemperatureSensor[] | null = null;
  let disks: Set<string> | null = null;

  return {
    readCpuTimes() {
      if (linux) {
        const parsed = parseProcStat(readText(path.join(procRoot, 'stat')) ?? '');
        if (parsed) return parsed;
      }
      const cores = os.cpus().map(({ times: t }) => {
        const busy = t.user + t.nice + t.sys + t.irq;
        return { busy, total: busy + t.idle };
      });
      return {
        busy: cores.reduce((s, c) => s + c.busy, 0),
        total: cores.reduce((s, c) => s + c.total, 0),
        cores,
      };
    },

    async readMemory() {
      // Every second: from the file, so an idle hub never loads systeminformation (its memory and
      // util modules are 100 KB of source).
      const reading = linux ? parseMeminfo(readText(path.join(procRoot, 'meminfo')) ?? '') : null;
      if (reading) return reading;
      const m = await si.mem();
      return { total: m.total, used: m.active, swapTotal: m.swaptotal, swapUsed: m.swapused };
    },

    readNetworkCounters() {
      if (!linux) return new Map();
      return parseNetDev(readText(path.join(procRoot, 'net/dev')) ?? '');
    },

    readDiskCounters() {
      if (!linux) return { readBytes: 0, writeBytes: 0 };
      disks ??= discoverDisks(sysRoot);
      return parseDiskStats(readText(path.join(procRoot, 'diskstats')) ?? '', disks);
    },

    readMemoryPressure() {
      const meminfo = readText(path.join(procRoot, 'meminfo'));
      if (!meminfo) return null;
      return parseMemoryPressure(meminfo, readText(path.join(procRoot, 'pressure/memory')));
    },

    readThermalTrips() {
      const thermal = path.join(sysRoot, 'class/thermal');
      const zones: ThermalTrip[] = [];
      for (const zone of listDir(thermal).filter((d) => d.startsWith('thermal_zone'))) {
        const dir = path.join(thermal, zone);
        const milli = Number(readText(path.join(dir, 'temp')));
        if (!Number.isFinite(milli) || milli <= 0 || milli > 200_000) continue;
        let trip: ThermalTrip['trip'] = null;
        for (const file of listDir(dir).filter((f) => /^trip_point_\d+_type$/.test(f))) {
          const type = readText(path.join(dir, file))?.trim() ?? '';
          const tripMilli = Number(readText(path.join(dir, file.replace('_type', '_temp'))));
          if (!HOT_TRIPS.has(type) || !Number.isFinite(tripMilli) || tripMilli <= 0) continue;
          if (!trip || tripMilli / 1000 < trip.temp) trip = { type, temp: round1(tripMilli / 1000) };
        }
        zones.push({
          zone,
          type: readText(path.join(dir, 'type'))?.trim() || zone,
          temp: round1(milli / 1000),
          trip,
        });
      }
      return zones;
    },

    readTemperatures() {
      sensors ??= discoverTemperatureSensors(sysRoot);
      const temps: Record<string, number> = {};
      for (const s of sensors) {
        const milli = Number(readText(s.file));
        // Disabled zones answer with errors or sentinel values such as -40 °C or 0.
        if (!Number.isFinite(milli) || milli <= 0 || milli > 200_000) continue;
        temps[s.label] = round1(milli / 1000);
      }
      return temps;
    },

    loadAverage() {
      const [a = 0, b = 0, c = 0] = os.loadavg().map((v) => Math.round(v * 100) / 100);
      return [a, b, c];
    },

    uptimeSeconds() {
      if (linux) {
        const first = Number(readText(path.join(procRoot, 'uptime'))?.split(' ')[0]);
        if (Number.isFinite(first)) return first;
      }
      return os.uptime();
    },

    hostname: () => os.hostname(),

    readDefaultRoute() {
      if (!linux) return null;
      return parseDefaultRoute(readText(path.join(procRoot, 'net/route')) ?? '');
    },

    readOperstate(iface) {
      if (!/^[\w.:@-]+$/.test(iface)) return null;
      return readText(path.join(sysRoot, 'class/net', iface, 'operstate'))?.trim() ?? null;
    },

    async hostFacts() {
      const [osInfo, system, cpu, mem] = await Promise.all([si.osInfo(), si.system(), si.cpu(), si.mem()]);
      const tegra = readText(path.join(root, 'etc/nv_tegra_release'));
      return {
        hostname: os.hostname(),
        os: {
          platform: osInfo.platform,
          distro: osInfo.distro,
          release: osInfo.release,
          codename: osInfo.codename,
          kernel: osInfo.kernel,
          arch: osInfo.arch,
        },
        hardware: {
          manufacturer: system.manufacturer,
          model: system.model,
          virtual: Boolean(system.virtual),
        },
        cpu: {
          manufacturer: cpu.manufacturer,
          brand: cpu.brand,
          cores: cpu.cores,
          physicalCores: cpu.physicalCores,
          speedMax: cpu.speedMax || null,
        },
        memTotal: mem.total,
        jetson: tegra ? { release: tegra.split('\n')[0]?.replace(/^#\s*/, '').trim() ?? '' } : null,
      };
    },

    // From /proc/self/mounts and statfs: systeminformation's fsSize ran `cat /proc/mounts` with
    // execSync (holding the event loop while a shell started) and `df` in a second shell, four
    // processes forked from the agent every 30 s, the largest part of its idle CPU after the sampler.
    async disks() {
      if (process.platform !== 'linux') return [];
      return readDisks(parseMounts(readText('/proc/self/mounts') ?? ''));
    },

    async processes() {
      const p = await si.processes();
      return {
        total: p.all,
        running: p.running,
        sleeping: p.sleeping,
        blocked: p.blocked,
        processes: p.list.map((x) => ({
          pid: x.pid,
          parentPid: x.parentPid,
          name: x.name,
          command: [x.command, x.params].filter(Boolean).join(' '),
          user: x.user,
          cpu: round1(x.cpu),
          mem: round1(x.mem),
          // ps reports resident memory in KiB.
          rss: x.memRss * 1024,
          state: x.state,
          started: x.started,
        })),
      };
    },

    async networkInterfaces() {
      const list = await si.networkInterfaces();
      return (Array.isArray(list) ? list : [list]).map((i) => ({
        name: i.iface,
        mac: i.mac,
        ip4: i.ip4 || null,
        ip4Subnet: i.ip4subnet || null,
        ip6: i.ip6 || null,
        operstate: i.operstate || 'unknown',
        type: i.type || 'unknown',
        // Links without a negotiated speed (virtio, Wi-Fi on some drivers) report -1.
        speed: i.speed !== null && i.speed > 0 ? i.speed : null,
        mtu: i.mtu ?? null,
        internal: i.internal,
        virtual: i.virtual,
        isDefault: i.default,
      }));
    },

    async listeningPorts() {
      const conns = await si.networkConnections();
      const seen = new Set<string>();
      const result: Omit<ListeningPort, 'service'>[] = [];
      for (const c of conns) {
        const isTcp = c.protocol.startsWith('tcp');
        // UDP sockets have no LISTEN state; a bound one without a peer is the equivalent.
        const listening = isTcp ? c.state === 'LISTEN' : c.peerAddress === '*' || c.peerPort === '*';
        const port = Number(c.localPort);
        if (!listening || !Number.isInteger(port)) continue;
        const key = `${c.protocol}|${c.localAddress}|${port}`;
        if (seen.has(key)) continue;
        seen.add(key);
        result.push({
          protocol: c.protocol,
          address: c.localAddress,
          port,
          pid: c.pid || null,
          process: c.process || null,
        });
      }
      return result.sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol));
    },

    dns() {
      return parseResolvConf(readText(path.join(root, 'etc/resolv.conf')) ?? '');
    },

    async wifiLinks() {
      const links = parseProcWireless(readText(path.join(procRoot, 'net/wireless')) ?? '');
      return Promise.all(
        links.map(async (l) => {
          // The name comes from the host's own file, still checked: it becomes an argument.
          const iw = /^[\w.-]{1,15}$/.test(l.interface) ? await iwLink(l.interface) : null;
          const fromIw = iw ? parseIwLink(iw) : null;
          return {
            interface: l.interface,
            ssid: fromIw?.ssid ?? null,
            signalDbm: fromIw?.signalDbm ?? l.signalDbm,
            quality: l.quality,
            txBitrate: fromIw?.txBitrate ?? null,
            frequencyMhz: fromIw?.frequencyMhz ?? null,
          };
        }),
      );
    },
  };
}
