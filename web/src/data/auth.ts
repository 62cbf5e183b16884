import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  registrationStatusSchema,
  type PublicUser,
  authResponseSchema,
  twoFactorSetupSchema,
  type ChangePasswordInput,
  type TotpCodeInput,
  enableTwoFactorResponseSchema,
  passkeyListSchema,
  passkeyResponseSchema,
  type Passkey,
  recoveryCodesResponseSchema,
  recoveryCodesStatusSchema,
  sessionListSchema,
  twoFactorTestResultSchema,
  createdPhonePairingSchema,
  pairedPhoneListSchema,
  phonePairingStatusSchema,
  type CreatePhonePairingInput,
  type PairPhoneInput,
  createdInviteSchema,
  inviteListSchema,
  userListSchema,
  type CreateInviteInput,
  type CreatedInvite,
  type RegistrationMode,
  type Role,
  type UpdateUserInput,
  passwordResetConfigSchema,
  passwordResetMessageSchema,
  type PasswordResetConfig,
  type PasswordResetConfirm,
} from '@nexus/agent/contract';
import { ApiRequestError, apiJson, apiRequest } from '@/lib/request';
import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { useReauth } from '@/lib/reauth-context';
import { authUserQueryKey } from './auth-session';
import { PASSKEYS_API } from './auth-sign-in';

// What the first page needs is in auth-session.ts (the session) and auth-sign-in.ts (the sign-in
// screen), which parse without zod (issue 26); the auth feature's other screens import it from here.
export {
  AUTH_USER_PATH,
  authUserQueryKey,
  authUserQueryOptions,
  confirmNewSession,
  fetchCurrentUser,
  forgetAccount,
  getParsed,
  isExistingAccount,
  isTwoFactorRequired,
  login,
  logout,
  register,
  rememberSignedIn,
} from './auth-session';
export {
  PASSKEYS_API,
  REGISTRATION_PATH,
  cancelPasskeyPrompt,
  isPasskeyCancelled,
  passkeyAutofillSupported,
  passkeyErrorMessage,
  passkeysSupported,
  registrationStatusQueryOptions,
  signInWithPasskey,
  usePasskeySignedIn,
} from './auth-sign-in';

// ---- from features/account/api.ts

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

// ---- from features/account/passkeys-api.ts

/**
 * Every passkey endpoint the console calls, in one place. The WebAuthn ceremonies themselves
 * (the browser's prompt) go through @simplewebauthn/browser, which turns the agent's options
 * JSON into navigator.credentials calls and the answers back into JSON.
 */
/** The password re-authentication of the account feature (issue 18). */
export const REAUTH_API = '/api/auth/reauth';

export const passkeysQueryKey = [PASSKEYS_API] as const;

export const passkeysQueryOptions = () =>
  queryOptions({
    queryKey: passkeysQueryKey,
    queryFn: async (): Promise<Passkey[]> =>
      passkeyListSchema.parse(await apiJson('GET', PASSKEYS_API)).passkeys,
  });

/** A 401 from requireRecentAuth: the screen asks for the password or a passkey, then tries again. */
export function isReauthRequired(error: unknown): boolean {
  if (!(error instanceof ApiRequestError) || error.status !== 401) return false;
  try {
    const body = JSON.parse(error.bodyText) as { details?: { code?: string } };
    return body.details?.code === 'reauth_required';
  } catch {
    return false;
  }
}

/** Creates a passkey: options from the hub, the browser's prompt, then the hub checks and keeps it. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string): Promise<Passkey> => {
      const optionsJSON = await apiJson<PublicKeyCredentialCreationOptionsJSON>(
        'POST',
        `${PASSKEYS_API}/register/options`,
      );
      const response = await startRegistration({ optionsJSON });
      const body = { ...response, ...(name.trim() ? { name: name.trim() } : {}) };
      return passkeyResponseSchema.parse(await apiJson('POST', `${PASSKEYS_API}/register/verify`, body))
        .passkey;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryKey }),
  });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name }: { id: number; name: string }) =>
      passkeyResponseSchema.parse(await apiJson('PATCH', `${PASSKEYS_API}/${id}`, { name })).passkey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryKey }),
  });
}

/**
 * Needs a recent password or passkey proof: `run` (useReauth's) asks for one when the agent answers
 * reauth_required and deletes again.
 */
export function useDeletePasskey(run: <T>(action: () => Promise<T>) => Promise<T> = (action) => action()) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await run(() => apiJson('DELETE', `${PASSKEYS_API}/${id}`));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryKey }),
  });
}

/** Proves one of the account's passkeys again, so sensitive changes are allowed for five minutes. */
export async function reauthenticateWithPasskey(): Promise<void> {
  const optionsJSON = await apiJson<PublicKeyCredentialRequestOptionsJSON>(
    'POST',
    `${PASSKEYS_API}/reauth/options`,
  );
  const response = await startAuthentication({ optionsJSON });
  await apiJson('POST', `${PASSKEYS_API}/reauth/verify`, response);
}

/** The same with the password (the account feature's endpoint). */
export async function reauthenticateWithPassword(password: string): Promise<void> {
  await apiJson('POST', REAUTH_API, { password });
}

// ---- from features/account/security-api.ts

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

// ---- from features/phones/api.ts

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

// ---- from features/users/api.ts

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

// ---- password reset (public: no session)

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
