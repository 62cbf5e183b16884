import { createContext, useContext } from 'react';

/**
 * The seam between the data layer and the re-authentication dialog: data hooks whose calls may be
 * refused with "reauth_required" wrap them in useReauth(); the account feature's ReauthProvider
 * supplies the dialog that asks for the password or a passkey. Lives in lib so data/ never
 * imports a feature.
 */

/** Runs an action, asking for the password (or a passkey) and running it again when the agent wants a fresh proof. */
export type Run = <T>(action: () => Promise<T>) => Promise<T>;
export const ReauthContext = createContext<Run | null>(null);

/**
 * Runs `action`; when the agent answers "reauth_required", asks for the password (or a passkey)
 * and runs it once more after that succeeds. Cancelling rejects with the original refusal.
 * Outside a ReauthProvider it just runs the action.
 */
export function useReauth(): Run {
  return useContext(ReauthContext) ?? ((action) => action());
}
