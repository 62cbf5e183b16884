import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  POLL_INTERVALS_MS,
  satelliteListSchema,
  satelliteSchema,
  satelliteWithTokenSchema,
  type CreateSatelliteInput,
  type UpdateSatelliteInput,
} from '@nexus/agent/contract';
import { authUserQueryKey } from '@/features/auth';
import { queryClient } from '@/lib/query-client';
import { ApiRequestError, apiJson, apiRequest } from '@/lib/request';

export const SATELLITES_API = '/api/devices/satellite';

/**
 * Keys joined with '/' are the paths they fetch (spec §7). The list's key is the one the dashboard
 * and the FlowForge builder use, so a satellite added or renamed here shows there at once.
 */
export const satelliteKeys = {
  all: [SATELLITES_API] as const,
};

export const satellitesQueryOptions = () =>
  queryOptions({
    queryKey: satelliteKeys.all,
    queryFn: async () => {
      try {
        return satelliteListSchema.parse(await apiJson<unknown>('GET', SATELLITES_API));
      } catch (error) {
        // A session that ended behind the console's back would otherwise keep this poll failing
        // forever; checking the user again signs the console out, which stops it.
        if (error instanceof ApiRequestError && error.status === 401) {
          void queryClient.invalidateQueries({ queryKey: authUserQueryKey });
        }
        throw error;
      }
    },
    // Satellites report every 15 s, so polling faster would show nothing new.
    refetchInterval: POLL_INTERVALS_MS.satellites,
  });

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
