import { queryOptions } from '@tanstack/react-query';
import {
  apiRouteListSchema,
  passwordResetConfigSchema,
  passwordResetMessageSchema,
  type ApiRouteList,
  type PasswordResetConfig,
  type PasswordResetConfirm,
} from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';

export const apiRoutesQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/docs/routes'],
    queryFn: async (): Promise<ApiRouteList> =>
      apiRouteListSchema.parse(await apiJson('GET', '/api/docs/routes')),
  });

export const passwordResetConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/auth/password-reset/config'],
    queryFn: async (): Promise<PasswordResetConfig> =>
      passwordResetConfigSchema.parse(await apiJson('GET', '/api/auth/password-reset/config')),
  });

export async function requestPasswordReset(email: string): Promise<string> {
  const answer = await apiJson('POST', '/api/auth/password-reset/request', { email });
  return passwordResetMessageSchema.parse(answer).message;
}

export async function confirmPasswordReset(input: PasswordResetConfirm): Promise<string> {
  const answer = await apiJson('POST', '/api/auth/password-reset/confirm', input);
  return passwordResetMessageSchema.parse(answer).message;
}
