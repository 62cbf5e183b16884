import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/**
 * The host's VPNs: WireGuard through `wg show all dump`; Tailscale through tailscaled's LocalAPI on
 * its unix socket (`GET /localapi/v0/status`, what `tailscale status --json` itself reads), or the
 * `tailscale` CLI where only the CLI is reachable. A tool or socket that is not there means that VPN
 * is absent; everything runs with a timeout and never through a shell.
 */

/** Where tailscaled listens on Linux unless started with --socket. */
export const DEFAULT_TAILSCALE_SOCKET = '/var/run/tailscale/tailscaled.sock';

/** WireGuard drops a session this long after its last handshake (REJECT_AFTER_TIME in the protocol). */
export const WG_SESSION_TIMEOUT_S = 180;
const DEFAULT_TIMEOUT_MS = 3000;

export interface WgPeer {
  publicKey: string;
  endpoint: string | null;
  allowedIps: string[];
  /** Unix seconds, 0 when there has been no handshake. */
  latestHandshake: number;
  rxBytes: number;
  txBytes: number;
}

export interface WgInterface {
  name: string;
  listenPort: number | null;
  peers: WgPeer[];
}

const none = (v: string | undefined) => (v === undefined || v === '(none)' || v === '' ? null : v);

/**
 * Parses `wg show all dump` (wg(8)): tab-separated lines, each starting with the interface name.
 * An interface line has private key, public key, listen port, fwmark; a peer line has public key,
 * preshared key, endpoint, allowed ips, latest handshake, rx, tx, persistent keepalive. The private
 * and preshared keys are dropped here and go no further.
 */
export function parseWgDump(text: string): WgInterface[] {
  const interfaces = new Map<string, WgInterface>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const f = line.split('\t');
    const name = f[0]!;
    if (f.length === 5) {
      const port = Number(f[3]);
      interfaces.set(name, { name, listenPort: Number.isInteger(port) && port > 0 ? port : null, peers: [] });
    } else if (f.length === 9) {
      let iface = interfaces.get(name);
      if (!iface) interfaces.set(name, (iface = { name, listenPort: null, peers: [] }));
      const allowed = none(f[4]);
      iface.peers.push({
        publicKey: f[1]!,
        endpoint: none(f[3]),
        allowedIps: allowed ? allowed.split(',').map((s) => s.trim()) : [],
        latestHandshake: Number(f[5]) || 0,
        rxBytes: Number(f[6]) || 0,
        txBytes: Number(f[7]) || 0,
      });
    }
  }
  return [...interfaces.values()];
}

export function wgPeerConnected(peer: WgPeer, nowSeconds: number): boolean {
  return peer.latestHandshake > 0 && nowSeconds - peer.latestHandshake <= WG_SESSION_TIMEOUT_S;
}

/** The parts of Tailscale's ipnstate.Status (`tailscale status --json`) the hub uses. */
const tailscalePeerSchema = z.object({
  HostName: z.string().default(''),
  DNSName: z.string().nullish(),
  TailscaleIPs: z.array(z.string()).nullish(),
  Online: z.boolean().nullish(),
  ExitNode: z.boolean().nullish(),
});
const tailscaleStatusSchema = z.object({
  BackendState: z.string(),
  /** Set while an exit node is in use: its node ID, whether it is online, its addresses (as prefixes). */
  ExitNodeStatus: z
    .object({ ID: z.string(), Online: z.boolean().nullish(), TailscaleIPs: z.array(z.string()).nullish() })
    .nullish(),
  TailscaleIPs: z.array(z.string()).nullish(),
  Self: tailscalePeerSchema.nullish(),
  CurrentTailnet: z.object({ Name: z.string() }).nullish(),
  Peer: z.record(z.string(), tailscalePeerSchema).nullish(),
});

export interface TailscaleState {
  backendState: string;
  hostName: string | null;
  tailscaleIps: string[];
  tailnet: string | null;
  peers: {
    hostName: string;
    dnsName: string | null;
    tailscaleIps: string[];
    online: boolean;
    exitNode: boolean;
  }[];
  /** The exit node this hub's traffic leaves through, null when none is used. */
  exitNode?: { hostName: string | null; tailscaleIps: string[]; online: boolean } | null;
}

export function parseTailscaleStatus(text: string): TailscaleState {
  const s = tailscaleStatusSchema.parse(JSON.parse(text));
  const peers = Object.values(s.Peer ?? {});
  // ExitNodeStatus names the node by ID; its peer entry (flagged ExitNode) gives the name.
  const exitPeer = peers.find((p) => p.ExitNode);
  const exitStatus = s.ExitNodeStatus;
  const exitNode =
    exitStatus || exitPeer
      ? {
          hostName: exitPeer?.HostName || null,
          // ExitNodeStatus lists prefixes (100.64.0.1/32); the peer the bare addresses.
          tailscaleIps:
            exitPeer?.TailscaleIPs ?? (exitStatus?.TailscaleIPs ?? []).map((p) => p.split('/')[0]!),
          online: Boolean(exitStatus?.Online ?? exitPeer?.Online),
        }
      : null;
  return {
    backendState: s.BackendState,
    hostName: s.Self?.HostName || null,
    tailscaleIps: s.TailscaleIPs ?? s.Self?.TailscaleIPs ?? [],
    tailnet: s.CurrentTailnet?.Name ?? null,
    peers: peers.map((p) => ({
      hostName: p.HostName,
      dnsName: p.DNSName || null,
      tailscaleIps: p.TailscaleIPs ?? [],
      online: Boolean(p.Online),
      exitNode: Boolean(p.ExitNode),
    })),
    exitNode,
  };
}

/** The socket is not there or nobody listens on it: tailscaled is not running on this host. */
class TailscaledAbsent extends Error {}

/**
 * GET on tailscaled's LocalAPI over its unix socket. tailscaled checks the Host header
 * (`local-tailscaled.sock`) to refuse browsers that DNS-rebind to it; Sec-Tailscale is the CLI's marker.
 */
export function tailscaleLocalApi(socketPath: string, apiPath: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        socketPath,
        path: apiPath,
        headers: { Host: 'local-tailscaled.sock', 'Sec-Tailscale': 'localapi' },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          // A status with thousands of peers is a few MB; beyond that something is wrong.
          if (size > 8 * 1024 * 1024) req.destroy(new Error('tailscaled answered more than 8 MB'));
          else chunks.push(c);
        });
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) {
            reject(new Error(`tailscaled answered ${res.statusCode} to ${apiPath}: ${body.slice(0, 200)}`));
          } else resolve(body);
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`tailscaled did not answer ${apiPath} within ${timeoutMs} ms`)),
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') reject(new TailscaledAbsent(socketPath));
      else reject(err);
    });
  });
}

/** `tailscale ping` prints e.g. `pong from nas (100.101.102.103) via 192.0.2.7:41641 in 23ms`. */
export function parseTailscalePing(text: string): number | null {
  const match = /pong from .* in ([\d.]+)\s*(ms|s|µs|us)\b/.exec(text);
  if (!match) return null;
  const value = Number(match[1]);
  const unit = match[2];
  const ms = unit === 's' ? value * 1000 : unit === 'ms' ? value : value / 1000;
  return Math.round(ms * 10) / 10;
}

class ToolMissing extends Error {}

/**
 * Whether `file` is an executable in a PATH directory. Asked before running a tool: the VPN alert
 * looks every minute, and starting a tool that is not installed still forks the agent (a process
 * of ~90 MB) before exec fails in every PATH directory; a few stat calls say the same for nothing.
 */
function onPath(file: string): boolean {
  // eslint-disable-next-line no-restricted-properties -- the tools' search path, not configuration
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    try {
      fs.accessSync(path.join(dir, file), fs.constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

function run(file: string, args: string[], timeoutMs: number): Promise<string> {
  if (!onPath(file)) return Promise.reject(new ToolMissing(file));
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') return reject(new ToolMissing(file));
      if (err) return reject(new Error(`${file} ${args.join(' ')}: ${stderr.trim() || err.message}`));
      resolve(stdout);
    });
  });
}

/** Milliseconds until the host answers a TCP connect, with SYN-ACK or RST alike: either is a full round trip. */
export function tcpRoundTrip(host: string, port: number, timeoutMs = 1500): Promise<number | null> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect({ host, port });
    const done = (rtt: number | null) => {
      socket.destroy();
      resolve(rtt === null ? null : Math.round(rtt * 10) / 10);
    };
    socket.setTimeout(timeoutMs, () => done(null));
    socket.once('connect', () => done(performance.now() - started));
    socket.once('error', (err: NodeJS.ErrnoException) =>
      done(err.code === 'ECONNREFUSED' ? performance.now() - started : null),
    );
  });
}

export interface VpnAdapter {
  /** null when WireGuard's tool is not installed. */
  wireguard(): Promise<WgInterface[] | null>;
  /** null when Tailscale is not installed. */
  tailscale(): Promise<TailscaleState | null>;
  tailscalePing(ip: string): Promise<number | null>;
  tcpRoundTrip(host: string, port: number): Promise<number | null>;
}

export function createVpnAdapter(opts: { timeoutMs?: number; tailscaleSocket?: string } = {}): VpnAdapter {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const socket = opts.tailscaleSocket ?? DEFAULT_TAILSCALE_SOCKET;
  const absentIfMissing = <T>(p: Promise<T>) =>
    p.catch((err: unknown) => {
      if (err instanceof ToolMissing || err instanceof TailscaledAbsent) return null;
      throw err;
    });
  return {
    wireguard: () => absentIfMissing(run('wg', ['show', 'all', 'dump'], timeoutMs).then(parseWgDump)),
    // The LocalAPI first (a container gets the socket mounted, not the CLI); without the socket the
    // CLI, which finds a tailscaled started with another --socket; neither → not running here.
    tailscale: () =>
      absentIfMissing(
        tailscaleLocalApi(socket, '/localapi/v0/status', timeoutMs).catch((err: unknown) => {
          if (!(err instanceof TailscaledAbsent)) throw err;
          return run('tailscale', ['status', '--json'], timeoutMs).catch((cliErr: unknown) => {
            // The CLI is installed but the daemon is not running: absent, not a failure.
            if (cliErr instanceof Error && /failed to connect to local tailscaled/i.test(cliErr.message)) {
              throw new TailscaledAbsent(socket);
            }
            throw cliErr;
          });
        }),
      ).then((text) => (text === null ? null : parseTailscaleStatus(text))),
    tailscalePing: (ip) =>
      run('tailscale', ['ping', '-c', '1', '--timeout', '2s', ip], timeoutMs).then(
        parseTailscalePing,
        () => null,
      ),
    tcpRoundTrip: (host, port) => tcpRoundTrip(host, port),
  };
}
