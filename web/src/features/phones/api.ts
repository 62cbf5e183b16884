import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createdPhonePairingSchema,
  pairedPhoneListSchema,
  phonePairingStatusSchema,
  type CreatePhonePairingInput,
  type PairPhoneInput,
} from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';

export const PHONES_API = '/api/auth/phones';
/** How often the open pairing is checked for the phone having used it. */
export const PAIRING_POLL_MS = 2000;

export const phoneKeys = {
  all: [PHONES_API] as const,
  pairing: (id: number) => [PHONES_API, 'pairings', id] as const,
};

export const phonesQueryOptions = () =>
  queryOptions({
    queryKey: phoneKeys.all,
    queryFn: async () => pairedPhoneListSchema.parse(await apiJson('GET', PHONES_API)).phones,
  });

/** The pairing's state, polled while it waits for the phone; it stops once paired or expired. */
export const pairingQueryOptions = (id: number) =>
  queryOptions({
    queryKey: phoneKeys.pairing(id),
    queryFn: async () => phonePairingStatusSchema.parse(await apiJson('GET', `${PHONES_API}/pairings/${id}`)),
    refetchInterval: (query) =>
      query.state.data && query.state.data.status !== 'waiting' ? false : PAIRING_POLL_MS,
  });

export function useCreatePairing() {
  return useMutation({
    mutationFn: async (input: CreatePhonePairingInput) =>
      createdPhonePairingSchema.parse(await apiJson('POST', `${PHONES_API}/pairings`, input)),
  });
}

export function useRevokePhone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiJson('DELETE', `${PHONES_API}/${id}`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: phoneKeys.all }),
  });
}

/** The phone's side: spends the link's token for a session cookie. */
export async function pairThisPhone(input: PairPhoneInput): Promise<void> {
  await apiJson('POST', `${PHONES_API}/pair`, input);
}
