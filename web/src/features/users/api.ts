import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  authResponseSchema,
  createdInviteSchema,
  inviteListSchema,
  registrationStatusSchema,
  userListSchema,
  type CreateInviteInput,
  type CreatedInvite,
  type RegistrationMode,
  type PublicUser,
  type Role,
  type UpdateUserInput,
} from '@nexus/agent/contract';
import { sessionListSchema } from '@nexus/agent/contract';
import { useReauth } from '@/features/account';
import { apiJson, apiRequest } from '@/lib/request';

export const USERS_API = '/api/users';

/** Keys joined with '/' are the paths they fetch (spec §7). */
export const userKeys = {
  all: [USERS_API] as const,
};

export const usersQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.all,
    queryFn: async () => userListSchema.parse(await apiJson('GET', USERS_API)).users,
  });

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: userKeys.all });
}

// Both mutations refetch whether they succeed or not: a refusal usually means the list was stale
// (someone else changed or deleted the account meanwhile), and the fresh list shows why.

// Role changes, deletions and disabling need a recent password: useReauth asks and runs them again.

export function useChangeRole() {
  const invalidate = useInvalidateUsers();
  const reauth = useReauth();
  return useMutation({
    mutationFn: async ({ id, role }: { id: number; role: Role }): Promise<PublicUser> =>
      authResponseSchema.parse(
        await reauth(() => apiJson('PATCH', `${USERS_API}/${id}`, { role } satisfies UpdateUserInput)),
      ).user,
    onSettled: invalidate,
  });
}

export function useDeleteUser() {
  const invalidate = useInvalidateUsers();
  const reauth = useReauth();
  return useMutation({
    mutationFn: async (id: number) => reauth(() => apiRequest('DELETE', `${USERS_API}/${id}`)),
    onSettled: invalidate,
  });
}

/** Disabling signs the account out everywhere at once; enabling lets it sign in again. */
export function useSetDisabled() {
  const invalidate = useInvalidateUsers();
  const reauth = useReauth();
  return useMutation({
    mutationFn: async ({ id, disabled }: { id: number; disabled: boolean }): Promise<PublicUser> =>
      authResponseSchema.parse(
        await reauth(() => apiJson('POST', `${USERS_API}/${id}/${disabled ? 'disable' : 'enable'}`)),
      ).user,
    onSettled: invalidate,
  });
}

export const userSessionsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [USERS_API, id, 'sessions'],
    queryFn: async () =>
      sessionListSchema.parse(await apiJson('GET', `${USERS_API}/${id}/sessions`)).sessions,
  });

export function useRevokeUserSession(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (sid: string) => apiRequest('DELETE', `${USERS_API}/${id}/sessions/${sid}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [USERS_API, id, 'sessions'] }),
  });
}

export const INVITES_API = '/api/invites';
export const REGISTRATION_API = '/api/auth/registration';
export const inviteKeys = { all: [INVITES_API] as const };
export const registrationKeys = { all: [REGISTRATION_API] as const };

export const invitesQueryOptions = () =>
  queryOptions({
    queryKey: inviteKeys.all,
    queryFn: async () => inviteListSchema.parse(await apiJson('GET', INVITES_API)).invites,
  });

export const registrationQueryOptions = () =>
  queryOptions({
    queryKey: registrationKeys.all,
    queryFn: async () => registrationStatusSchema.parse(await apiJson('GET', REGISTRATION_API)),
  });

export function useSetRegistrationMode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (mode: RegistrationMode) =>
      registrationStatusSchema.parse(await apiJson('PUT', REGISTRATION_API, { mode })),
    onSuccess: (status) => queryClient.setQueryData(registrationKeys.all, status),
    onSettled: () => queryClient.invalidateQueries({ queryKey: registrationKeys.all }),
  });
}

export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateInviteInput): Promise<CreatedInvite> =>
      createdInviteSchema.parse(await apiJson('POST', INVITES_API, input)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: inviteKeys.all }),
  });
}

export function useRevokeInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => apiRequest('DELETE', `${INVITES_API}/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: inviteKeys.all }),
  });
}
