import type { ZodType } from 'zod';
import type { VpnFailover, VpnProvider, VpnStatus } from '../../contract/status.js';
import { vpnFailoverSchema } from '../../contract/status.js';
import type { TailscaleState, VpnAdapter, WgInterface } from '../../adapters/vpn.js';
import { wgPeerConnected } from '../../adapters/vpn.js';
import type { Logger } from '../../lib/logger.js';

export const VPN_FAILOVER_SETTING = 'vpn.failover';
/** The dashboard polls every 15 s; reading the tools and measuring latency is shared within this span. */
const STATUS_TTL_MS = 10_000;
/** A port for the TCP round trip to a WireGuard peer's tunnel address; closed ports answer (RST) as fast as open ones. */
const WG_PROBE_PORT = 22;

export interface UplinkSummary {
  configured: boolean;
  active: 'primary' | 'backup' | 'none';
  healthy: boolean;
  latencyMs: number | null;
  backupConfigured: boolean;
}

/** The settings repository, as this feature uses it. */
export interface SettingsStore {
  get<T>(key: string, schema: ZodType<T>): T | undefined;
  set(key: string, value: unknown): void;
}

/** The first single-host address a peer routes (its tunnel address), if any. */
function tunnelAddress(allowedIps: string[]): string | null {
  const host = allowedIps.find((a) => a.endsWith('/32') || a.endsWith('/128'));
  return host ? host.slice(0, host.lastIndexOf('/')) : null;
}

function endpointHost(endpoint: string): { host: string; port: number } | null {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(endpoint);
  return match ? { host: match[1]!, port: Number(match[2]) } : null;
}

/** Pure: which provider is up, given what the tools reported. */
export function summarizeVpn(
  wireguard: WgInterface[],
  tailscale: TailscaleState | null,
  nowSeconds: number,
): { wireguardConnected: boolean; tailscaleConnected: boolean; present: VpnProvider[] } {
  const wireguardConnected = wireguard.some((i) => i.peers.some((p) => wgPeerConnected(p, nowSeconds)));
  const tailscaleConnected = tailscale?.backendState === 'Running';
  const present: VpnProvider[] = [];
  if (wireguard.length) present.push('wireguard');
  if (tailscale) present.push('tailscale');
  return { wireguardConnected, tailscaleConnected, present };
}

export function createVpnService(deps: {
  adapter: VpnAdapter;
  settings: SettingsStore;
  log: Logger;
  /** The plan: failover through provider tunnels is a paid feature (limits.vpnAccess). */
  plan?: { checkVpnFailover(): void };
  /** The hub's upstream WireGuard tunnels (issue 17): their monitor's state, read from memory. */
  uplinks?: { summary(): UplinkSummary };
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  let cached: { at: number; status: VpnStatus } | null = null;
  let inFlight: Promise<VpnStatus> | null = null;

  // The same failure (e.g. wg without CAP_NET_ADMIN) repeats on every read: logged when it changes.
  const lastFailure = new Map<string, string>();
  async function read<T>(what: string, fn: () => Promise<T>, fallback: T): Promise<T> {
    try {
      const value = await fn();
      lastFailure.delete(what);
      return value;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (lastFailure.get(what) !== message) deps.log.warn({ err, what }, 'reading the VPN state failed');
      lastFailure.set(what, message);
      return fallback;
    }
  }

  async function probe(): Promise<VpnStatus> {
    const [wg, ts] = await Promise.all([
      read('wireguard', () => deps.adapter.wireguard(), null),
      read<TailscaleState | null>('tailscale', () => deps.adapter.tailscale(), {
        backendState: 'Unavailable',
        hostName: null,
        tailscaleIps: [],
        tailnet: null,
        peers: [],
      }),
    ]);
    const t = now();
    const nowSeconds = Math.floor(t / 1000);
    const wireguard = wg ?? [];
    const summary = summarizeVpn(wireguard, ts, nowSeconds);
    const { tailscaleConnected, present } = summary;
    // With uplinks configured, WireGuard is connected when the active tunnel answers its probes.
    const uplinks = deps.uplinks?.summary();
    const viaUplink = !!uplinks?.configured && uplinks.active !== 'none' && uplinks.healthy;
    const wireguardConnected = uplinks?.configured ? viaUplink : summary.wireguardConnected;
    if (uplinks?.configured && !present.includes('wireguard')) present.unshift('wireguard');
    const stored = deps.settings.get(VPN_FAILOVER_SETTING, vpnFailoverSchema);

    const connected: VpnProvider[] = [];
    if (wireguardConnected) connected.push('wireguard');
    if (tailscaleConnected) connected.push('tailscale');
    const provider: VpnProvider =
      stored && connected.includes(stored.activeProvider) ? stored.activeProvider : (connected[0] ?? 'none');

    // Without a stored choice: the provider in use (or the only one installed) is active, another installed one the backup.
    const primary = provider !== 'none' ? provider : (present[0] ?? 'none');
    const failover: VpnFailover =
      stored ??
      (uplinks?.configured
        ? // Both uplinks are WireGuard: the backup tunnel counts as provider 'wireguard' too.
          {
            activeProvider: 'wireguard',
            backupProvider: uplinks.backupConfigured
              ? 'wireguard'
              : tailscaleConnected
                ? 'tailscale'
                : 'none',
          }
        : { activeProvider: primary, backupProvider: present.find((p) => p !== primary) ?? 'none' });

    let latency: number | null = null;
    if (provider === 'tailscale' && ts) {
      const target = ts.peers.find((p) => p.exitNode && p.online) ?? ts.peers.find((p) => p.online);
      const ip = target?.tailscaleIps[0];
      if (ip) latency = await read('tailscale ping', () => deps.adapter.tailscalePing(ip), null);
    } else if (provider === 'wireguard' && viaUplink) {
      // The monitor's latest round trip through the active tunnel: no probe per read.
      latency = uplinks!.latencyMs;
    } else if (provider === 'wireguard') {
      const peer = wireguard.flatMap((i) => i.peers).find((p) => wgPeerConnected(p, nowSeconds));
      const address = peer ? tunnelAddress(peer.allowedIps) : null;
      const endpoint = peer?.endpoint ? endpointHost(peer.endpoint) : null;
      if (address)
        latency = await read('wg rtt', () => deps.adapter.tcpRoundTrip(address, WG_PROBE_PORT), null);
      else if (endpoint) {
        latency = await read('wg rtt', () => deps.adapter.tcpRoundTrip(endpoint.host, endpoint.port), null);
      }
    }

    return {
      status: provider === 'none' ? 'disconnected' : 'connected',
      provider,
      latency,
      failover,
      wireguard: wireguard.map((i) => ({
        name: i.name,
        listenPort: i.listenPort,
        peers: i.peers.map((p) => ({
          publicKey: p.publicKey,
          endpoint: p.endpoint,
          allowedIps: p.allowedIps,
          latestHandshake: p.latestHandshake ? new Date(p.latestHandshake * 1000).toISOString() : null,
          rxBytes: p.rxBytes,
          txBytes: p.txBytes,
          connected: wgPeerConnected(p, nowSeconds),
        })),
      })),
      tailscale: ts,
      checkedAt: t,
    };
  }

  return {
    async status(): Promise<VpnStatus> {
      if (cached && now() - cached.at < STATUS_TTL_MS) return cached.status;
      inFlight ??= probe()
        .then((status) => {
          cached = { at: now(), status };
          return status;
        })
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    },

    /** Drops the cached answer (an uplink switched). */
    invalidate() {
      cached = null;
    },

    /** Throws the plan's 403 on plans without VPN access; the stored choice is kept either way. */
    setFailover(failover: VpnFailover): VpnFailover {
      deps.plan?.checkVpnFailover();
      deps.settings.set(VPN_FAILOVER_SETTING, failover);
      cached = null;
      return failover;
    },
  };
}

export type VpnService = ReturnType<typeof createVpnService>;
