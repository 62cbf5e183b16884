import { useId, useState, type FormEvent } from 'react';
import { Fingerprint, Loader2 } from 'lucide-react';
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
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import {
  isPasskeyCancelled,
  passkeyErrorMessage,
  reauthenticateWithPassword,
  reauthenticateWithPasskey,
} from '../passkeys-api';

/**
 * "Confirm it's you": asked when the hub answers 401 reauth_required (a sensitive change more
 * than five minutes after the last password or passkey proof). On success the caller retries.
 */
export function ReauthDialog({
  open,
  onOpenChange,
  onConfirmed,
  offerPasskey,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirmed: () => void;
  /** The account has a passkey to confirm with. */
  offerPasskey: boolean;
}) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState<'password' | 'passkey' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const finish = () => {
    setPassword('');
    setError(null);
    onOpenChange(false);
    onConfirmed();
  };

  const withPassword = async (event: FormEvent) => {
    event.preventDefault();
    setPending('password');
    setError(null);
    try {
      await reauthenticateWithPassword(password);
      finish();
    } catch (err) {
      setError(errorMessage(err) ?? 'The password was not accepted');
    } finally {
      setPending(null);
    }
  };

  const withPasskey = async () => {
    setPending('passkey');
    setError(null);
    try {
      await reauthenticateWithPasskey();
      finish();
    } catch (err) {
      if (!isPasskeyCancelled(err)) {
        toast({
          title: 'Passkey not accepted',
          description: passkeyErrorMessage(err),
          variant: 'destructive',
        });
      }
    } finally {
      setPending(null);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setPassword('');
          setError(null);
        }
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Confirm it’s you</DialogTitle>
          <DialogDescription>
            For this change the hub needs your password{offerPasskey ? ' or a passkey' : ''} again. It will
            not ask again for five minutes.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={withPassword} className="grid gap-3" aria-label="Confirm with your password">
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-password`}>Password</Label>
            <Input
              id={`${id}-password`}
              type="password"
              autoComplete="current-password"
              autoFocus
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
          </div>
          {error ? (
            <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
          <DialogFooter className="gap-2 sm:justify-between">
            {offerPasskey ? (
              <Button type="button" variant="outline" onClick={withPasskey} disabled={pending !== null}>
                {pending === 'passkey' ? (
                  <Loader2 aria-hidden="true" className="animate-spin" />
                ) : (
                  <Fingerprint aria-hidden="true" />
                )}
                Use a passkey
              </Button>
            ) : (
              <span />
            )}
            <Button type="submit" disabled={pending !== null || !password}>
              {pending === 'password' ? <Loader2 aria-hidden="true" className="animate-spin" /> : null}
              Confirm
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
