import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  haActivityListSchema,
  haConnectionTestResultSchema,
  haEntityListSchema,
  haEntitySchema,
  haHistorySchema,
  haLogbookSchema,
  haMemberAccessSchema,
  haMyAccessSchema,
  haServiceCallResultSchema,
  haSettingsSchema,
  haStatusSchema,
  type HaEntity,
  type HaEntityList,
  type HaMemberAccess,
  type HaSettingsInput,
} from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';
import { predictEntity } from './entity-logic';

export const HA_API = '/api/ha';
export const HA_SETTINGS_PATH = '/api/settings/home-assistant';
export const HA_MEMBER_ACCESS_PATH = `${HA_SETTINGS_PATH}/member-access`;
/** The connection's state follows the dashboard's health poll (spec §7: every 10 s); live pushes fill in between. */
export const HA_STATUS_REFRESH_MS = 10_000;
/** After a call, a state that the live channel has not confirmed by then is read again. */
export const RECONCILE_AFTER_MS = 2_000;

export const haKeys = {
  all: [HA_API] as const,
  status: () => [HA_API, 'status'] as const,
  activity: () => [HA_API, 'activity'] as const,
  entities: () => [HA_API, 'entities'] as const,
  logbook: (query: LogbookQuery) => [HA_API, 'logbook', query] as const,
  history: (query: HistoryQuery) => [HA_API, 'history', query] as const,
  settings: () => [HA_SETTINGS_PATH] as const,
  memberAccess: () => [HA_MEMBER_ACCESS_PATH] as const,
  myAccess: () => [HA_API, 'my-access'] as const,
};

export const haStatusQueryOptions = () =>
  queryOptions({
    queryKey: haKeys.status(),
    queryFn: async () => haStatusSchema.parse(await apiJson<unknown>('GET', `${HA_API}/status`)),
    refetchInterval: HA_STATUS_REFRESH_MS,
  });

export const haActivityQueryOptions = () =>
  queryOptions({
    queryKey: haKeys.activity(),
    queryFn: async () => haActivityListSchema.parse(await apiJson<unknown>('GET', `${HA_API}/activity`)),
    refetchInterval: HA_STATUS_REFRESH_MS,
  });

/** The whole home; kept current by the `ha.entities` live topic (see live.ts), not by polling. */
export const haEntitiesQueryOptions = () =>
  queryOptions({
    queryKey: haKeys.entities(),
    queryFn: async () => haEntityListSchema.parse(await apiJson<unknown>('GET', `${HA_API}/entities`)),
  });

export interface LogbookQuery {
  start: string;
  end?: string;
  entity?: string;
}

export const haLogbookQueryOptions = (query: LogbookQuery) =>
  queryOptions({
    queryKey: haKeys.logbook(query),
    queryFn: async () => {
      const params = new URLSearchParams({ start: query.start });
      if (query.end) params.set('end', query.end);
      if (query.entity) params.set('entity', query.entity);
      return haLogbookSchema.parse(await apiJson<unknown>('GET', `${HA_API}/logbook?${params}`));
    },
  });

export interface HistoryQuery {
  entity: string;
  start: string;
}

export const haHistoryQueryOptions = (query: HistoryQuery) =>
  queryOptions({
    queryKey: haKeys.history(query),
    queryFn: async () => {
      const params = new URLSearchParams({ entity: query.entity, start: query.start, minimal: 'true' });
      return haHistorySchema.parse(await apiJson<unknown>('GET', `${HA_API}/history?${params}`));
    },
  });

export const haSettingsQueryOptions = () =>
  queryOptions({
    queryKey: haKeys.settings(),
    queryFn: async () => haSettingsSchema.parse(await apiJson<unknown>('GET', HA_SETTINGS_PATH)),
  });

export function useSaveHaSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: HaSettingsInput) =>
      haSettingsSchema.parse(await apiJson<unknown>('PUT', HA_SETTINGS_PATH, input)),
    onSuccess: (settings) => {
      client.setQueryData(haKeys.settings(), settings);
      void client.invalidateQueries({ queryKey: haKeys.all });
      void client.invalidateQueries({ queryKey: ['/api/ha-patterns/health'] });
    },
  });
}

/** What the signed-in person may control: members' control screens offer only that. */
export const haMyAccessQueryOptions = () =>
  queryOptions({
    queryKey: haKeys.myAccess(),
    queryFn: async () => haMyAccessSchema.parse(await apiJson<unknown>('GET', `${HA_API}/my-access`)),
  });

/** What members may control (admins only: members get a 403). */
export const haMemberAccessQueryOptions = () =>
  queryOptions({
    queryKey: haKeys.memberAccess(),
    queryFn: async () => haMemberAccessSchema.parse(await apiJson<unknown>('GET', HA_MEMBER_ACCESS_PATH)),
  });

export function useSaveMemberAccess() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: HaMemberAccess) =>
      haMemberAccessSchema.parse(await apiJson<unknown>('PUT', HA_MEMBER_ACCESS_PATH, input)),
    onSuccess: (saved) => {
      client.setQueryData(haKeys.memberAccess(), saved);
      void client.invalidateQueries({ queryKey: haKeys.myAccess() });
    },
  });
}

export function useForgetHaSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => haSettingsSchema.parse(await apiJson<unknown>('DELETE', HA_SETTINGS_PATH)),
    onSuccess: (settings) => {
      client.setQueryData(haKeys.settings(), settings);
      void client.invalidateQueries({ queryKey: haKeys.all });
    },
  });
}

export function useConnectionTest() {
  return useMutation({
    mutationFn: async (input: { url?: string; token?: string }) =>
      haConnectionTestResultSchema.parse(await apiJson<unknown>('POST', `${HA_API}/connection-test`, input)),
  });
}

export interface ServiceCall {
  domain: string;
  service: string;
  entityId: string;
  data?: Record<string, unknown>;
}

function patchEntity(client: QueryClient, entity: HaEntity) {
  client.setQueryData<HaEntityList>(haKeys.entities(), (list) =>
    list
      ? { ...list, entities: list.entities.map((e) => (e.entity_id === entity.entity_id ? entity : e)) }
      : list,
  );
}

function cachedEntity(client: QueryClient, entityId: string): HaEntity | undefined {
  return client.getQueryData<HaEntityList>(haKeys.entities())?.entities.find((e) => e.entity_id === entityId);
}

/**
 * Calls a service through the hub. The control shows the expected result at once; the live
 * state that Home Assistant then reports replaces it, a refused call puts the old state back,
 * and a state that no live update confirmed within RECONCILE_AFTER_MS is read again.
 */
export function useCallService() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (call: ServiceCall) =>
      haServiceCallResultSchema.parse(
        await apiJson<unknown>('POST', `${HA_API}/services/${call.domain}/${call.service}`, {
          entity_id: call.entityId,
          service_data: call.data ?? {},
        }),
      ),
    onMutate: async (call) => {
      await client.cancelQueries({ queryKey: haKeys.entities() });
      const before = cachedEntity(client, call.entityId);
      const predicted = before ? predictEntity(before, call.service, call.data ?? {}) : null;
      if (predicted) patchEntity(client, predicted);
      return { before };
    },
    onError: (_error, _call, context) => {
      if (context?.before) patchEntity(client, context.before);
    },
    onSuccess: (_result, call, context) => {
      const lastUpdated = context?.before?.last_updated;
      setTimeout(() => {
        if (cachedEntity(client, call.entityId)?.last_updated !== lastUpdated) return;
        void apiJson<unknown>('GET', `${HA_API}/entities/${call.entityId}`)
          .then((fresh) => patchEntity(client, haEntitySchema.parse(fresh)))
          .catch(() => undefined);
      }, RECONCILE_AFTER_MS);
    },
  });
}
