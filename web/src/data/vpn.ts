import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  networkVisitorSchema,
  uplinksSchema,
  vpnEventListSchema,
  wgPeerCreatedSchema,
  wgPeerListSchema,
  wgServerSchema,
  type UplinksInput,
  type WgPeerInput,
  type WgServerInput,
} from '@nexus/agent/contract';
import { getParsed } from './auth-session';
import { ApiRequestError, apiJson, apiRequest } from '@/lib/request';
import { VISITOR_PATH, VPN_API, vpnKeys } from './vpn-status';

export { VISITOR_PATH, VPN_API, VPN_STATUS_PATH, vpnKeys, vpnStatusQueryOptions } from './vpn-status';

/** Handshakes and transfer counters move every few seconds; the screen shows them live enough. */
export const VPN_REFRESH_MS = 10_000;

/** A refusal is an answer, not a hiccup: no retries for 403/404. */
const retryUnlessRefused = (count: number, error: unknown) =>
  !(error instanceof ApiRequestError && [401, 403, 404].includes(error.status)) && count < 2;

export const isForbidden = (error: unknown) => error instanceof ApiRequestError && error.status === 403;

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

/** How this visitor reaches the hub (LAN, VPN, or from outside). */
export function useVisitor() {
  return useQuery(visitorQueryOptions());
}

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
