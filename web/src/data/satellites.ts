import { useEffect, useRef } from 'react';
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  POLL_INTERVALS_MS,
  satelliteListSchema,
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
import { useLiveTopic, type LiveConnectionState } from '@/lib/live';
import { apiJson, apiRequest } from '@/lib/request';

/**
 * The satellites feature's one data module: every path under /api/devices/satellite, every query
 * key and the live topic live here, so the fleet, the controls, the dashboard card and the FlowForge
 * builder never disagree about one.
 */
export const SATELLITES_API = '/api/devices/satellite';
/** The live channel's topic that carries the merged list whenever it changes. */
export const SATELLITES_TOPIC = 'satellites';

/**
 * Keys joined with '/' are the paths they fetch (spec §7). The list's key is the one the dashboard
 * and the FlowForge builder use, so a satellite added or renamed here shows there at once.
 */
export const satelliteKeys = {
  all: [SATELLITES_API] as const,
  sources: () => [SATELLITES_API, 'sources'] as const,
  one: (id: number) => [SATELLITES_API, String(id)] as const,
  signal: (id: number) => [SATELLITES_API, String(id), 'signal'] as const,
};

/** The merged list (Home Assistant, Wyoming and Nexus-API satellites), polled as spec §7 says. */
export const satellitesQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: satelliteKeys.all,
    queryFn: () => getParsed(SATELLITES_API, satelliteListSchema),
    // Spec §7: every 15 s. The live topic brings changes sooner while a satellite screen is open.
    refetchInterval: POLL_INTERVALS_MS.satellites,
    enabled,
  });

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

/**
 * Keeps the cached list (and the satellites open on screen) current from the `satellites` live
 * topic, which the agent publishes on every change of any source; after the socket comes back from
 * a drop the list is fetched again, since changes meanwhile were missed.
 */
export function useSatellitesLive(enabled = true): { liveState: LiveConnectionState } {
  const client = useQueryClient();
  const { state } = useLiveTopic(SATELLITES_TOPIC, {
    enabled,
    onEvent: (raw) => {
      const parsed = satelliteListSchema.safeParse(raw);
      if (!parsed.success) return;
      client.setQueryData(satelliteKeys.all, parsed.data);
      for (const satellite of parsed.data) {
        if (client.getQueryData(satelliteKeys.one(satellite.id))) {
          client.setQueryData(satelliteKeys.one(satellite.id), satellite);
        }
      }
    },
  });
  const previous = useRef<LiveConnectionState>(state);
  useEffect(() => {
    if (state === 'open' && previous.current === 'reconnecting') {
      void client.invalidateQueries({ queryKey: satelliteKeys.all });
    }
    previous.current = state;
  }, [state, client]);
  return { liveState: state };
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
