import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Network namespaces joined to the test's own namespace by veth pairs, for real WireGuard tests
 * (issue 17). Every address used lies in 198.18.0.0/15 (RFC 2544's benchmarking range, never
 * routed on a LAN); an `unreachable` route for that range keeps any packet whose link went down
 * on this machine instead of letting it follow the default route.
 */

export const TEST_RANGE = '198.18.0.0/15';

const sh = (cmd: string, args: string[], opts: { input?: string } = {}) =>
  execFileSync(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], input: opts.input }).toString();

export function netnsUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'network namespaces and WireGuard interfaces need root';
  for (const tool of ['ip', 'wg', 'wireguard-go', 'ping']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'pipe' });
    } catch {
      return `${tool} is not installed (scripts/ensure-test-deps.sh installs it)`;
    }
  }
  try {
    const probe = `nxprobe${process.pid % 10000}`;
    sh('ip', ['netns', 'add', probe]);
    sh('ip', ['netns', 'del', probe]);
    return null;
  } catch (error) {
    return `ip netns add failed: ${(error as { stderr?: Buffer }).stderr?.toString().trim() || error}`;
  }
}

export interface Netns {
  name: string;
  /** The veth end in the test's namespace and its address. */
  hostIf: string;
  hostAddress: string;
  /** The address inside the namespace. */
  address: string;
  exec(cmd: string, args: string[], input?: string): string;
  /** Takes the namespace's end of the link down or up (cuts the path from the host). */
  link(state: 'up' | 'down'): void;
}

export function createLab(tag: string) {
  const created: Netns[] = [];
  const interfaces: string[] = [];
  const rules: number[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-wg-lab-'));
  let safetyRoute = false;

  function addNamespace(short: string, subnet: number): Netns {
    if (!safetyRoute) {
      try {
        sh('ip', ['route', 'add', 'unreachable', TEST_RANGE, 'metric', '4000']);
        safetyRoute = true;
      } catch {
        // Already there (another lab of this run).
      }
    }
    const name = `nx${tag}${short}`;
    const hostIf = `nxv${tag}${short}`;
    const hostAddress = `198.18.${subnet}.1`;
    const address = `198.18.${subnet}.2`;
    sh('ip', ['netns', 'add', name]);
    const ns: Netns = {
      name,
      hostIf,
      hostAddress,
      address,
      exec: (cmd, args, input) => sh('ip', ['netns', 'exec', name, cmd, ...args], { input }),
      link: (state) => sh('ip', ['netns', 'exec', name, 'ip', 'link', 'set', 'eth0', state]),
    };
    created.push(ns);
    sh('ip', ['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', name]);
    sh('ip', ['address', 'add', `${hostAddress}/30`, 'dev', hostIf]);
    sh('ip', ['link', 'set', hostIf, 'up']);
    ns.exec('ip', ['address', 'add', `${address}/30`, 'dev', 'eth0']);
    ns.exec('ip', ['link', 'set', 'eth0', 'up']);
    ns.exec('ip', ['link', 'set', 'lo', 'up']);
    return ns;
  }

  /** A WireGuard interface inside `ns` (wireguard-go: this kernel has no module), configured with `wg setconf`. */
  function wireguard(ns: Netns, ifName: string, conf: string, addresses: string[], routes: string[] = []) {
    ns.exec('wireguard-go', [ifName]);
    const file = path.join(dir, `${ifName}.conf`);
    fs.writeFileSync(file, conf, { mode: 0o600 });
    ns.exec('wg', ['setconf', ifName, file]);
    for (const a of addresses) ns.exec('ip', ['address', 'add', a, 'dev', ifName]);
    ns.exec('ip', ['link', 'set', ifName, 'up']);
    for (const r of routes) ns.exec('ip', ['route', 'replace', r, 'dev', ifName]);
  }

  return {
    addNamespace,
    wireguard,
    /** Interfaces the agent makes in the test's namespace, removed at cleanup. */
    track: (ifName: string) => interfaces.push(ifName),
    /** Policy rules the agent adds (by priority), removed at cleanup. */
    trackRule: (priority: number) => rules.push(priority),
    cleanup() {
      for (const ns of created) {
        // The WireGuard daemons this lab started keep their namespace alive: end them (by pid) first.
        for (const pid of sh('ip', ['netns', 'pids', ns.name]).split('\n').filter(Boolean)) {
          try {
            process.kill(Number(pid), 'SIGTERM');
          } catch {
            // already gone
          }
        }
        try {
          sh('ip', ['link', 'del', ns.hostIf]);
        } catch {
          // already gone
        }
        try {
          sh('ip', ['netns', 'del', ns.name]);
        } catch {
          // already gone
        }
      }
      for (const i of interfaces) {
        try {
          sh('ip', ['link', 'del', i]);
        } catch {
          // already gone
        }
      }
      for (const priority of rules) {
        try {
          sh('ip', ['rule', 'del', 'priority', String(priority)]);
        } catch {
          // already gone
        }
      }
      if (safetyRoute) {
        try {
          sh('ip', ['route', 'del', 'unreachable', TEST_RANGE, 'metric', '4000']);
        } catch {
          // already gone
        }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `ip route get` in the test's namespace: the device traffic to `target` leaves through. */
export const routeDevice = (target: string) =>
  /\bdev (\S+)/.exec(sh('ip', ['-o', 'route', 'get', target]))?.[1] ?? null;

export const wgDump = (ifName: string) => sh('wg', ['show', ifName, 'dump']);

export const wgGenKey = () => {
  const privateKey = sh('wg', ['genkey']).trim();
  return { privateKey, publicKey: sh('wg', ['pubkey'], { input: privateKey }).trim() };
};
