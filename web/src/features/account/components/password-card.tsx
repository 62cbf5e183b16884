import { useId, useState, type FormEvent } from 'react';
import { changePasswordInputSchema, PASSWORD_MIN_LENGTH, type PublicUser } from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { useChangePassword } from '@/data/auth';

const PASSWORD_MISMATCH_MESSAGE = 'The new passwords do not match';

export function PasswordCard({ user }: { user: PublicUser }) {
  const id = useId();
  const change = useChangePassword();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  // What the browser found wrong before sending; the agent's own refusals come from the mutation.
  const [problem, setProblem] = useState<{ field: 'new' | 'confirm'; message: string } | null>(null);
  const error = problem?.message ?? (change.error ? errorMessage(change.error) : undefined);
  const errorId = `${id}-error`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.reset();
    if (newPassword !== confirmPassword) {
      setProblem({ field: 'confirm', message: PASSWORD_MISMATCH_MESSAGE });
      return;
    }
    const parsed = changePasswordInputSchema.safeParse({ currentPassword, newPassword });
    if (!parsed.success) {
      setProblem({ field: 'new', message: parsed.error.issues[0]?.message ?? 'Check the passwords' });
      return;
    }
    setProblem(null);
    change.mutate(parsed.data, {
      onSuccess: () => {
        setCurrentPassword('');
        setNewPassword('');
        setConfirmPassword('');
        toast({
          title: 'Password changed',
          description: 'Any other device signed in to your account was signed out.',
        });
      },
    });
  };

  // A mismatch is on both new fields: either may hold the typo.
  const invalid = (field: 'new' | 'confirm') =>
    problem !== null && (problem.field === field || problem.field === 'confirm');

  return (
    <Card role="region" aria-labelledby={`${id}-heading`}>
      <CardHeader>
        <CardTitle id={`${id}-heading`} role="heading" aria-level={2} className="text-lg">
          Password
        </CardTitle>
        <CardDescription>
          At least {PASSWORD_MIN_LENGTH} characters. Changing it signs out every other device signed in to
          your account; this one stays signed in.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid max-w-sm gap-4" aria-label="Change password" noValidate>
          {/* Lets password managers file the new password under the right account. */}
          <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-current`}>Current password</Label>
            <Input
              id={`${id}-current`}
              type="password"
              autoComplete="current-password"
              required
              value={currentPassword}
              onChange={(event) => setCurrentPassword(event.target.value)}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-new`}>New password</Label>
            <Input
              id={`${id}-new`}
              type="password"
              autoComplete="new-password"
              required
              minLength={PASSWORD_MIN_LENGTH}
              value={newPassword}
              onChange={(event) => setNewPassword(event.target.value)}
              aria-invalid={invalid('new') || undefined}
              aria-describedby={invalid('new') ? errorId : undefined}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-confirm`}>Confirm new password</Label>
            <Input
              id={`${id}-confirm`}
              type="password"
              autoComplete="new-password"
              required
              value={confirmPassword}
              onChange={(event) => setConfirmPassword(event.target.value)}
              aria-invalid={invalid('confirm') || undefined}
              aria-describedby={invalid('confirm') ? errorId : undefined}
            />
          </div>
          {error ? (
            <p id={errorId} role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
          <Button
            type="submit"
            className="justify-self-start"
            disabled={change.isPending || !currentPassword || !newPassword || !confirmPassword}
          >
            {change.isPending ? 'Changing...' : 'Change password'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
