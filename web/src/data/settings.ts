import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { outboundSettingsSchema, type OutboundSettingsInput } from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';

// The hub's settings screens that are not one feature's (agent: features/settings).

/** The admin's allow-list for flows' outbound requests (admins only; members get 403). */
export const OUTBOUND_SETTINGS_API = '/api/settings/outbound';

export const outboundSettingsQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: [OUTBOUND_SETTINGS_API] as const,
    queryFn: async () => outboundSettingsSchema.parse(await apiJson<unknown>('GET', OUTBOUND_SETTINGS_API)),
    enabled,
  });

export function useSaveOutboundSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (settings: OutboundSettingsInput) =>
      outboundSettingsSchema.parse(await apiJson<unknown>('PUT', OUTBOUND_SETTINGS_API, settings)),
    onSuccess: (saved) => client.setQueryData([OUTBOUND_SETTINGS_API], saved),
  });
}
