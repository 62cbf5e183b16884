import { CheckCircle2, XCircle } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { TOTP_DIGITS, type TwoFactorTestResult } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/features/auth';
import { errorMessage } from '@/lib/request';
import { useTestTwoFactor } from '@/data/auth';
import { pageContainer } from '@/components/page-container';

/** "about 60 s ahead", in words people read at a glance. */
export function describeDrift(result: TwoFactorTestResult): string {
  if (!result.valid || result.driftSeconds === null) return '';
  if (result.matchedStep === 0) return 'Your device clock matches the hub’s.';
  const seconds = Math.abs(result.driftSeconds);
  const direction = result.driftSeconds > 0 ? 'ahead of' : 'behind';
  return `Your device clock is about ${seconds} s ${direction} the hub’s (the code is from ${Math.abs(result.matchedStep ?? 0)} 30-second ${Math.abs(result.matchedStep ?? 0) === 1 ? 'step' : 'steps'} ${result.driftSeconds > 0 ? 'later' : 'earlier'}).`;
}

/** /2fa-test: check a code from the authenticator app against your own secret, without signing out. */
export function TwoFactorTestPage() {
  const id = useId();
  const { user } = useAuth();
  const test = useTestTwoFactor();
  const [code, setCode] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    test.mutate(code, { onSettled: () => setCode('') });
  };
  const result = test.data;

  return (
    <div className={pageContainer('space-y-6')}>
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">2FA Test</h1>
        <p className="text-sm text-muted-foreground">
          Check that your authenticator app&apos;s codes are accepted before you rely on them. Testing a code
          does not use it up and does not sign you out.
        </p>
      </header>
      {!user ? (
        <Skeleton className="h-48 w-full" />
      ) : !user.twoFactorEnabled ? (
        <Alert>
          <AlertTitle>Two-factor authentication is off</AlertTitle>
          <AlertDescription>
            Turn it on in{' '}
            <Link href="/settings" className="underline">
              Account Settings
            </Link>{' '}
            first; then come back to test your app&apos;s codes.
          </AlertDescription>
        </Alert>
      ) : (
        <Card role="region" aria-labelledby={`${id}-heading`}>
          <CardHeader>
            <CardTitle id={`${id}-heading`} role="heading" aria-level={2} className="text-lg">
              Test a code
            </CardTitle>
            <CardDescription>
              Enter the {TOTP_DIGITS}-digit code your app shows now. The hub also looks five minutes either
              way, to tell whether your phone&apos;s clock is off.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-label="Test a 2FA code">
              <div className="grid gap-1.5">
                <Label htmlFor={`${id}-code`}>Authentication code</Label>
                <Input
                  id={`${id}-code`}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={TOTP_DIGITS}
                  placeholder="000000"
                  className="w-40 text-center font-mono text-lg tracking-[0.3em]"
                  value={code}
                  onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
                />
              </div>
              <Button type="submit" disabled={test.isPending || code.length !== TOTP_DIGITS}>
                {test.isPending ? 'Checking...' : 'Test code'}
              </Button>
            </form>
            {test.error ? (
              <p role="alert" className="text-sm text-destructive">
                {errorMessage(test.error)}
              </p>
            ) : null}
            {result ? (
              <Alert
                variant={
                  result.valid && result.withinSignInWindow
                    ? 'success'
                    : result.valid
                      ? 'warning'
                      : 'destructive'
                }
                data-testid="two-factor-test-result"
              >
                {result.valid ? <CheckCircle2 aria-hidden="true" /> : <XCircle aria-hidden="true" />}
                <AlertTitle>
                  {!result.valid
                    ? 'Invalid code'
                    : result.withinSignInWindow
                      ? 'Valid code'
                      : 'Valid code, but sign-in would refuse it now'}
                </AlertTitle>
                <AlertDescription>
                  {result.valid
                    ? `${describeDrift(result)}${result.withinSignInWindow ? '' : ' Sign-in accepts one step either way: set your phone to get its time from the network.'}`
                    : `It matches no code from five minutes before to five minutes after the hub’s time. Check that the app's entry is for this hub and that your phone's clock is right.`}
                </AlertDescription>
              </Alert>
            ) : null}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
