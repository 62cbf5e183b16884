import { statfsAt, type HostFiles } from '../../adapters/host-files.js';
import { summarizeChecks, type DiagnosticCheck, type JetsonReport } from '../../contract/jetson.js';
import { readFacts } from './jetson-facts.js';
import { CUDA_MAJOR_BY_JETPACK_MAJOR, jetpackMajor } from './l4t-releases.js';

/** Below these a disk is a problem: models and images are several GB each. */
const DISK_FAIL_BYTES = 1 * 1024 ** 3;
const DISK_FAIL_PERCENT = 3;
const DISK_WARN_BYTES = 5 * 1024 ** 3;
const DISK_WARN_PERCENT = 10;
/** Share of memory still available below which the hub is short of memory. */
const MEMORY_FAIL_PERCENT = 5;
const MEMORY_WARN_PERCENT = 15;
/** How close to a trip point counts as hot, and the limits for zones that name none. */
const THERMAL_MARGIN_C = 5;
const THERMAL_WARN_DEFAULT_C = 85;
const THERMAL_FAIL_DEFAULT_C = 95;

const CONTAINER_HINT =
  'If the agent runs in a container, mount the host root read-only (-v /:/host:ro) and set NEXUS_HOST_ROOT=/host.';
const RUNTIME_CONFIGURE =
  'sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker';

export function formatBytes(bytes: number): string {
  const gib = bytes / 1024 ** 3;
  if (gib >= 1) return `${gib.toFixed(1)} GB`;
  return `${Math.round(bytes / 1024 ** 2)} MB`;
}

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

type Facts = ReturnType<typeof readFacts>;
type Disk = JetsonReport['disks'][number];

function boardCheck(f: Facts): DiagnosticCheck {
  if (!f.isJetson) {
    return {
      id: 'board',
      title: 'Jetson board',
      status: 'warn',
      detail:
        'This machine is not an NVIDIA Jetson: there is no /etc/nv_tegra_release and no Tegra device tree. The Jetson checks are skipped; the general ones still run.',
      fix: `Nothing to do on a PC or a VM. On a Jetson: ${CONTAINER_HINT}`,
    };
  }
  const soc = f.board.soc ? ` (${[f.board.family, f.board.soc].filter(Boolean).join(', ')})` : '';
  return {
    id: 'board',
    title: 'Jetson board',
    status: 'pass',
    detail: `${f.board.model ?? 'An NVIDIA Jetson'}${soc}.`,
    fix: null,
  };
}

function jetpackCheck(f: Facts): DiagnosticCheck {
  const base = { id: 'jetpack', title: 'Jetson Linux and JetPack' };
  if (!f.l4t && !f.jetpack) {
    return {
      ...base,
      status: 'fail',
      detail:
        'No Jetson Linux release found: /etc/nv_tegra_release is missing and nvidia-l4t-core is not installed.',
      fix: 'Reinstall the core package (sudo apt install --reinstall nvidia-l4t-core) or reflash the module with JetPack using NVIDIA SDK Manager.',
    };
  }
  const l4t = f.l4t ? `Jetson Linux R${f.l4t.release}` : 'Jetson Linux (release unknown)';
  const jetpack = f.jetpack ? `JetPack ${f.jetpack.version}` : 'an unknown JetPack';
  const major = f.jetpack ? jetpackMajor(f.jetpack.version) : null;
  const detail = `${l4t}, ${jetpack}${f.jetpack?.match === 'major' ? ' (from the major release only: this exact release is not in the table)' : ''}.`;
  if (major !== null && major <= 4) {
    return {
      ...base,
      status: 'fail',
      detail: `${detail} JetPack 4 has reached end of life and ships CUDA 10.2; the hub's GPU containers need JetPack 5 or 6.`,
      fix: 'Move to JetPack 6 on an Orin module (or JetPack 5.1 on Xavier) with NVIDIA SDK Manager, then reinstall Nexus.',
    };
  }
  if (major === 5) {
    return {
      ...base,
      status: 'warn',
      detail: `${detail} JetPack 5 works, but the catalog's Whisper and Piper images are built for JetPack 6 (L4T R36).`,
      fix: "In the deploy screen choose images built for L4T R35 (jetson-containers tags ending in -r35.x) and set Ollama's JetPack version to 5.",
    };
  }
  if (f.jetpack?.match === 'major' || major === null) {
    return {
      ...base,
      status: 'warn',
      detail,
      fix: 'Confirm the JetPack version on the hub with: apt-cache show nvidia-jetpack',
    };
  }
  return { ...base, status: 'pass', detail, fix: null };
}

function cudaCheck(f: Facts): DiagnosticCheck {
  const base = { id: 'cuda', title: 'CUDA' };
  const install = 'Install the JetPack components (CUDA, cuDNN, TensorRT): sudo apt install nvidia-jetpack';
  if (!f.cuda) {
    return { ...base, status: 'warn', detail: 'No CUDA toolkit under /usr/local/cuda.', fix: install };
  }
  const expected = f.jetpack ? CUDA_MAJOR_BY_JETPACK_MAJOR[jetpackMajor(f.jetpack.version) ?? -1] : undefined;
  const major = Number(f.cuda.version.split('.')[0]);
  if (expected !== undefined && major !== expected) {
    return {
      ...base,
      status: 'warn',
      detail: `CUDA ${f.cuda.version} does not belong to JetPack ${f.jetpack!.version}, which ships CUDA ${expected}.`,
      fix: install,
    };
  }
  return { ...base, status: 'pass', detail: `CUDA ${f.cuda.version}.`, fix: null };
}

function powerModeCheck(f: Facts): DiagnosticCheck {
  const base = { id: 'power-mode', title: 'Power mode (nvpmodel)' };
  const pm = f.powerMode;
  if (!pm || pm.modes.length === 0) {
    return {
      ...base,
      status: 'warn',
      detail: "nvpmodel's configuration (/etc/nvpmodel.conf) is missing, so the power modes are unknown.",
      fix: 'sudo apt install --reinstall nvidia-l4t-nvpmodel',
    };
  }
  if (!pm.current) {
    return {
      ...base,
      status: 'warn',
      detail: `${pm.modes.length} power modes are defined, but nvpmodel has not recorded the current one (/var/lib/nvpmodel/status is missing).`,
      fix: 'Run sudo nvpmodel -q once to record it; choose a mode with sudo nvpmodel -m <id>.',
    };
  }
  const name = pm.current.name ?? 'an unnamed mode';
  const fallbackDefault = pm.modes.find((m) => m.id === pm.defaultId);
  const maxn = pm.modes.find((m) => /^MAXN/i.test(m.name));
  const hint =
    maxn && maxn.id !== pm.current.id
      ? ` For the most speed with local models: sudo nvpmodel -m ${maxn.id} (${maxn.name}).`
      : '';
  return {
    ...base,
    status: 'pass',
    detail: `${name} (mode ${pm.current.id} of ${pm.modes.length}${fallbackDefault ? `; the default is ${fallbackDefault.name}` : ''}).${hint}`,
    fix: null,
  };
}

function cpuClockCheck(f: Facts): DiagnosticCheck | null {
  const base = { id: 'cpu-clocks', title: 'CPU cores and clocks' };
  const cpus = f.clocks.cpus;
  const withFreq = cpus.filter((c) => c.maxMHz !== null);
  if (withFreq.length === 0) {
    // VMs and containers without the host's /sys have no cpufreq; that is only news on a Jetson.
    if (!f.isJetson) return null;
    return {
      ...base,
      status: 'warn',
      detail: 'The CPU clocks (cpufreq) are not readable.',
      fix: CONTAINER_HINT,
    };
  }
  const online = cpus.filter((c) => c.online);
  const current = online.map((c) => c.curMHz).filter((v): v is number => v !== null);
  const max = Math.max(...withFreq.map((c) => c.maxMHz!));
  const governor = online.find((c) => c.governor)?.governor;
  const range = current.length
    ? `${Math.min(...current)}–${Math.max(...current)} MHz now`
    : 'current clock unknown';
  const detail = `${online.length} of ${cpus.length} cores online, ${range}, up to ${max} MHz${governor ? ` (${governor} governor)` : ''}.`;
  if (online.length < cpus.length) {
    const offline = cpus.filter((c) => !c.online).map((c) => `cpu${c.cpu}`);
    return {
      ...base,
      status: 'warn',
      detail: `${detail} Offline: ${offline.join(', ')}.`,
      fix: f.isJetson
        ? 'The power mode turns cores off: choose one with more cores (sudo nvpmodel -m <id>).'
        : `Bring them back with: echo 1 | sudo tee /sys/devices/system/cpu/${offline[0]}/online`,
    };
  }
  return { ...base, status: 'pass', detail, fix: null };
}

function gpuClockCheck(f: Facts): DiagnosticCheck {
  const base = { id: 'gpu-clock', title: 'GPU clock' };
  const gpu = f.clocks.gpu;
  if (!gpu) {
    return {
      ...base,
      status: 'warn',
      detail: "The GPU's clock (devfreq) is not visible, so the GPU driver may not be loaded.",
      fix: `Check the driver with: sudo dmesg | grep -i nvgpu. ${CONTAINER_HINT}`,
    };
  }
  const range = gpu.minMHz !== null && gpu.maxMHz !== null ? ` (range ${gpu.minMHz}–${gpu.maxMHz} MHz)` : '';
  return {
    ...base,
    status: 'pass',
    detail: `${gpu.name} at ${gpu.curMHz ?? '?'} MHz${range}.`,
    fix: null,
  };
}

function thermalCheck(f: Facts): DiagnosticCheck | null {
  const base = { id: 'thermal', title: 'Temperatures' };
  if (f.thermal.length === 0) {
    if (!f.isJetson) return null;
    return { ...base, status: 'warn', detail: 'No thermal zones are visible.', fix: CONTAINER_HINT };
  }
  const measured = f.thermal.filter((z) => z.measured && z.tempC !== null);
  if (measured.length === 0) {
    return { ...base, status: 'warn', detail: 'No thermal zone can be read now.', fix: CONTAINER_HINT };
  }
  const judged = measured.map((z) => {
    const failAt = z.criticalC !== null ? z.criticalC - THERMAL_MARGIN_C : THERMAL_FAIL_DEFAULT_C;
    const warnAt = z.throttleC !== null ? z.throttleC - THERMAL_MARGIN_C : THERMAL_WARN_DEFAULT_C;
    const level = z.tempC! >= failAt ? 2 : z.tempC! >= Math.min(warnAt, failAt) ? 1 : 0;
    return { zone: z, level };
  });
  const worst = judged.reduce((a, b) =>
    b.level > a.level || (b.level === a.level && b.zone.tempC! > a.zone.tempC!) ? b : a,
  );
  const z = worst.zone;
  const limit =
    z.throttleC !== null
      ? `; it throttles at ${z.throttleC} °C`
      : z.criticalC !== null
        ? `; critical at ${z.criticalC} °C`
        : '';
  const detail = `${worst.level === 0 ? 'Hottest' : 'Too hot'}: ${z.type} at ${z.tempC} °C${limit} (${measured.length} zones read).`;
  if (worst.level === 0) return { ...base, status: 'pass', detail, fix: null };
  return {
    ...base,
    status: worst.level === 2 ? 'fail' : 'warn',
    detail,
    fix: 'Check the fan and the airflow (a covered case or a dusty heatsink); sudo jetson_clocks --fan runs the fan at full speed. A lower power mode (sudo nvpmodel -m <id>) makes less heat.',
  };
}

function powerRailCheck(f: Facts): DiagnosticCheck | null {
  if (f.powerRails.length === 0) return null;
  const input = f.powerRails.find((r) => /^VDD_IN$|^POM_5V_IN$/i.test(r.name));
  const total = input?.powerW ?? f.powerRails.reduce((sum, r) => sum + (r.powerW ?? 0), 0);
  return {
    id: 'power-rails',
    title: 'Power rails',
    status: 'pass',
    detail: `${f.powerRails.length} rails monitored; ${input ? `${input.name} draws` : 'together they draw'} ${total.toFixed(1)} W.`,
    fix: null,
  };
}

function containerRuntimeCheck(f: Facts): DiagnosticCheck {
  const base = { id: 'container-runtime', title: 'NVIDIA container runtime' };
  const rt = f.containerRuntime;
  if (!rt.nvidiaRuntimeBinary) {
    return {
      ...base,
      status: 'fail',
      detail:
        'nvidia-container-runtime is not installed, so GPU containers (Ollama, Whisper, Piper) cannot reach the GPU.',
      fix: `sudo apt install nvidia-container-toolkit, then ${RUNTIME_CONFIGURE}`,
    };
  }
  if (!rt.dockerRuntimes.includes('nvidia')) {
    return {
      ...base,
      status: 'warn',
      detail: `${rt.nvidiaRuntimeBinary} is installed but not registered with Docker (/etc/docker/daemon.json has no "nvidia" runtime), so "runtime: nvidia" fails.`,
      fix: RUNTIME_CONFIGURE,
    };
  }
  const fallback = rt.defaultRuntime === 'nvidia' ? ' It is also the default runtime.' : '';
  return {
    ...base,
    status: 'pass',
    detail: `${rt.nvidiaRuntimeBinary}, registered with Docker as "nvidia".${fallback}`,
    fix: null,
  };
}

function memoryChecks(f: Facts): DiagnosticCheck[] {
  const m = f.memory;
  if (!m) return [];
  const availablePct = percent(m.availableBytes, m.totalBytes);
  const memoryStatus =
    availablePct < MEMORY_FAIL_PERCENT ? 'fail' : availablePct < MEMORY_WARN_PERCENT ? 'warn' : 'pass';
  const checks: DiagnosticCheck[] = [
    {
      id: 'memory',
      title: 'Memory',
      status: memoryStatus,
      detail: `${formatBytes(m.availableBytes)} of ${formatBytes(m.totalBytes)} available (${availablePct} %).`,
      fix:
        memoryStatus === 'pass'
          ? null
          : 'Stop containers you do not need (Nexus Docker screen) or use smaller models; on a Jetson the GPU shares this memory.',
    },
  ];
  checks.push(
    m.swapTotalBytes === 0
      ? {
          id: 'swap',
          title: 'Swap',
          status: 'warn',
          detail: 'There is no swap: a model larger than free memory makes the kernel kill processes.',
          fix: 'sudo fallocate -l 8G /swapfile && sudo chmod 600 /swapfile && sudo mkswap /swapfile && sudo swapon /swapfile (and add it to /etc/fstab)',
        }
      : {
          id: 'swap',
          title: 'Swap',
          status: 'pass',
          detail: `${formatBytes(m.swapFreeBytes)} of ${formatBytes(m.swapTotalBytes)} swap free.`,
          fix: null,
        },
  );
  return checks;
}

function diskCheck(disk: Disk): DiagnosticCheck {
  const availablePct = percent(disk.availableBytes, disk.totalBytes);
  const status =
    disk.availableBytes < DISK_FAIL_BYTES || availablePct < DISK_FAIL_PERCENT
      ? 'fail'
      : disk.availableBytes < DISK_WARN_BYTES || availablePct < DISK_WARN_PERCENT
        ? 'warn'
        : 'pass';
  return {
    id: `disk-${disk.label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
    title: `Disk: ${disk.label}`,
    status,
    detail: `${formatBytes(disk.availableBytes)} free of ${formatBytes(disk.totalBytes)} (${availablePct} %) at ${disk.path}.`,
    fix:
      status === 'pass'
        ? null
        : 'Remove unused images and models (docker image prune -a; ollama rm <model>) or move the data to an NVMe drive.',
  };
}

export function buildChecks(facts: Facts, disks: Disk[]): DiagnosticCheck[] {
  const onJetson = <T>(make: (f: Facts) => T) => (facts.isJetson ? make(facts) : null);
  const checks: (DiagnosticCheck | null)[] = [
    boardCheck(facts),
    onJetson(jetpackCheck),
    onJetson(cudaCheck),
    onJetson(powerModeCheck),
    cpuClockCheck(facts),
    onJetson(gpuClockCheck),
    thermalCheck(facts),
    powerRailCheck(facts),
    onJetson(containerRuntimeCheck),
    ...memoryChecks(facts),
    ...disks.map(diskCheck),
  ];
  return checks.filter((c): c is DiagnosticCheck => c !== null);
}

export interface JetsonServiceDeps {
  host: HostFiles;
  /** The agent's data directory: its disk is checked as well as the host's root. */
  dataDir: string;
  now?: () => number;
}

export function createJetsonService(deps: JetsonServiceDeps) {
  const now = deps.now ?? Date.now;
  return {
    report(): JetsonReport {
      const facts = readFacts(deps.host);
      const disks: Disk[] = [];
      const root = deps.host.statfs('/');
      if (root) disks.push({ label: 'Host root', path: '/', ...root });
      const data = statfsAt(deps.dataDir);
      if (data) disks.push({ label: 'Data directory', path: deps.dataDir, ...data });
      const checks = buildChecks(facts, disks);
      return {
        generatedAt: new Date(now()).toISOString(),
        hostRoot: deps.host.root,
        ...facts,
        disks,
        checks,
        summary: summarizeChecks(checks),
      };
    },
  };
}

export type JetsonService = ReturnType<typeof createJetsonService>;
