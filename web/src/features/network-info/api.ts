import { queryOptions } from '@tanstack/react-query';
import { networkInfoSchema, type NetworkInterface } from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';

export const NETWORK_INFO_PATH = '/api/system/network';

/** Rates and addresses change slowly; a refresh every 10 s keeps the rx/tx figures meaningful. */
export const NETWORK_INFO_REFRESH_MS = 10_000;

export const networkInfoQueryOptions = () =>
  queryOptions({
    queryKey: [NETWORK_INFO_PATH],
    queryFn: async () => networkInfoSchema.parse(await apiJson<unknown>('GET', NETWORK_INFO_PATH)),
    refetchInterval: NETWORK_INFO_REFRESH_MS,
  });

/**
 * The order people look for interfaces in: the one with the default route, then the other
 * physical ones that are up, then virtual ones, then loopback; by name within each group.
 */
export function sortInterfaces(interfaces: readonly NetworkInterface[]): NetworkInterface[] {
  const rank = (i: NetworkInterface) =>
    i.isDefault ? 0 : i.internal ? 4 : i.virtual ? 3 : i.operstate === 'up' ? 1 : 2;
  return [...interfaces].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}
