import { queryOptions } from '@tanstack/react-query';
import {
  TWO_FACTOR_REQUIRED_MESSAGE,
  publicUserSchema,
  registrationStatusSchema,
  type LoginInput,
  type PublicUser,
  type RegisterInput,
} from '@nexus/agent/contract';
import { ApiRequestError, apiJson, apiRequest } from '@/lib/request';

export const AUTH_USER_PATH = '/api/auth/user';
export const authUserQueryKey = [AUTH_USER_PATH] as const;

/** Spec §4: a 401 or 404 from the user check means signed out; any other failure stays an error. */
export async function fetchCurrentUser(): Promise<PublicUser | null> {
  try {
    return publicUserSchema.parse(await apiJson<unknown>('GET', AUTH_USER_PATH));
  } catch (error) {
    if (error instanceof ApiRequestError && (error.status === 401 || error.status === 404)) return null;
    throw error;
  }
}

export const authUserQueryOptions = () =>
  queryOptions({ queryKey: authUserQueryKey, queryFn: fetchCurrentUser });

async function userFromAuthResponse(promise: Promise<unknown>): Promise<PublicUser> {
  const body = await promise;
  return publicUserSchema.parse((body as { user?: unknown } | undefined)?.user);
}

export const REGISTRATION_PATH = '/api/auth/registration';

/** Who may register (open, invite, closed) and whether the next account is the hub's first. */
export const registrationStatusQueryOptions = () =>
  queryOptions({
    queryKey: [REGISTRATION_PATH] as const,
    queryFn: async () => registrationStatusSchema.parse(await apiJson('GET', REGISTRATION_PATH)),
    // Read again each time the screen opens: an admin may have changed it, or the owner registered.
    staleTime: 0,
  });

export function login(input: LoginInput): Promise<PublicUser> {
  return userFromAuthResponse(apiJson('POST', '/api/auth/login', input));
}

export function register(input: RegisterInput): Promise<PublicUser> {
  return userFromAuthResponse(apiJson('POST', '/api/auth/register', input));
}

export async function logout(): Promise<void> {
  await apiRequest('POST', '/api/auth/logout');
}

/** Spec §4: the screen moves to the two-factor step when the error's message contains this text. */
export function isTwoFactorRequired(error: unknown): boolean {
  return error instanceof Error && error.message.includes(TWO_FACTOR_REQUIRED_MESSAGE);
}

/** Spec §8: a registration error whose message contains "already exists" is an existing account. */
export function isExistingAccount(error: unknown): boolean {
  return error instanceof Error && error.message.includes('already exists');
}
