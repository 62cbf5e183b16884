import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from './wait-for.js';

/**
 * A real Docker Swarm for the fleet tests (issue 24). Podman has no Swarm mode, so these tests run
 * Debian's docker.io daemon (scripts/ensure-test-deps.sh installs it) with everything of its own:
 * data and exec roots and socket in a temporary directory, the vfs storage driver, no iptables and
 * no bridge (services use the host network), and `swarm init` on loopback. Its containers run the
 * same busybox image as the Podman tests, imported as localhost/busybox:test.
 */
export interface SwarmEngine {
  /** unix:///…/docker.sock, for the agent's DOCKER_HOST. */
  dockerHost: string;
  socketPath: string;
  /** The swarm's node id of this engine. */
  nodeId: string;
  /** The Docker CLI against this engine (`docker stack ls`…); returns stdout. */
  cli(args: string[]): string;
  stop(): Promise<void>;
}

export const SWARM_TEST_IMAGE = 'localhost/busybox:test';

/** Why a swarm cannot run here, or null when it can. Synchronous, for describe.skipIf. */
export function swarmUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'dockerd needs root';
  for (const tool of ['dockerd', 'docker']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'pipe' });
    } catch {
      return `${tool} is not installed (scripts/ensure-test-deps.sh installs docker.io)`;
    }
  }
  return null;
}

/** The slowest CLI call seen here (importing the busybox image on a loaded machine) takes seconds. */
const CLI_TIMEOUT_MS = 120_000;

/** The docker CLI of Debian's docker.io, which matches its daemon's API version. */
function dockerCli(): string {
  return fs.existsSync('/usr/bin/docker') ? '/usr/bin/docker' : 'docker';
}

export async function startSwarmEngine(
  options: { advertiseAddr?: string; swarm?: boolean } = {},
): Promise<SwarmEngine> {
  // Short paths: the daemon's containerd socket under exec-root must fit a unix socket path.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nxsw-'));
  const socketPath = path.join(dir, 'docker.sock');
  const dockerHost = `unix://${socketPath}`;
  const execRoot = path.join(dir, 'x');
  const daemonLogFile = path.join(dir, 'dockerd.log');
  const daemonLogFd = fs.openSync(daemonLogFile, 'a');
  const daemon: ChildProcess = spawn(
    'dockerd',
    [
      '--data-root',
      path.join(dir, 'data'),
      '--exec-root',
      execRoot,
      '--pidfile',
      path.join(dir, 'docker.pid'),
      '--host',
      dockerHost,
      '--storage-driver',
      'vfs',
      '--iptables=false',
      '--ip6tables=false',
      '--bridge=none',
    ],
    // Its log goes to a file, not a pipe: the tests call the CLI synchronously, and while one waits,
    // nothing reads a pipe. A swarm leave logs enough to fill one; dockerd's logger then blocked on
    // the write while holding the lock the leave itself needed to log, and the CLI waited for ever.
    { stdio: ['ignore', 'ignore', daemonLogFd], cwd: '/' },
  );
  fs.closeSync(daemonLogFd);
  const daemonLog = () => fs.readFileSync(daemonLogFile, 'utf8').slice(-8192);
  const cli = (args: string[]): string =>
    execFileSync(dockerCli(), ['--host', dockerHost, ...args], {
      encoding: 'utf8',
      stdio: 'pipe',
      // A CLI call that hangs fails its test instead of holding the whole run.
      timeout: CLI_TIMEOUT_MS,
    });

  const stop = async (): Promise<void> => {
    try {
      cli(['swarm', 'leave', '--force']);
    } catch {
      // Not in a swarm, or the daemon is gone.
    }
    if (daemon.exitCode === null) {
      const exited = new Promise((resolve) => daemon.once('exit', resolve));
      daemon.kill('SIGTERM');
      await exited;
    }
    // The daemon bind-mounts its network namespace files under exec-root.
    try {
      execFileSync('sh', ['-c', `grep -o ' ${execRoot}[^ ]*' /proc/mounts | xargs -r -n1 umount -l`], {
        stdio: 'pipe',
      });
    } catch {
      // Nothing mounted.
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    await waitFor(
      () => {
        if (daemon.exitCode !== null) throw new Error(`dockerd exited: ${daemonLog()}`);
        try {
          cli(['info', '--format', '{{.ServerVersion}}']);
          return true;
        } catch {
          return false;
        }
      },
      (answered) => answered,
      { timeoutMs: 60_000, what: 'dockerd to answer' },
    );
    importBusybox(cli);
    let nodeId = '';
    if (options.swarm !== false) {
      // An address of its own in 127/8, so that test files running at once each have port 2377.
      const addr = options.advertiseAddr ?? randomLoopbackAddress();
      cli(['swarm', 'init', '--advertise-addr', addr, '--listen-addr', `${addr}:2377`]);
      nodeId = cli(['info', '--format', '{{.Swarm.NodeID}}']).trim();
    }
    return { dockerHost, socketPath, nodeId, cli, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function randomLoopbackAddress(): string {
  const octet = () => 1 + Math.floor(Math.random() * 253);
  return `127.${octet()}.${octet()}.${octet()}`;
}

/** busybox with all its applet links, as scripts/ensure-test-deps.sh builds it for Podman. */
function importBusybox(cli: (args: string[]) => string): void {
  const rootfs = fs.mkdtempSync(path.join(os.tmpdir(), 'nxsw-rootfs-'));
  try {
    fs.mkdirSync(path.join(rootfs, 'bin'));
    fs.mkdirSync(path.join(rootfs, 'tmp'));
    fs.copyFileSync('/bin/busybox', path.join(rootfs, 'bin', 'busybox'));
    fs.chmodSync(path.join(rootfs, 'bin', 'busybox'), 0o755);
    const applets = execFileSync('/bin/busybox', ['--list'], { encoding: 'utf8' }).split('\n');
    for (const applet of applets) {
      if (applet && applet !== 'busybox') fs.symlinkSync('busybox', path.join(rootfs, 'bin', applet));
    }
    const tarFile = `${rootfs}.tar`;
    execFileSync('tar', ['-C', rootfs, '-cf', tarFile, '.']);
    cli(['import', tarFile, SWARM_TEST_IMAGE]);
    fs.rmSync(tarFile, { force: true });
  } finally {
    fs.rmSync(rootfs, { recursive: true, force: true });
  }
}
