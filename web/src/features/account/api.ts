import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  authResponseSchema,
  twoFactorSetupSchema,
  type ChangePasswordInput,
  type PublicUser,
  type TotpCodeInput,
} from '@nexus/agent/contract';
import { authUserQueryKey } from '@/features/auth';
import { apiJson } from '@/lib/request';
import { enableTwoFactorResponseSchema } from '@nexus/agent/contract';
import { useReauth } from './reauth/reauth';

export const PASSWORD_API = '/api/auth/password';
export const TWO_FACTOR_API = '/api/auth/2fa';

/** The agent keeps this session and signs every other session of the account out. */
export function useChangePassword() {
  const reauth = useReauth();
  return useMutation({
    mutationFn: async (input: ChangePasswordInput) => {
      await reauth(() => apiJson('PUT', PASSWORD_API, input));
    },
  });
}

/**
 * Each call makes a new secret and forgets any earlier unconfirmed one, so only the secret of the
 * last setup can enable 2FA.
 */
export function useSetupTwoFactor() {
  return useMutation({
    mutationFn: async () => twoFactorSetupSchema.parse(await apiJson('POST', `${TWO_FACTOR_API}/setup`)),
  });
}

function useTwoFactorChange(action: 'enable' | 'disable') {
  const queryClient = useQueryClient();
  const reauth = useReauth();
  return useMutation({
    // Turning it off needs a recent password: the dialog asks, then this runs again.
    mutationFn: async (input: TotpCodeInput): Promise<PublicUser> =>
      authResponseSchema.parse(await reauth(() => apiJson('POST', `${TWO_FACTOR_API}/${action}`, input)))
        .user,
    onSuccess: async (user) => {
      // The answer already holds the new state: show it at once, then let the user check confirm it
      // (the app shell and every other screen read the same query).
      queryClient.setQueryData(authUserQueryKey, user);
      await queryClient.invalidateQueries({ queryKey: authUserQueryKey });
    },
  });
}

/** Turns 2FA on; the answer carries the ten recovery codes, shown once. */
export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: TotpCodeInput) =>
      enableTwoFactorResponseSchema.parse(await apiJson('POST', `${TWO_FACTOR_API}/enable`, input)),
    onSuccess: async ({ user }) => {
      queryClient.setQueryData(authUserQueryKey, user);
      await queryClient.invalidateQueries({ queryKey: authUserQueryKey });
    },
  });
}
export const useDisableTwoFactor = () => useTwoFactorChange('disable');
