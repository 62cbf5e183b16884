import { QueryClient, type QueryFunction, type QueryKey } from '@tanstack/react-query';
import { ApiRequestError, apiJson } from './request';

/** Spec §7: a generic query GETs the path made by joining its key, e.g. ['/api/nexus/status']. */
export function queryKeyToPath(queryKey: QueryKey): string {
  return queryKey.map(String).join('/');
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** A query function that GETs the key's path; with 'returnNull' a 401 resolves to null instead of failing. */
export function getQueryFn<T>(options: { on401: 'returnNull' }): QueryFunction<T | null>;
export function getQueryFn<T>(options: { on401: 'throw' }): QueryFunction<T>;
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    try {
      return await apiJson<T>('GET', queryKeyToPath(queryKey));
    } catch (error) {
      if (on401 === 'returnNull' && error instanceof ApiRequestError && error.status === 401) return null;
      throw error;
    }
  };
}

/**
 * Reads the queries under `queryKey` afresh, for a live topic the agent has just confirmed (what it
 * published before then never reached this tab) or a live event that says the data changed. A read
 * still under way is cancelled first, because react-query hands the answer of a first fetch under
 * way to whoever asks meanwhile, and that answer may predate the change.
 */
export async function rereadQueries(client: QueryClient, queryKey: QueryKey): Promise<void> {
  await client.cancelQueries({ queryKey });
  await client.invalidateQueries({ queryKey });
}

/**
 * Spec §7: queries never retry, never refetch on focus or on a timer (screens that poll set their
 * own interval) and are never stale; mutations never retry.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
