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
  haAutomationDetailSchema,
  haAutomationListSchema,
  haAutomationSchema,
  haDevicesSchema,
  type HaLiveMessage,
  HA_ENTITIES_TOPIC,
  haLiveMessageSchema,
} from '@nexus/agent/contract';
import { haPatternsKeys } from './ha-patterns';
import { apiJson, apiRequest, ApiRequestError } from '@/lib/request';
import { useLiveTopic, type LiveConnectionState } from '@/lib/live';
import { rereadQueries } from '@/lib/query-client';

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
      void client.invalidateQueries({ queryKey: haPatternsKeys.health });
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

// ---- from features/automations/api.ts

export const AUTOMATIONS_API = '/api/ha/automations';

export const automationKeys = {
  all: [AUTOMATIONS_API] as const,
  list: () => [AUTOMATIONS_API, 'list'] as const,
  detail: (id: string) => [AUTOMATIONS_API, 'detail', id] as const,
};

export const automationsQueryOptions = () =>
  queryOptions({
    queryKey: automationKeys.list(),
    queryFn: async () => haAutomationListSchema.parse(await apiJson<unknown>('GET', AUTOMATIONS_API)),
    // last_triggered moves when HA runs one on its own; a minute is fresh enough for "5 min ago".
    refetchInterval: 30_000,
  });

export const automationDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: automationKeys.detail(id),
    queryFn: async () =>
      haAutomationDetailSchema.parse(await apiJson<unknown>('GET', `${AUTOMATIONS_API}/${id}`)),
  });

function useInvalidating<T, R>(run: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => client.invalidateQueries({ queryKey: automationKeys.all }),
  });
}

/** Creates (id undefined) or replaces an automation from the editor's YAML. */
export function useSaveAutomation() {
  return useInvalidating(async ({ id, yaml }: { id?: string; yaml: string }) =>
    haAutomationSchema.parse(
      await apiJson<unknown>(id ? 'PUT' : 'POST', id ? `${AUTOMATIONS_API}/${id}` : AUTOMATIONS_API, {
        yaml,
      }),
    ),
  );
}

export function useDeleteAutomation() {
  return useInvalidating(async (id: string) => {
    await apiJson<unknown>('DELETE', `${AUTOMATIONS_API}/${id}`);
  });
}

export type AutomationAction = 'enable' | 'disable' | 'trigger';

export function useAutomationAction() {
  return useInvalidating(async ({ id, action }: { id: string; action: AutomationAction }) =>
    haAutomationSchema.parse(await apiJson<unknown>('POST', `${AUTOMATIONS_API}/${id}/${action}`)),
  );
}

/** The line the agent named in a refused YAML (`details.line`), for the editor to mark. */
export function errorLine(error: unknown): number | null {
  if (!(error instanceof ApiRequestError) || error.status !== 400) return null;
  try {
    const line = (JSON.parse(error.bodyText) as { details?: { line?: unknown } }).details?.line;
    return typeof line === 'number' ? line : null;
  } catch {
    return null;
  }
}

// ---- from features/smart-home-devices/api.ts

export const HA_DEVICES_API = '/api/ha/devices';

/**
 * HA's devices grouped by area. The grouping changes with the registries only; the entities'
 * states on screen come from the live entity list the Home Assistant screens keep.
 */
export const haDevicesQueryOptions = () =>
  queryOptions({
    queryKey: [HA_DEVICES_API] as const,
    queryFn: async () => haDevicesSchema.parse(await apiJson<unknown>('GET', HA_DEVICES_API)),
    refetchInterval: 60_000,
  });

// ---- the cached entities follow the live channel

/** Applies one `ha.entities` message to the cached list; returns the list unchanged for other messages. */
export function applyLiveMessage(list: HaEntityList, message: HaLiveMessage): HaEntityList {
  if (message.type === 'changed') {
    const byId = new Map(message.entities.map((e) => [e.entity_id, e]));
    const entities = list.entities.map((e) => {
      const next = byId.get(e.entity_id);
      if (!next) return e;
      byId.delete(e.entity_id);
      return next;
    });
    return { ...list, entities: [...entities, ...byId.values()] };
  }
  if (message.type === 'removed') {
    const gone = new Set(message.entityIds);
    return { ...list, entities: list.entities.filter((e) => !gone.has(e.entity_id)) };
  }
  return list;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * What an entity will probably look like once Home Assistant has carried out a call, for the
 * optimistic update; the live state that follows replaces it. Null when there is nothing to guess.
 */
export function predictEntity(
  entity: HaEntity,
  service: string,
  data: Record<string, unknown>,
): HaEntity | null {
  const a = entity.attributes;
  const set = (state: string, attributes: Record<string, unknown> = {}): HaEntity => ({
    ...entity,
    state,
    attributes: { ...a, ...attributes },
  });
  switch (`${entity.domain}.${service}`) {
    case 'light.turn_on': {
      const pct = num(data.brightness_pct);
      const brightness =
        num(data.brightness) ?? (pct !== undefined ? Math.round((pct / 100) * 255) : undefined);
      if (brightness === 0) return set('off', { brightness: null });
      return set('on', { brightness: brightness ?? num(a.brightness) ?? 255 });
    }
    case 'light.turn_off':
      return set('off', { brightness: null });
    case 'light.toggle':
    case 'switch.toggle':
      return set(entity.state === 'on' ? 'off' : 'on');
    case 'switch.turn_on':
      return set('on');
    case 'switch.turn_off':
      return set('off');
    case 'cover.open_cover':
      return set('open', { current_position: 100 });
    case 'cover.close_cover':
      return set('closed', { current_position: 0 });
    case 'cover.set_cover_position': {
      const position = num(data.position);
      return position === undefined
        ? null
        : set(position === 0 ? 'closed' : 'open', { current_position: position });
    }
    case 'climate.set_temperature': {
      const temperature = num(data.temperature);
      return temperature === undefined ? null : set(entity.state, { temperature });
    }
    case 'climate.set_hvac_mode':
      return typeof data.hvac_mode === 'string' ? set(data.hvac_mode) : null;
    case 'media_player.media_play':
      return set('playing');
    case 'media_player.media_pause':
      return set('paused');
    case 'media_player.media_play_pause':
      return set(entity.state === 'playing' ? 'paused' : 'playing');
    case 'media_player.volume_set': {
      const volume = num(data.volume_level);
      return volume === undefined ? null : set(entity.state, { volume_level: volume });
    }
    case 'media_player.volume_mute':
      return set(entity.state, { is_volume_muted: data.is_volume_muted === true });
    case 'lock.lock':
      return set('locked');
    case 'lock.unlock':
      return set('unlocked');
    default:
      return null;
  }
}

/**
 * Keeps the cached entity list current from the `ha.entities` live topic: changed and removed
 * entities are patched in place, a resync or a change of the connection reloads, and so does each
 * confirmation of the topic (first, and after the live socket comes back from a drop): changes
 * before then were missed.
 */
export function useHaLive(enabled = true): { liveState: LiveConnectionState } {
  const client = useQueryClient();
  const { state } = useLiveTopic(HA_ENTITIES_TOPIC, {
    enabled,
    onSubscribed: () => void rereadQueries(client, haKeys.all),
    onEvent: (raw) => {
      const parsed = haLiveMessageSchema.safeParse(raw);
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'changed' || message.type === 'removed') {
        client.setQueryData<HaEntityList>(haKeys.entities(), (list) =>
          list ? applyLiveMessage(list, message) : list,
        );
      } else {
        // A resync or a new connection: a read under way may predate it (lib/query-client).
        void rereadQueries(client, haKeys.all);
      }
    },
  });

  return { liveState: state };
}

/** One round trip for Home Assistant's state through the hub, for a reachability check. */
export async function probeHaStatus(): Promise<void> {
  await apiRequest('GET', `${HA_API}/status`);
}
