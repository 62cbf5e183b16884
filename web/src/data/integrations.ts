import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  integrationListSchema,
  integrationTestResultSchema,
  type IntegrationId,
  type IntegrationList,
} from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';

export const INTEGRATIONS_API = '/api/integrations';

export const integrationsQueryOptions = () =>
  queryOptions({
    queryKey: [INTEGRATIONS_API] as const,
    queryFn: async () => integrationListSchema.parse(await apiJson<unknown>('GET', INTEGRATIONS_API)),
    // The agent re-checks each integration at most every 30 s; asking more often changes nothing.
    refetchInterval: 30_000,
  });

/** "Test now": the agent checks it again and answers its fresh state, which replaces the card's. */
export function useTestIntegration() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: IntegrationId) =>
      integrationTestResultSchema.parse(await apiJson<unknown>('POST', `${INTEGRATIONS_API}/${id}/test`)),
    onSuccess: (result) =>
      client.setQueryData<IntegrationList>([INTEGRATIONS_API], (list) =>
        list
          ? {
              integrations: list.integrations.map((i) =>
                i.id === result.integration.id ? result.integration : i,
              ),
            }
          : list,
      ),
  });
}
