import type { HostFiles } from '../../adapters/host-files.js';
import type { JetsonReport } from '../../contract/jetson.js';
import { TEGRA_FAMILIES, jetpackForL4t, normalizeL4tRelease, parseNvTegraRelease } from './l4t-releases.js';

/**
 * Reading the facts of a (possibly) Jetson host from its files. Each reader takes the host's
 * files and answers what it found; nothing here judges. Paths are the kernel's and JetPack's own:
 * device tree under /proc/device-tree, thermal zones under /sys/devices/virtual/thermal, cpufreq
 * and devfreq for clocks, INA3221 monitors for power rails, nvpmodel's files for the power mode.
 */

type Facts = Omit<JetsonReport, 'generatedAt' | 'hostRoot' | 'checks' | 'summary' | 'disks'>;

const readTrimmed = (host: HostFiles, rel: string): string | null => {
  const text = host.readText(rel);
  if (text === null) return null;
  // Device-tree strings end with NUL; sysfs values with a newline.
  const trimmed = text.replace(/\0+$/, '').trim();
  return trimmed === '' ? null : trimmed;
};

const readNumber = (host: HostFiles, rel: string): number | null => {
  const text = readTrimmed(host, rel);
  if (text === null || !/^-?\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
};

const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;
const byNumberSuffix = (a: string, b: string) => Number(/\d+$/.exec(a)?.[0]) - Number(/\d+$/.exec(b)?.[0]);

// ---- board and releases -----------------------------------------------------------------------

export function readBoard(host: HostFiles): JetsonReport['board'] & { compatible: string[] } {
  const model =
    readTrimmed(host, 'proc/device-tree/model') ?? readTrimmed(host, 'sys/firmware/devicetree/base/model');
  const compatibleText =
    host.readText('proc/device-tree/compatible') ?? host.readText('sys/firmware/devicetree/base/compatible');
  const compatible = (compatibleText ?? '')
    .split('\0')
    .map((s) => s.trim())
    .filter(Boolean);
  const soc = compatible.map((c) => /^nvidia,(tegra\d+)$/.exec(c)?.[1]).find(Boolean) ?? null;
  return { model, soc, family: soc ? (TEGRA_FAMILIES[soc] ?? null) : null, compatible };
}

/** The Version of an installed package in dpkg's status file (dpkg(1): RFC 822-style paragraphs). */
export function dpkgInstalledVersion(statusText: string, packageName: string): string | null {
  for (const paragraph of statusText.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    for (const line of paragraph.split('\n')) {
      const match = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
      if (match) fields.set(match[1]!.toLowerCase(), match[2]!.trim());
    }
    if (fields.get('package') !== packageName) continue;
    if (!(fields.get('status') ?? '').endsWith(' installed')) continue;
    return fields.get('version') ?? null;
  }
  return null;
}

export function readReleases(host: HostFiles): Pick<Facts, 'l4t' | 'jetpack'> {
  const dpkg = host.readText('var/lib/dpkg/status');
  let l4t: JetsonReport['l4t'] = null;
  const tegra = host.readText('etc/nv_tegra_release');
  const parsed = tegra ? parseNvTegraRelease(tegra) : null;
  if (parsed) {
    l4t = { release: parsed.release, source: 'nv_tegra_release', raw: parsed.raw };
  } else if (dpkg) {
    // nvidia-l4t-core's version is the release and a build stamp: 36.4.0-20240912212859.
    const core = dpkgInstalledVersion(dpkg, 'nvidia-l4t-core');
    const release = core ? normalizeL4tRelease(core.split('-')[0] ?? '') : null;
    if (release) l4t = { release, source: 'package', raw: null };
  }

  let jetpack: JetsonReport['jetpack'] = null;
  // The meta-package's version is JetPack's own: 6.1+b123, 5.1.2-b104.
  const jetpackPackage = dpkg ? dpkgInstalledVersion(dpkg, 'nvidia-jetpack') : null;
  const packageVersion = jetpackPackage ? /^\d+(\.\d+)*/.exec(jetpackPackage)?.[0] : undefined;
  if (packageVersion) jetpack = { version: packageVersion, match: 'package' };
  else if (l4t) jetpack = jetpackForL4t(l4t.release);
  return { l4t, jetpack };
}

export function readCuda(host: HostFiles): JetsonReport['cuda'] {
  const json = host.readText('usr/local/cuda/version.json');
  if (json) {
    try {
      const version = (JSON.parse(json) as { cuda?: { version?: unknown } }).cuda?.version;
      if (typeof version === 'string' && version) return { version, source: 'version.json' };
    } catch {
      // fall through to the older file
    }
  }
  const txt = host.readText('usr/local/cuda/version.txt');
  const fromTxt = txt ? /CUDA Version\s+([\d.]+)/i.exec(txt)?.[1] : undefined;
  if (fromTxt) return { version: fromTxt, source: 'version.txt' };
  const dirs = host
    .list('usr/local')
    .map((d) => /^cuda-(\d+\.\d+)$/.exec(d)?.[1])
    .filter((v): v is string => Boolean(v))
    .sort(
      (a, b) =>
        Number(b.split('.')[0]) - Number(a.split('.')[0]) ||
        Number(b.split('.')[1]) - Number(a.split('.')[1]),
    );
  return dirs[0] ? { version: dirs[0], source: 'directory' } : null;
}

// ---- power mode ---------------------------------------------------------------------------------

/** nvpmodel.conf: "< POWER_MODEL ID=0 NAME=15W >" per mode and "< PM_CONFIG DEFAULT=2 >". */
export function parseNvpmodelConf(text: string): {
  modes: { id: number; name: string }[];
  defaultId: number | null;
} {
  const modes: { id: number; name: string }[] = [];
  let defaultId: number | null = null;
  for (const line of text.split('\n')) {
    const mode = /^\s*<\s*POWER_MODEL\s+ID=(\d+)\s+NAME=([^\s>]+)/.exec(line);
    if (mode) modes.push({ id: Number(mode[1]), name: mode[2]! });
    const config = /^\s*<\s*PM_CONFIG\s+DEFAULT=(\d+)/.exec(line);
    if (config) defaultId = Number(config[1]);
  }
  return { modes, defaultId };
}

/** /var/lib/nvpmodel/status, written by nvpmodel: "pmode:0002" (newer releases add " fmode:quiet"). */
export function parseNvpmodelStatus(text: string): number | null {
  const match = /pmode:\s*(\d+)/.exec(text);
  return match ? Number(match[1]) : null;
}

export function readPowerMode(host: HostFiles): JetsonReport['powerMode'] {
  const conf = host.readText('etc/nvpmodel.conf');
  const status = host.readText('var/lib/nvpmodel/status');
  if (conf === null && status === null) return null;
  const { modes, defaultId } = conf ? parseNvpmodelConf(conf) : { modes: [], defaultId: null };
  const currentId = status ? parseNvpmodelStatus(status) : null;
  return {
    current:
      currentId === null
        ? null
        : { id: currentId, name: modes.find((m) => m.id === currentId)?.name ?? null },
    defaultId,
    modes,
  };
}

// ---- clocks -------------------------------------------------------------------------------------

export function readClocks(host: HostFiles): JetsonReport['clocks'] {
  const cpuDir = 'sys/devices/system/cpu';
  const cpus = host
    .list(cpuDir)
    .filter((d) => /^cpu\d+$/.test(d))
    .sort(byNumberSuffix)
    .map((d) => {
      const cpu = Number(d.slice(3));
      // cpu0 usually has no "online" file: it cannot be taken offline.
      const online = readNumber(host, `${cpuDir}/${d}/online`) !== 0;
      const freq = (file: string) => {
        const khz = readNumber(host, `${cpuDir}/${d}/cpufreq/${file}`);
        return khz === null ? null : Math.round(khz / 1000);
      };
      return {
        cpu,
        online,
        curMHz: online ? freq('scaling_cur_freq') : null,
        minMHz: freq('scaling_min_freq') ?? freq('cpuinfo_min_freq'),
        maxMHz: freq('scaling_max_freq') ?? freq('cpuinfo_max_freq'),
        governor: readTrimmed(host, `${cpuDir}/${d}/cpufreq/scaling_governor`),
      };
    });

  // The GPU's devfreq device is named after its address and core: 17000000.gpu (Orin, JetPack 6),
  // 17000000.ga10b (Orin, JetPack 5), 17000000.gv11b (Xavier), 57000000.gpu (Nano).
  const gpuName = host.list('sys/class/devfreq').find((d) => /gpu|gv11b|ga10b|gp10b|gm20b/i.test(d));
  let gpu: JetsonReport['clocks']['gpu'] = null;
  if (gpuName) {
    const mhz = (file: string) => {
      const hz = readNumber(host, `sys/class/devfreq/${gpuName}/${file}`);
      return hz === null ? null : Math.round(hz / 1_000_000);
    };
    gpu = { name: gpuName, curMHz: mhz('cur_freq'), minMHz: mhz('min_freq'), maxMHz: mhz('max_freq') };
  }
  return { cpus, gpu };
}

// ---- thermal ------------------------------------------------------------------------------------

/** Zones that report a constant rather than a reading (Xavier's and Nano's PMIC-Die says 100 °C always). */
const FIXED_VALUE_ZONES = /^pmic-die$/i;
const saneCelsius = (milli: number | null) =>
  milli !== null && milli > -40_000 && milli < 200_000 ? round1(milli / 1000) : null;

export function readThermal(host: HostFiles): JetsonReport['thermal'] {
  const dir = 'sys/devices/virtual/thermal';
  return host
    .list(dir)
    .filter((d) => /^thermal_zone\d+$/.test(d))
    .sort(byNumberSuffix)
    .map((zone) => {
      const files = host.list(`${dir}/${zone}`);
      const trips = files
        .map((f) => /^trip_point_(\d+)_type$/.exec(f)?.[1])
        .filter((n): n is string => n !== undefined)
        .map((n) => ({
          type: readTrimmed(host, `${dir}/${zone}/trip_point_${n}_type`) ?? '',
          tempC: saneCelsius(readNumber(host, `${dir}/${zone}/trip_point_${n}_temp`)),
        }))
        .filter((t): t is { type: string; tempC: number } => t.tempC !== null && t.tempC > 0);
      const lowest = (types: string[]) => {
        const temps = trips.filter((t) => types.includes(t.type)).map((t) => t.tempC);
        return temps.length ? Math.min(...temps) : null;
      };
      const type = readTrimmed(host, `${dir}/${zone}/type`) ?? zone;
      return {
        zone,
        type,
        tempC: saneCelsius(readNumber(host, `${dir}/${zone}/temp`)),
        throttleC: lowest(['passive', 'hot']),
        criticalC: lowest(['critical']),
        measured: !FIXED_VALUE_ZONES.test(type),
      };
    });
}

// ---- power rails --------------------------------------------------------------------------------

export function readPowerRails(host: HostFiles): JetsonReport['powerRails'] {
  const rails: JetsonReport['powerRails'] = [];
  const rail = (name: string, mV: number | null, mA: number | null, mW: number | null) => {
    const voltageV = mV === null ? null : round2(mV / 1000);
    const currentA = mA === null ? null : round2(mA / 1000);
    const powerW =
      mW !== null ? round2(mW / 1000) : mV !== null && mA !== null ? round2((mV * mA) / 1e6) : null;
    rails.push({ name, voltageV, currentA, powerW });
  };

  // JetPack 5 and 6: the INA3221 is a hwmon device; inN_label names the rail, inN_input is mV, currN_input mA.
  const hwmonDriver = 'sys/bus/i2c/drivers/ina3221';
  for (const device of host.list(hwmonDriver).filter((d) => /^\d+-[0-9a-f]{4}$/i.test(d))) {
    for (const hwmon of host.list(`${hwmonDriver}/${device}/hwmon`).filter((d) => /^hwmon\d+$/.test(d))) {
      const base = `${hwmonDriver}/${device}/hwmon/${hwmon}`;
      for (const label of host.list(base).filter((f) => /^in\d+_label$/.test(f))) {
        const n = /^in(\d+)_label$/.exec(label)![1]!;
        const name = readTrimmed(host, `${base}/${label}`);
        // The sum channel of some boards ("sum of shunt voltages") is not a rail.
        if (!name || /sum/i.test(name)) continue;
        rail(
          name,
          readNumber(host, `${base}/in${n}_input`),
          readNumber(host, `${base}/curr${n}_input`),
          null,
        );
      }
    }
  }

  // JetPack 4: the ina3221x IIO driver; rail_name_N with in_voltageN_input, in_currentN_input, in_powerN_input.
  const iioDriver = 'sys/bus/i2c/drivers/ina3221x';
  for (const device of host.list(iioDriver).filter((d) => /^\d+-[0-9a-f]{4}$/i.test(d))) {
    for (const iio of host.list(`${iioDriver}/${device}`).filter((d) => d.startsWith('iio:device'))) {
      const base = `${iioDriver}/${device}/${iio}`;
      for (const file of host.list(base).filter((f) => /^rail_name_\d+$/.test(f))) {
        const n = /(\d+)$/.exec(file)![1]!;
        const name = readTrimmed(host, `${base}/${file}`);
        if (!name) continue;
        rail(
          name,
          readNumber(host, `${base}/in_voltage${n}_input`),
          readNumber(host, `${base}/in_current${n}_input`),
          readNumber(host, `${base}/in_power${n}_input`),
        );
      }
    }
  }
  return rails;
}

// ---- container runtime, memory ------------------------------------------------------------------

const NVIDIA_RUNTIME_PATHS = [
  'usr/bin/nvidia-container-runtime',
  'usr/local/bin/nvidia-container-runtime',
  'usr/sbin/nvidia-container-runtime',
];
const CDI_SPEC_PATHS = [
  'etc/cdi/nvidia.yaml',
  'etc/cdi/nvidia.json',
  'var/run/cdi/nvidia.yaml',
  'var/run/cdi/nvidia.json',
];

export function readContainerRuntime(host: HostFiles): JetsonReport['containerRuntime'] {
  const binary = NVIDIA_RUNTIME_PATHS.find((p) => host.isExecutableFile(p));
  let dockerRuntimes: string[] = [];
  let defaultRuntime: string | null = null;
  const daemon = host.readText('etc/docker/daemon.json');
  if (daemon) {
    try {
      const parsed = JSON.parse(daemon) as { runtimes?: unknown; 'default-runtime'?: unknown };
      if (parsed.runtimes && typeof parsed.runtimes === 'object')
        dockerRuntimes = Object.keys(parsed.runtimes);
      if (typeof parsed['default-runtime'] === 'string') defaultRuntime = parsed['default-runtime'];
    } catch {
      // An unparseable daemon.json is reported as "no runtimes registered"; dockerd refuses it too.
    }
  }
  const cdi = CDI_SPEC_PATHS.find((p) => host.exists(p));
  return {
    nvidiaRuntimeBinary: binary ? `/${binary}` : null,
    dockerRuntimes,
    defaultRuntime,
    cdiSpec: cdi ? `/${cdi}` : null,
  };
}

/** /proc/meminfo (proc(5)): values in kB. */
export function parseMeminfo(text: string): JetsonReport['memory'] {
  const kb = (key: string) => {
    const match = new RegExp(`^${key}:\\s+(\\d+)\\s*kB`, 'm').exec(text);
    return match ? Number(match[1]) * 1024 : null;
  };
  const total = kb('MemTotal');
  if (total === null) return null;
  return {
    totalBytes: total,
    availableBytes: kb('MemAvailable') ?? kb('MemFree') ?? 0,
    swapTotalBytes: kb('SwapTotal') ?? 0,
    swapFreeBytes: kb('SwapFree') ?? 0,
  };
}

export function readFacts(host: HostFiles): Facts {
  const { compatible, ...board } = readBoard(host);
  const releases = readReleases(host);
  const isJetson =
    host.exists('etc/nv_tegra_release') ||
    compatible.some((c) => /^nvidia,tegra/.test(c)) ||
    /jetson/i.test(board.model ?? '');
  const meminfo = host.readText('proc/meminfo');
  return {
    isJetson,
    board,
    ...releases,
    cuda: readCuda(host),
    powerMode: readPowerMode(host),
    clocks: readClocks(host),
    thermal: readThermal(host),
    powerRails: readPowerRails(host),
    containerRuntime: readContainerRuntime(host),
    memory: meminfo ? parseMeminfo(meminfo) : null,
  };
}
