import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  POLL_INTERVALS_MS,
  REMOTE_HUB_POLL_MS,
  accessTokenListSchema,
  createdAccessTokenSchema,
  hubDebugSchema,
  hubOverviewSchema,
  jetsonReportSchema,
  remoteHubListSchema,
  remoteHubSchema,
  selfTestSchema,
  type HubIdentityInput,
  type RemoteHubInput,
} from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';
import { setupKeys } from './setup';

/** Nexus management's calls (agent: features/nexus-management, features/jetson). */
export const NEXUS_PATHS = {
  overview: '/api/nexus/overview',
  identity: '/api/nexus/identity',
  selfTest: '/api/nexus/self-test',
  debug: '/api/nexus/debug',
  hubs: '/api/nexus/hubs',
  accessTokens: '/api/nexus/access-tokens',
  jetson: '/api/diagnostics/jetson',
  bundle: '/api/diagnostics/bundle',
} as const;

/** The Jetson check refreshes its temperatures, clocks and rails this often while open. */
export const JETSON_REFRESH_MS = 10_000;

export const nexusKeys = {
  overview: [NEXUS_PATHS.overview] as const,
  debug: [NEXUS_PATHS.debug] as const,
  hubs: [NEXUS_PATHS.hubs] as const,
  accessTokens: [NEXUS_PATHS.accessTokens] as const,
  jetson: [NEXUS_PATHS.jetson] as const,
};

export const overviewQueryOptions = () =>
  queryOptions({
    queryKey: nexusKeys.overview,
    queryFn: async () => hubOverviewSchema.parse(await apiJson<unknown>('GET', NEXUS_PATHS.overview)),
    // Service health moves at the pace of the dashboard's Nexus card.
    refetchInterval: POLL_INTERVALS_MS.nexusStatus,
  });

export const debugQueryOptions = () =>
  queryOptions({
    queryKey: nexusKeys.debug,
    queryFn: async () => hubDebugSchema.parse(await apiJson<unknown>('GET', NEXUS_PATHS.debug)),
  });

export const jetsonQueryOptions = (live: boolean) =>
  queryOptions({
    queryKey: nexusKeys.jetson,
    queryFn: async () => jetsonReportSchema.parse(await apiJson<unknown>('GET', NEXUS_PATHS.jetson)),
    refetchInterval: live ? JETSON_REFRESH_MS : false,
  });

/** The agent's debug facts, for admins only (`enabled`: the reader is an admin). */
export function useHubDebug(enabled: boolean) {
  return useQuery({ ...debugQueryOptions(), enabled });
}

/** The Jetson check's report, refreshed while `live`, for admins only (`enabled`). */
export function useJetsonReport(live: boolean, enabled: boolean) {
  return useQuery({ ...jetsonQueryOptions(live), enabled });
}

export const hubsQueryOptions = () =>
  queryOptions({
    queryKey: nexusKeys.hubs,
    queryFn: async () => remoteHubListSchema.parse(await apiJson<unknown>('GET', NEXUS_PATHS.hubs)).hubs,
    refetchInterval: REMOTE_HUB_POLL_MS,
  });

export const accessTokensQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: nexusKeys.accessTokens,
    queryFn: async () =>
      accessTokenListSchema.parse(await apiJson<unknown>('GET', NEXUS_PATHS.accessTokens)).tokens,
    enabled,
  });

export const runSelfTest = async () =>
  selfTestSchema.parse(await apiJson<unknown>('POST', NEXUS_PATHS.selfTest));

/** Renames the hub or changes its time zone: the overview takes the answer, the header's name follows. */
export function useSaveIdentity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: HubIdentityInput) =>
      hubOverviewSchema.parse(await apiJson<unknown>('PUT', NEXUS_PATHS.identity, input)),
    onSuccess: async (overview) => {
      client.setQueryData(nexusKeys.overview, overview);
      await client.invalidateQueries({ queryKey: setupKeys.identity });
    },
  });
}

/** Adding, refreshing and removing a watched hub; each refreshes the hub list. */
export function useAddHub() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: RemoteHubInput) =>
      remoteHubSchema.parse(await apiJson<unknown>('POST', NEXUS_PATHS.hubs, input)),
    onSuccess: () => client.invalidateQueries({ queryKey: nexusKeys.hubs }),
  });
}

export function useRefreshHub(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      remoteHubSchema.parse(await apiJson<unknown>('POST', `${NEXUS_PATHS.hubs}/${id}/refresh`)),
    onSuccess: () => client.invalidateQueries({ queryKey: nexusKeys.hubs }),
  });
}

export function useRemoveHub(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiJson<unknown>('DELETE', `${NEXUS_PATHS.hubs}/${id}`);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: nexusKeys.hubs }),
  });
}

/** The tokens other hubs use to watch this one; creating or revoking one refreshes the list. */
export function useCreateAccessToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) =>
      createdAccessTokenSchema.parse(await apiJson<unknown>('POST', NEXUS_PATHS.accessTokens, { name })),
    onSuccess: () => client.invalidateQueries({ queryKey: nexusKeys.accessTokens }),
  });
}

export function useRevokeAccessToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiJson<unknown>('DELETE', `${NEXUS_PATHS.accessTokens}/${id}`);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: nexusKeys.accessTokens }),
  });
}
