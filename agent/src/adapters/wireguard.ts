import { execFile } from 'node:child_process';
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { WG_INTERFACE_PATTERN } from '../contract/wireguard.js';
import { parseWgDump, type WgInterface } from './vpn.js';

/**
 * The one place that runs `wg`, `ip`, `wireguard-go` and `ping` for the hub's own WireGuard (issue 17):
 * keys, interfaces, their configuration and routes, and probes through a tunnel. Every command runs
 * with execFile (never a shell) and a timeout; every argument is checked here first, so a name or
 * address that reaches this module from a request cannot become an option or a second command.
 */

export type WgImplementation = 'kernel' | 'wireguard-go';

const TIMEOUT_MS = 5000;
const KEY_PATTERN = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
/** The DER prefix of an X25519 private key (PKCS#8) and public key (SPKI); the raw 32 bytes follow. */
const X25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');

export class WgCommandError extends Error {
  constructor(
    readonly command: string,
    message: string,
  ) {
    super(message);
    this.name = 'WgCommandError';
  }
}

export function isWgKey(key: string): boolean {
  return KEY_PATTERN.test(key) && Buffer.from(key, 'base64').length === 32;
}

export function isIpv4(address: string): boolean {
  return IPV4.test(address);
}

/** A WireGuard key pair: X25519, each key the base64 of its raw 32 bytes (what `wg genkey | wg pubkey` print). */
export function generateWgKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('x25519');
  const priv = privateKey.export({ format: 'jwk' }).d!;
  const pub = publicKey.export({ format: 'jwk' }).x!;
  return {
    privateKey: Buffer.from(priv, 'base64url').toString('base64'),
    publicKey: Buffer.from(pub, 'base64url').toString('base64'),
  };
}

export function wgPublicKeyOf(privateKeyBase64: string): string {
  const raw = Buffer.from(privateKeyBase64, 'base64');
  if (raw.length !== 32) throw new Error('A WireGuard private key is 32 bytes');
  const key = createPrivateKey({
    key: Buffer.concat([X25519_PKCS8_PREFIX, raw]),
    format: 'der',
    type: 'pkcs8',
  });
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  return Buffer.from(jwk.x!, 'base64url').toString('base64');
}

export const generatePresharedKey = () => randomBytes(32).toString('base64');

function checkInterface(name: string): string {
  if (!WG_INTERFACE_PATTERN.test(name)) throw new Error(`not an interface name: ${JSON.stringify(name)}`);
  return name;
}

function checkCidr(cidr: string): string {
  const [address, prefix, ...rest] = cidr.split('/');
  if (
    rest.length ||
    !address ||
    !isIpv4(address) ||
    prefix === undefined ||
    !/^\d{1,2}$/.test(prefix) ||
    Number(prefix) > 32
  )
    throw new Error(`not an IPv4 address with prefix: ${JSON.stringify(cidr)}`);
  return cidr;
}

function run(file: string, args: string[], timeoutMs = TIMEOUT_MS, env?: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 1024 * 1024, env }, (err, stdout, stderr) => {
      if (err) {
        const reason = stderr.toString().trim() || err.message;
        reject(
          new WgCommandError(
            `${file} ${args[0] ?? ''}`.trim(),
            `${file} ${args.slice(0, 2).join(' ')}: ${reason}`,
          ),
        );
      } else resolve(stdout.toString());
    });
  });
}

/** One peer of a `wg setconf` file. */
export interface WgPeerConf {
  publicKey: string;
  presharedKey?: string | null;
  endpoint?: string | null;
  allowedIps: string[];
  keepalive?: number | null;
}

export interface WgInterfaceConf {
  privateKey: string;
  listenPort?: number | null;
  peers: WgPeerConf[];
}

/** The text `wg setconf` reads (wg(8) CONFIGURATION FILE FORMAT), from checked values only. */
export function renderSetconf(conf: WgInterfaceConf): string {
  if (!isWgKey(conf.privateKey)) throw new Error('invalid private key');
  const lines = ['[Interface]', `PrivateKey = ${conf.privateKey}`];
  if (conf.listenPort) lines.push(`ListenPort = ${conf.listenPort}`);
  for (const peer of conf.peers) {
    if (!isWgKey(peer.publicKey)) throw new Error('invalid peer public key');
    lines.push('', '[Peer]', `PublicKey = ${peer.publicKey}`);
    if (peer.presharedKey) {
      if (!isWgKey(peer.presharedKey)) throw new Error('invalid preshared key');
      lines.push(`PresharedKey = ${peer.presharedKey}`);
    }
    if (peer.endpoint) {
      if (!/^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/.test(peer.endpoint)) throw new Error('invalid endpoint');
      lines.push(`Endpoint = ${peer.endpoint}`);
    }
    if (peer.allowedIps.length) lines.push(`AllowedIPs = ${peer.allowedIps.map(checkCidr).join(', ')}`);
    if (peer.keepalive) lines.push(`PersistentKeepalive = ${Math.trunc(peer.keepalive)}`);
  }
  return lines.join('\n') + '\n';
}

export interface WireguardAdapter {
  /** Which implementation made the interfaces of this process: null until one was created. */
  implementation(): WgImplementation | null;
  exists(name: string): Promise<boolean>;
  isUp(name: string): Promise<boolean>;
  /** Creates the interface if missing: the kernel module, else wireguard-go. */
  ensureInterface(name: string): Promise<WgImplementation>;
  deleteInterface(name: string): Promise<void>;
  /** Writes the config to a 0600 file under the data dir, `wg setconf`, then removes the file (keys stay sealed at rest). */
  setConfig(name: string, conf: WgInterfaceConf): Promise<void>;
  /** Replaces the interface's addresses and brings it up. */
  up(name: string, addresses: string[]): Promise<void>;
  dump(name: string): Promise<WgInterface | null>;
  /** `ip route replace <cidr> dev <if>` (optionally in a table). */
  routeReplace(cidr: string, name: string, table?: number): Promise<void>;
  routeDelete(cidr: string, name: string): Promise<void>;
  /** Traffic from `source` uses `table` (so a probe from a tunnel's address leaves through that tunnel). */
  sourceRule(source: string, table: number, priority: number): Promise<void>;
  deleteSourceRule(source: string, table: number, priority: number): Promise<void>;
  /** The device the kernel would send `target` through now. */
  routeDevice(target: string): Promise<string | null>;
  /** One ICMP echo through the interface (ping -I), ms or null. */
  ping(name: string, target: string, timeoutSeconds: number): Promise<number | null>;
  /** A TCP connect from `localAddress`, ms or null (a refusal answers too, so it counts). */
  tcpProbe(localAddress: string, host: string, port: number, timeoutMs: number): Promise<number | null>;
}

export function createWireguardAdapter(opts: {
  configDir: string;
  preferUserspace?: boolean;
}): WireguardAdapter {
  let implementation: WgImplementation | null = null;

  async function exists(name: string) {
    checkInterface(name);
    try {
      await run('ip', ['-o', 'link', 'show', 'dev', name]);
      return true;
    } catch {
      return false;
    }
  }

  return {
    implementation: () => implementation,
    exists,

    async isUp(name) {
      checkInterface(name);
      try {
        const out = await run('ip', ['-o', 'link', 'show', 'dev', name]);
        return /<[^>]*\bUP\b/.test(out);
      } catch {
        return false;
      }
    },

    async ensureInterface(name) {
      checkInterface(name);
      if (await exists(name)) {
        // Left from an earlier start: wireguard-go keeps its control socket under /var/run/wireguard.
        const userspace = fs.existsSync(path.join('/var/run/wireguard', `${name}.sock`));
        return (implementation = userspace ? 'wireguard-go' : 'kernel');
      }
      if (!opts.preferUserspace) {
        try {
          await run('ip', ['link', 'add', 'dev', name, 'type', 'wireguard']);
          return (implementation = 'kernel');
        } catch {
          // No WireGuard module in this kernel (some Jetson kernels): the userspace implementation.
        }
      }
      // wireguard-go forks into the background once the interface exists, and ends when it is deleted.
      // Without LOG_LEVEL in its environment (the agent's own is set), the daemon does not keep our
      // stdout pipe open: with it, execFile would wait for the daemon to end.
      await run('wireguard-go', [name], 15_000, {
        // eslint-disable-next-line no-restricted-properties -- the tool's search path, not configuration
        PATH: process.env.PATH,
      });
      return (implementation = 'wireguard-go');
    },

    async deleteInterface(name) {
      if (await exists(name)) await run('ip', ['link', 'del', 'dev', name]);
    },

    async setConfig(name, conf) {
      checkInterface(name);
      const text = renderSetconf(conf);
      fs.mkdirSync(opts.configDir, { recursive: true, mode: 0o700 });
      const file = path.join(opts.configDir, `${name}.conf`);
      fs.writeFileSync(file, text, { mode: 0o600 });
      fs.chmodSync(file, 0o600);
      try {
        await run('wg', ['setconf', name, file]);
      } finally {
        fs.rmSync(file, { force: true });
      }
    },

    async up(name, addresses) {
      checkInterface(name);
      addresses.forEach(checkCidr);
      await run('ip', ['address', 'flush', 'dev', name]);
      for (const a of addresses) await run('ip', ['address', 'add', a, 'dev', name]);
      await run('ip', ['link', 'set', 'dev', name, 'up']);
    },

    async dump(name) {
      checkInterface(name);
      if (!(await exists(name))) return null;
      const text = await run('wg', ['show', name, 'dump']);
      // `wg show <if> dump` omits the interface column that `wg show all dump` has: add it back.
      const lines = text
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => `${name}\t${l}`);
      return parseWgDump(lines.join('\n'))[0] ?? { name, listenPort: null, peers: [] };
    },

    async routeReplace(cidr, name, table) {
      checkCidr(cidr);
      checkInterface(name);
      const args = ['route', 'replace', cidr, 'dev', name];
      if (table !== undefined) args.push('table', String(Math.trunc(table)));
      await run('ip', args);
    },

    async routeDelete(cidr, name) {
      checkCidr(cidr);
      checkInterface(name);
      await run('ip', ['route', 'del', cidr, 'dev', name]).catch(() => undefined);
    },

    async sourceRule(source, table, priority) {
      if (!isIpv4(source)) throw new Error('not an IPv4 address');
      const args = ['from', `${source}/32`, 'lookup', String(table), 'priority', String(priority)];
      await run('ip', ['rule', 'del', ...args]).catch(() => undefined);
      await run('ip', ['rule', 'add', ...args]);
    },

    async deleteSourceRule(source, table, priority) {
      if (!isIpv4(source)) return;
      await run('ip', [
        'rule',
        'del',
        'from',
        `${source}/32`,
        'lookup',
        String(table),
        'priority',
        String(priority),
      ]).catch(() => undefined);
    },

    async routeDevice(target) {
      if (!isIpv4(target)) throw new Error('not an IPv4 address');
      try {
        const out = await run('ip', ['-o', 'route', 'get', target]);
        return /\bdev (\S+)/.exec(out)?.[1] ?? null;
      } catch {
        return null;
      }
    },

    async ping(name, target, timeoutSeconds) {
      checkInterface(name);
      if (!isIpv4(target)) throw new Error('not an IPv4 address');
      const wait = String(Math.max(1, Math.trunc(timeoutSeconds)));
      try {
        const out = await run(
          'ping',
          ['-n', '-q', '-c', '1', '-W', wait, '-I', name, target],
          (Number(wait) + 2) * 1000,
        );
        const rtt = /= [\d.]+\/([\d.]+)\//.exec(out);
        return rtt ? Number(rtt[1]) : null;
      } catch {
        return null;
      }
    },

    tcpProbe(localAddress, host, port, timeoutMs) {
      return new Promise((resolve) => {
        const started = performance.now();
        const socket = net.connect({ host, port, localAddress, timeout: timeoutMs });
        const done = (ok: boolean) => {
          socket.destroy();
          resolve(ok ? Math.round((performance.now() - started) * 10) / 10 : null);
        };
        socket.once('connect', () => done(true));
        socket.once('timeout', () => done(false));
        socket.once('error', (err: NodeJS.ErrnoException) => done(err.code === 'ECONNREFUSED'));
      });
    },
  };
}
