import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  POLL_INTERVALS_MS,
  networkVisitorSchema,
  uplinksSchema,
  vpnEventListSchema,
  vpnStatusSchema,
  wgPeerCreatedSchema,
  wgPeerListSchema,
  wgServerSchema,
  type UplinksInput,
  type WgPeerInput,
  type WgServerInput,
} from '@nexus/agent/contract';
import { getParsed } from './auth-session';
import { ApiRequestError, apiJson, apiRequest } from '@/lib/request';

/** The hub's VPN (issue 17): its WireGuard server and the devices that dial in, the uplinks and their failover. */
export const VPN_API = '/api/vpn';
export const VPN_STATUS_PATH = `${VPN_API}/status`;
export const VISITOR_PATH = '/api/network/visitor';

/** Handshakes and transfer counters move every few seconds; the screen shows them live enough. */
export const VPN_REFRESH_MS = 10_000;

export const vpnKeys = {
  // The dashboard's VPN card reads the same key, so both screens share one answer.
  status: [VPN_STATUS_PATH] as const,
  server: [VPN_API, 'server'] as const,
  peers: [VPN_API, 'peers'] as const,
  uplinks: [VPN_API, 'uplinks'] as const,
  events: [VPN_API, 'events'] as const,
  visitor: [VISITOR_PATH] as const,
};

/** A refusal is an answer, not a hiccup: no retries for 403/404. */
const retryUnlessRefused = (count: number, error: unknown) =>
  !(error instanceof ApiRequestError && [401, 403, 404].includes(error.status)) && count < 2;

export const isForbidden = (error: unknown) => error instanceof ApiRequestError && error.status === 403;

export const vpnStatusQueryOptions = (signedIn = true) =>
  queryOptions({
    queryKey: vpnKeys.status,
    queryFn: () => getParsed(VPN_STATUS_PATH, vpnStatusSchema),
    refetchInterval: POLL_INTERVALS_MS.vpnStatus,
    enabled: signedIn,
  });

export const wgServerQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: vpnKeys.server,
    queryFn: () => getParsed(`${VPN_API}/server`, wgServerSchema),
    refetchInterval: VPN_REFRESH_MS,
    retry: retryUnlessRefused,
    enabled,
  });

export const wgPeersQueryOptions = () =>
  queryOptions({
    queryKey: vpnKeys.peers,
    queryFn: async () => (await getParsed(`${VPN_API}/peers`, wgPeerListSchema)).peers,
    refetchInterval: VPN_REFRESH_MS,
    retry: retryUnlessRefused,
  });

export const uplinksQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: vpnKeys.uplinks,
    queryFn: () => getParsed(`${VPN_API}/uplinks`, uplinksSchema),
    refetchInterval: VPN_REFRESH_MS,
    retry: retryUnlessRefused,
    enabled,
  });

export const vpnEventsQueryOptions = () =>
  queryOptions({
    queryKey: vpnKeys.events,
    queryFn: async () => (await getParsed(`${VPN_API}/events`, vpnEventListSchema)).events,
    refetchInterval: VPN_REFRESH_MS,
    retry: retryUnlessRefused,
  });

export const visitorQueryOptions = () =>
  queryOptions({
    queryKey: vpnKeys.visitor,
    queryFn: () => getParsed(VISITOR_PATH, networkVisitorSchema),
  });

/** Everything on the screen that a change to the server, a peer or the uplinks can move. */
function useInvalidateVpn() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [vpnKeys.status, vpnKeys.server, vpnKeys.peers, vpnKeys.uplinks, vpnKeys.events].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
}

export function useSaveServer() {
  const invalidate = useInvalidateVpn();
  return useMutation({
    mutationFn: async (input: WgServerInput) =>
      wgServerSchema.parse(await apiJson('PUT', `${VPN_API}/server`, input)),
    onSettled: invalidate,
  });
}

export function useAddPeer() {
  const invalidate = useInvalidateVpn();
  return useMutation({
    mutationFn: async (input: WgPeerInput) =>
      wgPeerCreatedSchema.parse(await apiJson('POST', `${VPN_API}/peers`, input)),
    onSettled: invalidate,
  });
}

export function useUpdatePeer() {
  const invalidate = useInvalidateVpn();
  return useMutation({
    mutationFn: async ({ id, ...patch }: { id: number; name?: string; enabled?: boolean }) => {
      await apiJson('PATCH', `${VPN_API}/peers/${id}`, patch);
    },
    onSettled: invalidate,
  });
}

export function useDeletePeer() {
  const invalidate = useInvalidateVpn();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiJson('DELETE', `${VPN_API}/peers/${id}`);
    },
    onSettled: invalidate,
  });
}

export function useSaveUplinks() {
  const invalidate = useInvalidateVpn();
  return useMutation({
    mutationFn: async (input: UplinksInput) =>
      uplinksSchema.parse(await apiJson('PUT', `${VPN_API}/uplinks`, input)),
    onSettled: invalidate,
  });
}

/** The one-time download of a peer's config (410 once it has been fetched). */
export async function downloadPeerConfig(id: number): Promise<Blob> {
  return (await apiRequest('GET', `${VPN_API}/peers/${id}/config`)).blob();
}
