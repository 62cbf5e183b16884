import { queryOptions } from '@tanstack/react-query';
import { apiRouteListSchema, type ApiRouteList } from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';

/** The agent's own route list for the API docs page (agent: features/docs). */
export const apiRoutesQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/docs/routes'],
    queryFn: async (): Promise<ApiRouteList> =>
      apiRouteListSchema.parse(await apiJson('GET', '/api/docs/routes')),
  });
