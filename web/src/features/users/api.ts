import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  authResponseSchema,
  userListSchema,
  type PublicUser,
  type Role,
  type UpdateUserInput,
} from '@nexus/agent/contract';
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

export function useChangeRole() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: async ({ id, role }: { id: number; role: Role }): Promise<PublicUser> =>
      authResponseSchema.parse(
        await apiJson('PATCH', `${USERS_API}/${id}`, { role } satisfies UpdateUserInput),
      ).user,
    onSettled: invalidate,
  });
}

export function useDeleteUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: async (id: number) => apiRequest('DELETE', `${USERS_API}/${id}`),
    onSettled: invalidate,
  });
}
