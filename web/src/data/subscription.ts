import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  licenceActivatedSchema,
  licenceHistorySchema,
  subscriptionUsageSchema,
  type ActivateLicenceInput,
} from '@nexus/agent/contract';
import { apiJson, apiRequest } from '@/lib/request';
import { SUBSCRIPTION_API, billingKeys } from './subscription-status';

export {
  SUBSCRIPTION_API,
  SUBSCRIPTION_STATUS_PATH,
  billingKeys,
  subscriptionStatusQueryOptions,
} from './subscription-status';

export const USAGE_DAYS = 30;

export const usageQueryOptions = (days: number = USAGE_DAYS) =>
  queryOptions({
    queryKey: billingKeys.usage(days),
    queryFn: async () =>
      subscriptionUsageSchema.parse(await apiJson<unknown>('GET', `${SUBSCRIPTION_API}/usage?days=${days}`)),
  });

export const licencesQueryOptions = () =>
  queryOptions({
    queryKey: billingKeys.licences(),
    queryFn: async () =>
      licenceHistorySchema.parse(await apiJson<unknown>('GET', `${SUBSCRIPTION_API}/licences`)).licences,
  });

/** The receipt of one licence, as a file the browser downloads. */
export const receiptUrl = (lid: string) => `${SUBSCRIPTION_API}/licences/${encodeURIComponent(lid)}/receipt`;

/** Everything the plan in force decides: the status, this month's use against the limits, the history. */
function useInvalidateSubscription() {
  const queryClient = useQueryClient();
  return () =>
    queryClient.invalidateQueries({
      predicate: (query) =>
        typeof query.queryKey[0] === 'string' && query.queryKey[0].startsWith(SUBSCRIPTION_API),
    });
}

export function useActivateLicence() {
  const invalidate = useInvalidateSubscription();
  return useMutation({
    mutationFn: async (input: ActivateLicenceInput) =>
      licenceActivatedSchema.parse(await apiJson<unknown>('POST', `${SUBSCRIPTION_API}/licence`, input)),
    onSettled: invalidate,
  });
}

export function useDeactivateLicence() {
  const invalidate = useInvalidateSubscription();
  return useMutation({
    mutationFn: async () => {
      await apiRequest('DELETE', `${SUBSCRIPTION_API}/licence`);
    },
    onSettled: invalidate,
  });
}
