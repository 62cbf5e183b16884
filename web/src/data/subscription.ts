import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  licenceActivatedSchema,
  subscriptionStatusSchema,
  licenceHistorySchema,
  subscriptionUsageSchema,
  type ActivateLicenceInput,
} from '@nexus/agent/contract';
import { getParsed } from './auth-session';
import { apiJson, apiRequest } from '@/lib/request';

export const SUBSCRIPTION_API = '/api/subscription';
export const SUBSCRIPTION_STATUS_PATH = `${SUBSCRIPTION_API}/status`;
export const USAGE_DAYS = 30;

/**
 * Keys are the paths they fetch (spec §7). The dashboard card and the billing screens read the
 * status under one key, so an activation or a deactivation here updates the card too.
 */
export const billingKeys = {
  status: () => [SUBSCRIPTION_STATUS_PATH] as const,
  usage: (days: number) => [`${SUBSCRIPTION_API}/usage?days=${days}`] as const,
  licences: () => [`${SUBSCRIPTION_API}/licences`] as const,
};

/** Spec §7 gives no interval: fetched once, like every query by default. */
export const subscriptionStatusQueryOptions = (signedIn = true) =>
  queryOptions({
    queryKey: billingKeys.status(),
    queryFn: () => getParsed(SUBSCRIPTION_STATUS_PATH, subscriptionStatusSchema),
    enabled: signedIn,
  });

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
