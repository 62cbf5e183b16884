import { queryOptions } from '@tanstack/react-query';
import { networkPageSchema, type NetworkInterface } from '@nexus/agent/contract';
import { authUserQueryKey } from '@/features/auth';
import { queryClient } from '@/lib/query-client';
import { ApiRequestError, apiJson } from '@/lib/request';

/** /api/system/network's figures with the Wi-Fi links and Tailscale's state (issue 17). */
export const NETWORK_INFO_PATH = '/api/network/info';

/** Rates and addresses change slowly; a refresh every 10 s keeps the rx/tx figures meaningful. */
export const NETWORK_INFO_REFRESH_MS = 10_000;

/** GETs and parses; a 401 re-checks the user, so an ended session signs the console out and stops the polling. */
async function getParsed<T>(path: string, schema: { parse: (value: unknown) => T }): Promise<T> {
  try {
    return schema.parse(await apiJson<unknown>('GET', path));
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) {
      void queryClient.invalidateQueries({ queryKey: authUserQueryKey });
    }
    throw error;
  }
}

export const networkInfoQueryOptions = () =>
  queryOptions({
    queryKey: [NETWORK_INFO_PATH],
    queryFn: () => getParsed(NETWORK_INFO_PATH, networkPageSchema),
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

/** Signal strength in words, by the usual dBm bands. */
export function signalWords(dbm: number | null): string {
  if (dbm === null) return 'Unknown';
  if (dbm >= -55) return 'Excellent';
  if (dbm >= -67) return 'Good';
  if (dbm >= -75) return 'Fair';
  return 'Weak';
}
