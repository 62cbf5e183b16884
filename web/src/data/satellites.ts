import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  POLL_INTERVALS_MS,
  satelliteSchema,
  satelliteSignalHistorySchema,
  satelliteSourceStatusListSchema,
  satelliteWithTokenSchema,
  type CreateSatelliteInput,
  type CreateWyomingSatelliteInput,
  type Satellite,
  type SatelliteControlInput,
  type UpdateSatelliteInput,
} from '@nexus/agent/contract';
import { getParsed } from './auth-session';
import { SATELLITES_API, satelliteKeys } from './satellite-list';
import { apiJson, apiRequest } from '@/lib/request';

export {
  SATELLITES_API,
  SATELLITES_TOPIC,
  satelliteKeys,
  satellitesQueryOptions,
  useSatellitesLive,
} from './satellite-list';

/**
 * The satellites feature's data module, with data/satellite-list.ts (the list the dashboard reads,
 * without zod): every path under /api/devices/satellite, every query key and the live topic live
 * in these two, so the fleet, the controls, the dashboard card and the FlowForge builder never
 * disagree about one.
 */

/** Whether each source could be read, and why not (e.g. Home Assistant not connected). */
export const satelliteSourcesQueryOptions = () =>
  queryOptions({
    queryKey: satelliteKeys.sources(),
    queryFn: () => getParsed(`${SATELLITES_API}/sources`, satelliteSourceStatusListSchema),
    refetchInterval: POLL_INTERVALS_MS.satellites,
  });

/** One satellite; 404 for an id the hub does not know. */
export const satelliteQueryOptions = (id: number) =>
  queryOptions({
    queryKey: satelliteKeys.one(id),
    queryFn: () => getParsed(`${SATELLITES_API}/${id}`, satelliteSchema),
    refetchInterval: POLL_INTERVALS_MS.satellites,
    enabled: Number.isSafeInteger(id) && id > 0,
  });

/** The last 24 h of signal readings: fetched only where a chart is shown, and kept a minute. */
export const satelliteSignalQueryOptions = (id: number) =>
  queryOptions({
    queryKey: satelliteKeys.signal(id),
    queryFn: () => getParsed(`${SATELLITES_API}/${id}/signal`, satelliteSignalHistorySchema),
    staleTime: 60_000,
    refetchInterval: 60_000,
  });

/** Puts one satellite's new state into the list and into its own query, where they are cached. */
function storeSatellite(client: QueryClient, satellite: Satellite) {
  client.setQueryData<Satellite[]>(satelliteKeys.all, (list) =>
    list?.map((item) => (item.id === satellite.id ? satellite : item)),
  );
  client.setQueryData(satelliteKeys.one(satellite.id), satellite);
}

/** The URLs a satellite calls, on the hub the console is served from. */
export function satelliteEndpoints(origin: string, id: number) {
  return {
    heartbeat: `${origin}${SATELLITES_API}/${id}/heartbeat`,
    voiceRun: `${origin}/api/flows/<flow id>/run?satellite=${id}`,
    wakeWordSample: `${origin}/api/wake-words/<wake word id>/samples?satellite=${id}`,
  };
}

function useInvalidateSatellites() {
  const client = useQueryClient();
  // The prefix covers the list, the sources' counts and every single satellite.
  return () => client.invalidateQueries({ queryKey: satelliteKeys.all });
}

/** Answers the new satellite with its token, which the agent never shows again. */
export function useCreateSatellite() {
  const invalidate = useInvalidateSatellites();
  return useMutation({
    mutationFn: async (input: CreateSatelliteInput) =>
      satelliteWithTokenSchema.parse(await apiJson('POST', SATELLITES_API, input)),
    onSuccess: invalidate,
  });
}

/** Adds a Wyoming satellite by host and port; the hub starts connecting to it at once. */
export function useCreateWyomingSatellite() {
  const invalidate = useInvalidateSatellites();
  return useMutation({
    mutationFn: async (input: CreateWyomingSatelliteInput) =>
      satelliteSchema.parse(await apiJson('POST', `${SATELLITES_API}/wyoming`, input)),
    onSuccess: invalidate,
  });
}

export function useUpdateSatellite(id: number) {
  const invalidate = useInvalidateSatellites();
  return useMutation({
    mutationFn: async (input: UpdateSatelliteInput) =>
      satelliteSchema.parse(await apiJson('PATCH', `${SATELLITES_API}/${id}`, input)),
    onSuccess: invalidate,
  });
}

export function useDeleteSatellite() {
  const invalidate = useInvalidateSatellites();
  return useMutation({
    mutationFn: async (id: number) => apiRequest('DELETE', `${SATELLITES_API}/${id}`),
    onSuccess: invalidate,
  });
}

/** A new token for the satellite; the old one is refused from this moment. */
export function useRotateSatelliteToken() {
  const invalidate = useInvalidateSatellites();
  return useMutation({
    mutationFn: async (id: number) =>
      satelliteWithTokenSchema.parse(await apiJson('POST', `${SATELLITES_API}/${id}/token`)),
    onSuccess: invalidate,
  });
}

/**
 * One action on the device (volume, mute, wake word, LED, restart, announce). The agent answers
 * with the satellite as it stands after the action, which goes straight into the cache.
 */
export function useSatelliteControl(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: SatelliteControlInput) =>
      satelliteSchema.parse(await apiJson('POST', `${SATELLITES_API}/${id}/control`, input)),
    onSuccess: (satellite) => storeSatellite(client, satellite),
  });
}
