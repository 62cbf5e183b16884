import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  recoveryCodesResponseSchema,
  recoveryCodesStatusSchema,
  sessionListSchema,
  twoFactorTestResultSchema,
} from '@nexus/agent/contract';
import { apiJson, apiRequest } from '@/lib/request';
import { useReauth } from './reauth/reauth';

export const SESSIONS_API = '/api/auth/sessions';
export const RECOVERY_CODES_API = '/api/auth/recovery-codes';
export const TWO_FACTOR_TEST_API = '/api/auth/2fa/test';

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: [SESSIONS_API],
    queryFn: async () => sessionListSchema.parse(await apiJson('GET', SESSIONS_API)).sessions,
  });

export const recoveryCodesStatusQueryOptions = () =>
  queryOptions({
    queryKey: [RECOVERY_CODES_API],
    queryFn: async () => recoveryCodesStatusSchema.parse(await apiJson('GET', RECOVERY_CODES_API)),
  });

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => apiRequest('DELETE', `${SESSIONS_API}/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [SESSIONS_API] }),
  });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => apiJson<{ revoked: number }>('POST', `${SESSIONS_API}/revoke-others`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [SESSIONS_API] }),
  });
}

/** New codes, shown once; needs a recent password (the dialog asks). */
export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  const reauth = useReauth();
  return useMutation({
    mutationFn: async () =>
      recoveryCodesResponseSchema.parse(await reauth(() => apiJson('POST', RECOVERY_CODES_API)))
        .recoveryCodes,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [RECOVERY_CODES_API] }),
  });
}

export function useTestTwoFactor() {
  return useMutation({
    mutationFn: async (code: string) =>
      twoFactorTestResultSchema.parse(await apiJson('POST', TWO_FACTOR_TEST_API, { code })),
  });
}
