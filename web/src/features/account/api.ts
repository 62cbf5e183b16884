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

export const PASSWORD_API = '/api/auth/password';
export const TWO_FACTOR_API = '/api/auth/2fa';

/** The agent keeps this session and signs every other session of the account out. */
export function useChangePassword() {
  return useMutation({
    mutationFn: async (input: ChangePasswordInput) => {
      await apiJson('PUT', PASSWORD_API, input);
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
  return useMutation({
    mutationFn: async (input: TotpCodeInput): Promise<PublicUser> =>
      authResponseSchema.parse(await apiJson('POST', `${TWO_FACTOR_API}/${action}`, input)).user,
    onSuccess: async (user) => {
      // The answer already holds the new state: show it at once, then let the user check confirm it
      // (the app shell and every other screen read the same query).
      queryClient.setQueryData(authUserQueryKey, user);
      await queryClient.invalidateQueries({ queryKey: authUserQueryKey });
    },
  });
}

export const useEnableTwoFactor = () => useTwoFactorChange('enable');
export const useDisableTwoFactor = () => useTwoFactorChange('disable');
