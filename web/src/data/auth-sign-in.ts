import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { REGISTRATION_MODES, type PublicUser, type RegistrationStatus } from '@nexus/agent/contract';
import type * as SimpleWebAuthn from '@simplewebauthn/browser';
import { boolean, object, oneOf, parseShape, type Shape } from '@/lib/answer-shape';
import { apiJson, errorMessage } from '@/lib/request';
import { sharedLoad } from '@/lib/lazy-code';
import { authResponseShape, authUserQueryKey } from './auth-session';

/**
 * What the sign-in screen needs besides the session: who may register, and signing in with a
 * passkey. Loaded with that screen, it parses with small shapes of the contract's schemas, as
 * auth-session.ts does, so the screen does not wait for zod (issue 26). data/auth.ts re-exports it.
 */

export const REGISTRATION_PATH = '/api/auth/registration';
/** Every passkey endpoint of the agent is under this path (data/auth.ts has the account's own). */
export const PASSKEYS_API = '/api/auth/passkeys';

/** contract/invites.ts registrationStatusSchema. */
export const registrationStatusShape: Shape<RegistrationStatus> = object<RegistrationStatus>({
  mode: oneOf(REGISTRATION_MODES),
  firstAccount: boolean,
});

/** Who may register (open, invite, closed) and whether the next account is the hub's first. */
export const registrationStatusQueryOptions = () =>
  queryOptions({
    queryKey: [REGISTRATION_PATH] as const,
    queryFn: async () => parseShape(registrationStatusShape, await apiJson('GET', REGISTRATION_PATH)),
    // Read again each time the screen opens: an admin may have changed it, or the owner registered.
    staleTime: 0,
  });

type WebAuthnBrowser = typeof SimpleWebAuthn;
const webAuthnCode = sharedLoad(() => import('@simplewebauthn/browser'));
/**
 * @simplewebauthn/browser, loaded when a passkey ceremony or the autofill check starts rather
 * than with the sign-in screen: most sign-ins use a password, and the screen is a first page
 * (issue 26: 3 kB gzip of its 20).
 */
function webAuthn(): Promise<WebAuthnBrowser> {
  return webAuthnCode.load();
}

/**
 * Whether this browser can make and use passkeys at all: it has the WebAuthn API, which browsers
 * expose only in a secure context (HTTPS or localhost). Asked while rendering, so it is the
 * platform's own check rather than one that waits for the library.
 */
export const passkeysSupported = () => typeof window.PublicKeyCredential === 'function';

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
  const [{ startAuthentication }, optionsJSON] = await Promise.all([
    webAuthn(),
    apiJson<SimpleWebAuthn.PublicKeyCredentialRequestOptionsJSON>(
      'POST',
      `${PASSKEYS_API}/login/options`,
      {},
    ),
  ]);
  const response = await startAuthentication({ optionsJSON, useBrowserAutofill: opts.autofill ?? false });
  opts.onPicked?.();
  const body = { ...response, rememberMe: opts.rememberMe ?? false };
  return parseShape(authResponseShape, await apiJson('POST', `${PASSKEYS_API}/login/verify`, body)).user;
}

/**
 * Ends a waiting autofill ceremony (the screen is leaving). Before the library has loaded no
 * ceremony can be waiting: the autofill check loads it first.
 */
export const cancelPasskeyPrompt = () => webAuthnCode.loaded()?.WebAuthnAbortService.cancelCeremony();

/** Whether the browser offers passkeys in autofill (conditional mediation). */
export const passkeyAutofillSupported = async () => (await webAuthn()).browserSupportsWebAuthnAutofill();

/** After a passkey sign-in: the app shell and every screen read the user from this query. */
export function usePasskeySignedIn() {
  const queryClient = useQueryClient();
  return (user: PublicUser) => {
    queryClient.setQueryData(authUserQueryKey, user);
  };
}
