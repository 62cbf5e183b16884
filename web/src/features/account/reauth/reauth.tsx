import { useQuery } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useCallback, useId, useState, type FormEvent, type ReactNode } from 'react';
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
import { errorMessage } from '@/lib/request';
import {
  isReauthRequired,
  passkeysQueryOptions,
  passkeysSupported,
  reauthenticateWithPasskey,
  reauthenticateWithPassword,
} from '@/data/auth';
import { ReauthContext, type Run } from '@/lib/reauth-context';

export { useReauth, type Run } from '@/lib/reauth-context';

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

/** Whether a passkey can confirm it: the browser supports them and the account has one. */
function useCanUsePasskey(enabled: boolean) {
  const list = useQuery({ ...passkeysQueryOptions(), enabled: enabled && passkeysSupported(), retry: false });
  return (list.data?.length ?? 0) > 0;
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
  const hasPasskeys = useCanUsePasskey(open);

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
    void attempt(() => reauthenticateWithPassword(password));
  };
  const proveWithPasskey = () => attempt(reauthenticateWithPasskey);

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
