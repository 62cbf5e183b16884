import { queryOptions } from '@tanstack/react-query';
import { haDevicesSchema } from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';

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
