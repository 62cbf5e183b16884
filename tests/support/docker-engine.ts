import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The image scripts/ensure-test-deps.sh imports: busybox and its applets, no registry needed. */
export const TEST_IMAGE = 'localhost/busybox:test';

/**
 * Makes sure Podman's Docker-compatible API answers (scripts/podman-service.sh starts it when it
 * does not) and returns the DOCKER_HOST for agents under test.
 */
export function ensureDockerEngine(): string {
  try {
    return execFileSync('bash', [`${repoRoot}/scripts/podman-service.sh`], { encoding: 'utf8' }).trim();
  } catch (err) {
    throw new Error(
      'The Docker engine for the tests is not available; run scripts/ensure-test-deps.sh first.',
      { cause: err },
    );
  }
}

/** Runs the podman CLI (the tests' own view of the engine, independent of the agent). */
export function podman(...args: string[]): string {
  return execFileSync('podman', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Removes containers, networks and volumes of compose projects, and named containers; never fails. */
export function cleanUpDocker(opts: { projects?: string[]; containers?: string[] }): void {
  const quiet = (...args: string[]) => {
    try {
      return podman(...args);
    } catch {
      return '';
    }
  };
  for (const project of opts.projects ?? []) {
    const filter = `label=com.docker.compose.project=${project}`;
    const ids = quiet('ps', '-aq', '--filter', filter).split('\n').filter(Boolean);
    if (ids.length) quiet('rm', '-f', '-t', '1', ...ids);
    const networks = quiet('network', 'ls', '-q', '--filter', filter).split('\n').filter(Boolean);
    if (networks.length) quiet('network', 'rm', '-f', ...networks);
    const volumes = quiet('volume', 'ls', '-q', '--filter', filter).split('\n').filter(Boolean);
    if (volumes.length) quiet('volume', 'rm', '-f', ...volumes);
  }
  if (opts.containers?.length) quiet('rm', '-f', '-t', '1', '--ignore', ...opts.containers);
}

/** A TCP port free on loopback right now, for a container's published port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
