import { queryOptions } from '@tanstack/react-query';
import { POLL_INTERVALS_MS, VPN_PROVIDERS, type VpnStatus } from '@nexus/agent/contract';
import {
  array,
  boolean,
  nullable,
  number,
  object,
  oneOf,
  optional,
  string,
  type Shape,
} from '@/lib/answer-shape';
import { getParsed } from './auth-session';

/** The hub's VPN (issue 17): its WireGuard server and the devices that dial in, the uplinks and their failover. */
export const VPN_API = '/api/vpn';
export const VPN_STATUS_PATH = `${VPN_API}/status`;
export const VISITOR_PATH = '/api/network/visitor';

/**
 * The VPN's status, as the dashboard's card and the connections screen read it: the part of the
 * VPN data (data/vpn.ts, which re-exports this) checked with a small shape of the contract's schema
 * (lib/answer-shape), so the dashboard's first figures do not wait for zod (issue 26).
 */
export const vpnKeys = {
  // The dashboard's VPN card reads the same key, so both screens share one answer.
  status: [VPN_STATUS_PATH] as const,
  server: [VPN_API, 'server'] as const,
  peers: [VPN_API, 'peers'] as const,
  uplinks: [VPN_API, 'uplinks'] as const,
  events: [VPN_API, 'events'] as const,
  visitor: [VISITOR_PATH] as const,
};

type WireguardInterface = VpnStatus['wireguard'][number];
type TailscaleState = NonNullable<VpnStatus['tailscale']>;

/** contract/status.ts vpnStatusSchema. */
export const vpnStatusShape: Shape<VpnStatus> = object<VpnStatus>({
  status: oneOf(['connected', 'disconnected']),
  provider: oneOf(VPN_PROVIDERS),
  latency: nullable(number),
  failover: object({ activeProvider: oneOf(VPN_PROVIDERS), backupProvider: oneOf(VPN_PROVIDERS) }),
  wireguard: array(
    object<WireguardInterface>({
      name: string,
      listenPort: nullable(number),
      peers: array(
        object<WireguardInterface['peers'][number]>({
          publicKey: string,
          endpoint: nullable(string),
          allowedIps: array(string),
          latestHandshake: nullable(string),
          rxBytes: number,
          txBytes: number,
          connected: boolean,
        }),
      ),
    }),
  ),
  tailscale: nullable(
    object<TailscaleState>({
      backendState: string,
      hostName: nullable(string),
      tailscaleIps: array(string),
      tailnet: nullable(string),
      peers: array(
        object<TailscaleState['peers'][number]>({
          hostName: string,
          dnsName: nullable(string),
          tailscaleIps: array(string),
          online: boolean,
          exitNode: boolean,
        }),
      ),
      exitNode: optional(
        nullable(object({ hostName: nullable(string), tailscaleIps: array(string), online: boolean })),
      ),
    }),
  ),
  checkedAt: number,
});

export const vpnStatusQueryOptions = (signedIn = true) =>
  queryOptions({
    queryKey: vpnKeys.status,
    queryFn: () => getParsed(VPN_STATUS_PATH, vpnStatusShape),
    refetchInterval: POLL_INTERVALS_MS.vpnStatus,
    enabled: signedIn,
  });
