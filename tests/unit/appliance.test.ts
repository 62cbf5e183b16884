import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The appliance's files, checked as far as this machine can (no Docker engine, no registry, no
 * systemd as PID 1): compose.yaml parses and has the structure the issue asks for, its services
 * match the app catalog, Dockerfile.jetson is a multi-stage arm64 build with a non-root user, a
 * data volume and a health check, the systemd unit is valid and hardened, the scripts pass
 * shellcheck, and the installer's command line behaves.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  profiles?: string[];
  runtime?: string;
  network_mode?: string;
  environment?: Record<string, string>;
  volumes?: (string | { type: string; source: string; target: string; read_only?: boolean })[];
  ports?: string[];
  group_add?: string[];
  restart?: string;
}
const compose = parse(read('compose.yaml')) as {
  name: string;
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const catalog = JSON.parse(read('docker/catalog.json')) as {
  apps: { id: string; gpu: boolean; template: string; fields: { key: string; default: string }[] }[];
};

/** ${VAR:-default} → default, as compose resolves it with VAR unset. */
const withDefaults = (value: string) => value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

describe('compose.yaml', () => {
  it('runs the agent on the host network with the Docker socket, the host root read-only and its data volume', () => {
    const agent = compose.services.agent!;
    expect(agent.build).toEqual({ context: '.', dockerfile: 'Dockerfile.jetson' });
    expect(agent.network_mode).toBe('host');
    expect(agent.restart).toBe('unless-stopped');
    expect(agent.environment).toMatchObject({ NEXUS_HOST_ROOT: '/host', NEXUS_DATA_DIR: '/data' });
    expect(agent.environment?.DOCKER_HOST).toBe('unix:///var/run/docker.sock');
    expect(withDefaults(String(agent.environment?.HTTPS_PORT))).toBe('443');
    expect(agent.volumes).toContain('nexus-data:/data');
    expect(agent.volumes).toContainEqual(
      expect.objectContaining({
        type: 'bind',
        source: '/var/run/docker.sock',
        target: '/var/run/docker.sock',
      }),
    );
    expect(agent.volumes).toContainEqual(
      expect.objectContaining({ type: 'bind', source: '/', target: '/host', read_only: true }),
    );
    // A non-root agent reaches the socket through the host's docker group.
    expect(agent.group_add).toHaveLength(1);
    expect(agent.profiles).toBeUndefined();
    expect(Object.keys(compose.volumes)).toContain('nexus-data');
  });

  it('offers the catalog services behind profiles, GPU ones on the NVIDIA runtime', () => {
    const expected: Record<string, { profile: string; catalog: string; gpu: boolean }> = {
      ollama: { profile: 'ollama', catalog: 'ollama', gpu: true },
      homeassistant: { profile: 'home-assistant', catalog: 'home-assistant', gpu: false },
      whisper: { profile: 'voice', catalog: 'wyoming-whisper', gpu: true },
      piper: { profile: 'voice', catalog: 'wyoming-piper', gpu: true },
      openwakeword: { profile: 'voice', catalog: 'wyoming-openwakeword', gpu: false },
    };
    expect(Object.keys(compose.services).sort()).toEqual(['agent', ...Object.keys(expected)].sort());
    for (const [name, want] of Object.entries(expected)) {
      const service = compose.services[name]!;
      expect(service.profiles, name).toEqual([want.profile]);
      const app = catalog.apps.find((a) => a.id === want.catalog)!;
      expect(app.gpu, name).toBe(want.gpu);
      expect(service.runtime, name).toBe(want.gpu ? 'nvidia' : undefined);
    }
  });

  it('uses the catalog templates’ images and ports by default', () => {
    const pairs: [string, string, string, string | null][] = [
      ['ollama', 'ollama', 'OLLAMA_IMAGE', 'OLLAMA_PORT'],
      ['homeassistant', 'home-assistant', 'HA_IMAGE', null],
      ['whisper', 'wyoming-whisper', 'WHISPER_IMAGE', 'WHISPER_PORT'],
      ['piper', 'wyoming-piper', 'PIPER_IMAGE', 'PIPER_PORT'],
      ['openwakeword', 'wyoming-openwakeword', 'OPENWAKEWORD_IMAGE', 'OPENWAKEWORD_PORT'],
    ];
    for (const [service, appId, imageKey, portKey] of pairs) {
      const app = catalog.apps.find((a) => a.id === appId)!;
      const field = (key: string) => app.fields.find((f) => f.key === key)!.default;
      expect(withDefaults(compose.services[service]!.image!), service).toBe(field(imageKey));
      if (portKey)
        expect(withDefaults(compose.services[service]!.ports![0]!).split(':')[0], service).toBe(
          field(portKey),
        );
    }
    // Home Assistant on the host network, as its template has it.
    expect(compose.services.homeassistant!.network_mode).toBe('host');
  });
});

/** Dockerfile instructions, continuation lines joined, comments dropped. */
function instructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op = '', ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

describe('Dockerfile.jetson', () => {
  const steps = instructions(read('Dockerfile.jetson'));
  const froms = steps.filter((s) => s.op === 'FROM');
  const finalStage = steps.slice(steps.lastIndexOf(froms.at(-1)!));

  it('builds web and agent in a build stage and runs an arm64 image', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) expect(from.args).toContain('--platform=linux/arm64');
    const buildStage = steps.slice(steps.indexOf(froms[0]!), steps.indexOf(froms[1]!));
    expect(buildStage.some((s) => s.op === 'RUN' && s.args.includes('npm ci'))).toBe(true);
    expect(buildStage.some((s) => s.op === 'RUN' && s.args.includes('npm run build'))).toBe(true);
    const copiedFromBuild = finalStage
      .filter((s) => s.op === 'COPY' && s.args.includes('--from=build'))
      .map((s) => s.args);
    for (const needed of ['/src/agent/dist', '/src/agent/drizzle', '/src/web/dist', '/src/node_modules']) {
      expect(
        copiedFromBuild.some((a) => a.includes(needed)),
        needed,
      ).toBe(true);
    }
  });

  it('runs as a non-root user with the data directory as a volume and a health check on /api/health', () => {
    const user = finalStage.filter((s) => s.op === 'USER').at(-1);
    expect(user?.args).toBeTruthy();
    expect(['root', '0']).not.toContain(user!.args);
    expect(finalStage.find((s) => s.op === 'VOLUME')?.args).toContain('/data');
    expect(finalStage.find((s) => s.op === 'ENV' && s.args.includes('NEXUS_DATA_DIR=/data'))).toBeTruthy();
    expect(finalStage.find((s) => s.op === 'HEALTHCHECK')?.args).toContain('/api/health');
    expect(finalStage.find((s) => s.op === 'EXPOSE')?.args).toBe('8080');
    // HTTPS on 443 (issue 21, docs/https.md), which the unprivileged user may bind through setcap.
    expect(finalStage.filter((s) => s.op === 'EXPOSE').map((s) => s.args)).toContain('443');
    expect(finalStage.find((s) => s.op === 'ENV' && s.args.includes('HTTPS_PORT=443'))).toBeTruthy();
    expect(finalStage.some((s) => s.op === 'RUN' && s.args.includes('cap_net_bind_service=+ep'))).toBe(true);
    expect(finalStage.find((s) => s.op === 'CMD')?.args).toContain('agent/dist/bundle/main.js');
  });

  it('launches the agent as the systemd unit and npm start do: same node flags, memory settings and module', () => {
    // What each launcher sets, as words: node's flags, then the module; NODE_OPTIONS and malloc's
    // threshold beside them. The benchmarks read the unit (scripts/bench/appliance-launch.ts), so a
    // launcher that drifted from it would run something no benchmark measured.
    const unit = read('systemd/nexus-agent.service');
    const unitEnv = [...unit.matchAll(/^Environment=((?:NODE_OPTIONS|MALLOC_MMAP_THRESHOLD_)=.*)$/gm)].map(
      (m) => m[1]!,
    );
    const unitCommand = /^ExecStart=\/usr\/bin\/node (.*) \/opt\/nexus\/(\S+)$/m.exec(unit)!;
    const launch = { env: unitEnv.sort(), command: [...unitCommand[1]!.split(' '), unitCommand[2]!] };

    const cmd = JSON.parse(finalStage.find((s) => s.op === 'CMD')!.args) as string[];
    const imageEnv = finalStage
      .filter((s) => s.op === 'ENV')
      .flatMap((s) => s.args.split(/\s+/))
      .filter((word) => /^(NODE_OPTIONS|MALLOC_MMAP_THRESHOLD_)=/.test(word));
    expect({ env: imageEnv.sort(), command: cmd.slice(1) }).toEqual(launch);
    expect(cmd[0]).toBe('node');

    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    const words = start.split('&&').at(-1)!.trim().split(/\s+/);
    const node = words.indexOf('node');
    expect({ env: words.slice(0, node).sort(), command: words.slice(node + 1) }).toEqual(launch);
  });

  it('copies only paths that exist in the repository', () => {
    for (const s of steps.filter((x) => x.op === 'COPY' && !x.args.includes('--from='))) {
      const sources = s.args
        .split(/\s+/)
        .filter((a) => !a.startsWith('--'))
        .slice(0, -1);
      for (const source of sources) expect(fs.existsSync(path.join(root, source)), source).toBe(true);
    }
  });
});

describe('the systemd unit', () => {
  const unit = read('systemd/nexus-agent.service');
  const settings = new Map<string, string[]>();
  for (const line of unit.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) settings.set(match[1]!, [...(settings.get(match[1]!) ?? []), match[2]!]);
  }
  const value = (key: string) => settings.get(key)?.at(-1);

  it('runs the built agent as its own user, restarts on failure and keeps its data directory', () => {
    expect(value('ExecStart')).toBe(
      '/usr/bin/node --no-concurrent-recompilation --no-memory-reducer /opt/nexus/agent/dist/bundle/main.js',
    );
    expect(value('User')).toBe('nexus');
    expect(value('Restart')).toBe('on-failure');
    expect(value('StateDirectory')).toBe('nexus');
    expect(settings.get('Environment')).toContain('NEXUS_DATA_DIR=/var/lib/nexus');
    expect(value('EnvironmentFile')).toBe('-/etc/nexus/nexus.env');
    expect(value('WantedBy')).toBe('multi-user.target');
  });

  it('is hardened without breaking what the agent needs', () => {
    expect(value('NoNewPrivileges')).toBe('yes');
    expect(value('ProtectSystem')).toBe('strict');
    expect(value('ProtectHome')).toBe('yes');
    expect(value('PrivateTmp')).toBe('yes');
    // Only what `wg show` needs for the VPN status.
    expect(value('CapabilityBoundingSet')).toBe('CAP_NET_ADMIN');
    expect(value('AmbientCapabilities')).toBe('CAP_NET_ADMIN');
    expect(value('ReadWritePaths')).toContain('/run/docker.sock');
    expect(value('RestrictAddressFamilies')?.split(' ')).toEqual(
      expect.arrayContaining(['AF_UNIX', 'AF_INET', 'AF_INET6']),
    );
    // V8's JIT needs writable executable memory; the metrics need all of /proc.
    expect(settings.has('MemoryDenyWriteExecute')).toBe(false);
    expect(settings.has('ProcSubset')).toBe(false);
  });

  const analyze = spawnSync('systemd-analyze', ['--version']);
  it.skipIf(analyze.status !== 0)('passes systemd-analyze verify without a warning', () => {
    // verify checks that ExecStart's program exists: point it at this machine's node.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unit-'));
    const file = path.join(dir, 'nexus-agent.service');
    fs.writeFileSync(file, unit.replace('ExecStart=/usr/bin/node', `ExecStart=${process.execPath}`));
    const result = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr.trim()).toBe('');
  });
});

describe('the scripts', () => {
  const scripts = fs
    .readdirSync(path.join(root, 'scripts'))
    .filter((f) => f.endsWith('.sh'))
    .map((f) => path.join('scripts', f));

  it('pass shellcheck', () => {
    // scripts/ensure-test-deps.sh installs shellcheck with the rest of the test tools.
    const result = spawnSync('shellcheck', ['-x', ...scripts], { cwd: root, encoding: 'utf8' });
    if (result.error)
      throw new Error(
        `shellcheck is not installed: run scripts/ensure-test-deps.sh (${result.error.message})`,
      );
    expect(scripts).toContain('scripts/install.sh');
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it.skipIf(spawnSync('podman', ['--version']).status !== 0)(
    'podman-service.sh starts the service from /, so removing the directory it was run from breaks nothing',
    () => {
      // A service whose working directory was removed fails every container start with
      // "write child: broken pipe" (an old clone or CI checkout did this).
      const from = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-podman-cwd-'));
      const socket = path.join(from, 'api.sock');
      const started = spawnSync('bash', [path.join(root, 'scripts/podman-service.sh'), socket], {
        cwd: from,
        encoding: 'utf8',
      });
      const pids = spawnSync('pgrep', ['-f', `unix://${socket}`], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean);
      try {
        expect(started.status, started.stderr).toBe(0);
        expect(started.stdout.trim()).toBe(`unix://${socket}`);
        expect(pids.length).toBeGreaterThan(0);
        for (const pid of pids) expect(fs.readlinkSync(`/proc/${pid}/cwd`)).toBe('/');
      } finally {
        for (const pid of pids) spawnSync('kill', [pid]);
        fs.rmSync(from, { recursive: true, force: true });
      }
    },
    30_000,
  );

  const install = (...args: string[]) =>
    spawnSync('bash', [path.join(root, 'scripts/install.sh'), ...args], { encoding: 'utf8' });

  it('install.sh explains itself and refuses wrong options with exit 2', () => {
    const help = install('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--uninstall');
    const unknown = install('--frobnicate');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown option --frobnicate');
    expect(install('--port', 'eighty').stderr).toContain('--port needs a number');
    expect(install('--purge').stderr).toContain('--purge only goes with --uninstall');
  });

  it.skipIf(
    !fs.existsSync('/etc/os-release') || !/debian|ubuntu/.test(fs.readFileSync('/etc/os-release', 'utf8')),
  )(
    'install.sh --dry-run plans the user, the build, the data directory, the config and the unit without changing anything',
    () => {
      const plan = install('--dry-run');
      expect(plan.status, plan.stderr).toBe(0);
      expect(plan.stdout).toContain('Dry run: nothing is changed');
      expect(plan.stdout).toContain('npm ci && npm run build');
      expect(plan.stdout).toContain('install -d -m 0700 -o nexus -g nexus /var/lib/nexus');
      expect(plan.stdout).toContain('/etc/systemd/system/nexus-agent.service');
      expect(plan.stdout).toContain('systemctl enable nexus-agent');
      const removal = install('--uninstall', '--purge', '--dry-run');
      expect(removal.status, removal.stderr).toBe(0);
      expect(removal.stdout).toContain('rm -rf /var/lib/nexus /etc/nexus');
    },
  );
});
