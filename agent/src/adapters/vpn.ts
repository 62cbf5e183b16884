import { execFile } from 'node:child_process';
import net from 'node:net';
import { z } from 'zod';

/**
 * The host's VPNs through their own command-line tools: WireGuard's `wg show all dump` and
 * Tailscale's `tailscale status --json` / `tailscale ping`. A tool that is not installed means
 * that VPN is absent; the tools run with a timeout and never through a shell.
 */

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
}

export function parseTailscaleStatus(text: string): TailscaleState {
  const s = tailscaleStatusSchema.parse(JSON.parse(text));
  return {
    backendState: s.BackendState,
    hostName: s.Self?.HostName || null,
    tailscaleIps: s.TailscaleIPs ?? s.Self?.TailscaleIPs ?? [],
    tailnet: s.CurrentTailnet?.Name ?? null,
    peers: Object.values(s.Peer ?? {}).map((p) => ({
      hostName: p.HostName,
      dnsName: p.DNSName || null,
      tailscaleIps: p.TailscaleIPs ?? [],
      online: Boolean(p.Online),
      exitNode: Boolean(p.ExitNode),
    })),
  };
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

function run(file: string, args: string[], timeoutMs: number): Promise<string> {
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

export function createVpnAdapter(opts: { timeoutMs?: number } = {}): VpnAdapter {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const absentIfMissing = <T>(p: Promise<T>) =>
    p.catch((err: unknown) => {
      if (err instanceof ToolMissing) return null;
      throw err;
    });
  return {
    wireguard: () => absentIfMissing(run('wg', ['show', 'all', 'dump'], timeoutMs).then(parseWgDump)),
    tailscale: () =>
      absentIfMissing(run('tailscale', ['status', '--json'], timeoutMs).then(parseTailscaleStatus)),
    tailscalePing: (ip) =>
      run('tailscale', ['ping', '-c', '1', '--timeout', '2s', ip], timeoutMs).then(
        parseTailscalePing,
        () => null,
      ),
    tcpRoundTrip: (host, port) => tcpRoundTrip(host, port),
  };
}
