import { queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  ROLES,
  TWO_FACTOR_REQUIRED_MESSAGE,
  type LoginInput,
  type PublicUser,
  type RegisterInput,
} from '@nexus/agent/contract';
import { boolean, integer, object, oneOf, parseShape, string, type Shape } from '@/lib/answer-shape';
import { queryClient } from '@/lib/query-client';
import { ApiRequestError, apiJson, apiRequest } from '@/lib/request';

/**
 * The session, as every page needs it from the start (spec §4): who is signed in, signing in, out
 * and registering. The entry loads this module, so it parses the answers with small shapes of the
 * contract's schemas (lib/answer-shape) rather than loading zod for them (issue 26); the rest of
 * the auth feature's calls are in data/auth.ts, which re-exports these.
 */

export const AUTH_USER_PATH = '/api/auth/user';
export const authUserQueryKey = [AUTH_USER_PATH] as const;

/** contract/auth.ts publicUserSchema. */
export const publicUserShape: Shape<PublicUser> = object<PublicUser>({
  id: integer,
  name: string,
  email: string,
  role: oneOf(ROLES),
  twoFactorEnabled: boolean,
  createdAt: string,
  disabled: boolean,
});

/** contract/auth.ts authResponseSchema: `{ user }`. */
export const authResponseShape: Shape<{ user: PublicUser }> = object({ user: publicUserShape });

/** After a sign-in: the answer is the signed-in user. */
export function rememberSignedIn(client: QueryClient, user: PublicUser) {
  client.setQueryData(authUserQueryKey, user);
}

/** After a registration: the session the server just opened is confirmed by a fresh user check (spec §4). */
export function confirmNewSession(client: QueryClient) {
  return client.invalidateQueries({ queryKey: authUserQueryKey });
}

/**
 * After a sign-out, also one the server could not be told of (spec §4): no user, and nothing fetched
 * for the previous account may show to whoever signs in next.
 */
export function forgetAccount(client: QueryClient) {
  client.setQueryData(authUserQueryKey, null);
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== authUserQueryKey[0] });
}

/** A prerendered visitor's page (web/src/prerender.tsx) is built as nobody signed in sees it. */
export function assumeSignedOut(client: QueryClient) {
  client.setQueryData(authUserQueryKey, null);
}

/**
 * Whether nobody is signed in, by the session check (asked once and kept, as the app asks it;
 * index.html has preloaded it). A prerendered visitor's page is taken over only when this holds.
 */
export async function isSignedOut(client: QueryClient): Promise<boolean> {
  return (await client.fetchQuery(authUserQueryOptions())) === null;
}

/** Spec §4: a 401 or 404 from the user check means signed out; any other failure stays an error. */
export async function fetchCurrentUser(): Promise<PublicUser | null> {
  try {
    return parseShape(publicUserShape, await apiJson<unknown>('GET', AUTH_USER_PATH));
  } catch (error) {
    if (error instanceof ApiRequestError && (error.status === 401 || error.status === 404)) return null;
    throw error;
  }
}

export const authUserQueryOptions = () =>
  queryOptions({ queryKey: authUserQueryKey, queryFn: fetchCurrentUser });

async function userFromAuthResponse(promise: Promise<unknown>): Promise<PublicUser> {
  return parseShape(authResponseShape, await promise).user;
}

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

// ---- reads that notice an ended session

/**
 * GETs and parses, for every feature's data module (here rather than in data/auth.ts so that a
 * screen's reads do not bring the auth feature's schemas along: issue 26). A 401 means the session
 * ended behind the console's back (expired, signed out in another tab): checking the user again
 * signs the console out, which unmounts the screen and stops its polling.
 */
export async function getParsed<T>(
  path: string,
  schema: { parse: (value: unknown) => T } | Shape<T>,
): Promise<T> {
  try {
    const answer = await apiJson<unknown>('GET', path);
    // A zod schema, or one of lib/answer-shape's shapes (reads that must not wait for zod).
    return typeof schema === 'function' ? parseShape(schema, answer) : schema.parse(answer);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) {
      void queryClient.invalidateQueries({ queryKey: authUserQueryKey });
    }
    throw error;
  }
}
