import { useQuery } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import {
  createContext,
  useCallback,
  useContext,
  useId,
  useState,
  type FormEvent,
  type ReactNode,
} from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ApiRequestError, apiJson, errorMessage } from '@/lib/request';

export const REAUTH_API = '/api/auth/reauth';
const PASSKEYS_API = '/api/auth/passkeys';

/** The agent's 401 for a sensitive change without a recent password or passkey (http/guards.ts). */
export function isReauthRequired(error: unknown): boolean {
  if (!(error instanceof ApiRequestError) || error.status !== 401) return false;
  try {
    const body = JSON.parse(error.bodyText) as { details?: { code?: unknown } };
    return body.details?.code === 'reauth_required';
  } catch {
    return false;
  }
}

type Run = <T>(action: () => Promise<T>) => Promise<T>;
const ReauthContext = createContext<Run | null>(null);

/**
 * Runs `action`; when the agent answers "reauth_required", asks for the password (or a passkey)
 * and runs it once more after that succeeds. Cancelling rejects with the original refusal.
 * Outside a ReauthProvider it just runs the action.
 */
export function useReauth(): Run {
  return useContext(ReauthContext) ?? ((action) => action());
}

interface Pending {
  resolve: () => void;
  reject: () => void;
}

/** Put around a screen whose mutations may need re-authentication (/settings, /user-management). */
export function ReauthProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const run = useCallback<Run>(async (action) => {
    try {
      return await action();
    } catch (error) {
      if (!isReauthRequired(error)) throw error;
      await new Promise<void>((resolve, reject) => setPending({ resolve, reject: () => reject(error) }));
      return action();
    }
  }, []);
  return (
    <ReauthContext.Provider value={run}>
      {children}
      <ReauthDialog
        open={pending !== null}
        onConfirmed={() => {
          pending?.resolve();
          setPending(null);
        }}
        onCancel={() => {
          pending?.reject();
          setPending(null);
        }}
      />
    </ReauthContext.Provider>
  );
}

/** Whether the account has passkeys; hidden when the hub has no passkey API (404) or none are set up. */
function useHasPasskeys(enabled: boolean) {
  return useQuery({
    queryKey: [PASSKEYS_API, 'any'],
    enabled,
    retry: false,
    queryFn: async () => {
      try {
        const body = await apiJson<unknown>('GET', PASSKEYS_API);
        const list = Array.isArray(body) ? body : (body as { passkeys?: unknown[] } | undefined)?.passkeys;
        return Array.isArray(list) && list.length > 0;
      } catch {
        return false;
      }
    },
  });
}

export function ReauthDialog({
  open,
  onConfirmed,
  onCancel,
}: {
  open: boolean;
  onConfirmed: () => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hasPasskeys = useHasPasskeys(open).data === true;

  const clear = () => {
    setPassword('');
    setError(null);
  };
  const finish = () => {
    clear();
    onConfirmed();
  };
  const cancel = () => {
    clear();
    onCancel();
  };
  const attempt = async (proof: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await proof();
      finish();
    } catch (err) {
      setError(errorMessage(err) ?? 'That did not work: try again');
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void attempt(() => apiJson('POST', REAUTH_API, { password }));
  };
  const proveWithPasskey = () =>
    attempt(async () => {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const optionsJSON = await apiJson<Parameters<typeof startAuthentication>[0]['optionsJSON']>(
        'POST',
        `${PASSKEYS_API}/reauth/options`,
      );
      const response = await startAuthentication({ optionsJSON });
      await apiJson('POST', `${PASSKEYS_API}/reauth/verify`, response);
    });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !busy) cancel();
      }}
    >
      <DialogContent aria-describedby={`${id}-description`}>
        <DialogHeader>
          <DialogTitle>Confirm it is you</DialogTitle>
          <DialogDescription id={`${id}-description`}>
            This change needs your password (or a passkey) once more. You will not be asked again for the next
            5 minutes.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-3" aria-label="Re-authenticate">
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-password`}>Password</Label>
            <Input
              id={`${id}-password`}
              type="password"
              autoComplete="current-password"
              autoFocus
              required
              value={password}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => setPassword(event.target.value)}
            />
          </div>
          {error ? (
            <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
          <DialogFooter className="gap-2 sm:justify-between">
            {hasPasskeys ? (
              <Button type="button" variant="outline" onClick={() => void proveWithPasskey()} disabled={busy}>
                <KeyRound aria-hidden="true" />
                Use a passkey
              </Button>
            ) : (
              <span />
            )}
            <div className="flex gap-2">
              <Button type="button" variant="ghost" onClick={cancel} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" disabled={busy || password.length === 0}>
                {busy ? 'Checking...' : 'Confirm'}
              </Button>
            </div>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
