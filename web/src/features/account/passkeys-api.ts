import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import {
  authResponseSchema,
  passkeyListSchema,
  passkeyResponseSchema,
  type Passkey,
  type PublicUser,
} from '@nexus/agent/contract';
import { authUserQueryKey } from '@/features/auth/api';
import { ApiRequestError, apiJson, errorMessage } from '@/lib/request';

/**
 * Every passkey endpoint the console calls, in one place. The WebAuthn ceremonies themselves
 * (the browser's prompt) go through @simplewebauthn/browser, which turns the agent's options
 * JSON into navigator.credentials calls and the answers back into JSON.
 */
export const PASSKEYS_API = '/api/auth/passkeys';
/** The password re-authentication of the account feature (issue 18). */
export const REAUTH_API = '/api/auth/reauth';

export const passkeysQueryKey = [PASSKEYS_API] as const;

export const passkeysQueryOptions = () =>
  queryOptions({
    queryKey: passkeysQueryKey,
    queryFn: async (): Promise<Passkey[]> =>
      passkeyListSchema.parse(await apiJson('GET', PASSKEYS_API)).passkeys,
  });

/** Whether this browser can make and use passkeys at all (it needs a secure context: HTTPS or localhost). */
export const passkeysSupported = () => browserSupportsWebAuthn();

/**
 * The person dismissed the browser's prompt, or another ceremony replaced this one: not an error
 * worth a red toast. @simplewebauthn/browser keeps the DOMException's name on its own errors.
 */
export function isPasskeyCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
}

/**
 * A sentence for a failed passkey ceremony. A SecurityError is the browser refusing this address
 * as a relying party, e.g. an IP address: passkeys need the hub's name.
 */
export function passkeyErrorMessage(error: unknown): string | undefined {
  if (error instanceof Error && error.name === 'SecurityError') {
    return 'Passkeys need the hub’s name in the address bar (e.g. https://nexus.local or http://localhost), not an IP address.';
  }
  return errorMessage(error);
}

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

/**
 * Signs in with a passkey. `autofill`: conditional UI, the browser offers the hub's passkeys in
 * the e-mail field's autofill and the promise waits until one is picked (or another ceremony
 * aborts it). A passkey is both factors, so there is no 2FA step after it.
 */
export async function signInWithPasskey(
  opts: {
    rememberMe?: boolean;
    autofill?: boolean;
    /** Called once the browser hands over a passkey, before the hub checks it. */
    onPicked?: () => void;
  } = {},
): Promise<PublicUser> {
  const optionsJSON = await apiJson<PublicKeyCredentialRequestOptionsJSON>(
    'POST',
    `${PASSKEYS_API}/login/options`,
    {},
  );
  const response = await startAuthentication({ optionsJSON, useBrowserAutofill: opts.autofill ?? false });
  opts.onPicked?.();
  const body = { ...response, rememberMe: opts.rememberMe ?? false };
  return authResponseSchema.parse(await apiJson('POST', `${PASSKEYS_API}/login/verify`, body)).user;
}

/** Ends a waiting autofill ceremony (the screen is leaving). */
export const cancelPasskeyPrompt = () => WebAuthnAbortService.cancelCeremony();

/** Whether the browser offers passkeys in autofill (conditional mediation). */
export const passkeyAutofillSupported = () => browserSupportsWebAuthnAutofill();

/** After a passkey sign-in: the app shell and every screen read the user from this query. */
export function usePasskeySignedIn() {
  const queryClient = useQueryClient();
  return (user: PublicUser) => {
    queryClient.setQueryData(authUserQueryKey, user);
  };
}
