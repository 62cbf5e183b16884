import { useMutation } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'wouter';
import { PASSWORD_MIN_LENGTH } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/request';
import { confirmPasswordReset } from '@/data/auth';
import { AuthCard } from './auth-card';

/** /reset-password?token=…: the page a reset e-mail links to. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const passwordId = useId();
  const confirmId = useId();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const reset = useMutation({ mutationFn: confirmPasswordReset });

  if (!token) {
    return (
      <AuthCard
        title="Reset your password"
        description="This page is opened from the link in a password-reset e-mail, and this address has no reset token."
        footer={
          <Link href="/auth" className="font-medium text-primary underline-offset-4 hover:underline">
            Back to Sign In
          </Link>
        }
      >
        <Button asChild className="w-full">
          <Link href="/forgot-password">Ask for a reset link</Link>
        </Button>
      </AuthCard>
    );
  }

  if (reset.isSuccess) {
    return (
      <AuthCard title="Password changed" description={reset.data}>
        <div className="flex justify-center text-success">
          <CheckCircle2 aria-hidden="true" className="size-10" />
        </div>
        <Button asChild className="w-full">
          <Link href="/auth">Sign In</Link>
        </Button>
      </AuthCard>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirm) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    reset.mutate({ token, password });
  };

  return (
    <AuthCard
      title="Reset your password"
      description="Choose a new password. Every device signed in to your account will be signed out."
      footer={
        <Link href="/forgot-password" className="font-medium text-primary underline-offset-4 hover:underline">
          Ask for a new link
        </Link>
      }
    >
      <form onSubmit={submit} className="space-y-4">
        <div className="space-y-2">
          <Label htmlFor={passwordId}>New password</Label>
          <Input
            id={passwordId}
            type="password"
            autoComplete="new-password"
            required
            minLength={PASSWORD_MIN_LENGTH}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-describedby={`${passwordId}-hint`}
          />
          <p id={`${passwordId}-hint`} className="text-xs text-muted-foreground">
            At least {PASSWORD_MIN_LENGTH} characters.
          </p>
        </div>
        <div className="space-y-2">
          <Label htmlFor={confirmId}>Confirm new password</Label>
          <Input
            id={confirmId}
            type="password"
            autoComplete="new-password"
            required
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
            aria-invalid={mismatch || undefined}
          />
        </div>
        {mismatch && (
          <Alert variant="destructive">
            <AlertTitle>Error</AlertTitle>
            <AlertDescription>Passwords do not match</AlertDescription>
          </Alert>
        )}
        {reset.error && (
          <Alert variant="destructive">
            <AlertTitle>Could not change the password</AlertTitle>
            <AlertDescription>{errorMessage(reset.error)}</AlertDescription>
          </Alert>
        )}
        <Button type="submit" className="w-full" disabled={reset.isPending}>
          {reset.isPending && <Spinner className="size-4" label="Saving" />}
          Set new password
        </Button>
      </form>
    </AuthCard>
  );
}
