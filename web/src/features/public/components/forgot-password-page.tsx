import { useMutation, useQuery } from '@tanstack/react-query';
import { MailCheck, Terminal } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { CLI_RESET_COMMAND } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/request';
import { passwordResetConfigQueryOptions, requestPasswordReset } from '@/data/auth';
import { AuthCard } from './auth-card';

const backToSignIn = (
  <Link href="/auth" className="font-medium text-primary underline-offset-4 hover:underline">
    Back to Sign In
  </Link>
);

/**
 * /forgot-password: with e-mail configured on the hub, ask for a reset link; without it, say
 * plainly that the hub's owner resets passwords from the hub's command line.
 */
export function ForgotPasswordPage() {
  const config = useQuery(passwordResetConfigQueryOptions());
  const emailId = useId();
  const [email, setEmail] = useState('');
  const request = useMutation({ mutationFn: requestPasswordReset });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate(email);
  };

  if (config.isLoading) {
    return (
      <AuthCard title="Forgot your password?" description="Checking how this hub resets passwords…">
        <div role="status">
          <span className="sr-only">Loading</span>
          <Skeleton className="h-9 w-full" />
        </div>
      </AuthCard>
    );
  }

  if (config.error) {
    return (
      <AuthCard title="Forgot your password?" description="The hub did not answer." footer={backToSignIn}>
        <Alert variant="destructive">
          <AlertTitle>Could not reach the hub</AlertTitle>
          <AlertDescription>{errorMessage(config.error)}</AlertDescription>
        </Alert>
      </AuthCard>
    );
  }

  if (!config.data?.emailEnabled) {
    return (
      <AuthCard
        title="Forgot your password?"
        description="This hub cannot send e-mail, so passwords are reset by the hub's owner from its command line."
        footer={backToSignIn}
      >
        <Alert>
          <Terminal aria-hidden="true" />
          <AlertTitle>Ask the hub's owner</AlertTitle>
          <AlertDescription>
            <p>On the hub, in the console's folder, the owner runs:</p>
            <code className="block w-full rounded bg-muted px-2 py-1.5 font-mono text-xs break-all text-foreground">
              {CLI_RESET_COMMAND}
            </code>
            <p>It prints a new password once and signs the account out everywhere.</p>
          </AlertDescription>
        </Alert>
        <p className="text-sm text-muted-foreground">
          Owners: reset links by e-mail work once the hub has <code>SMTP_URL</code>, <code>SMTP_FROM</code>{' '}
          and <code>NEXUS_PUBLIC_URL</code> set.
        </p>
      </AuthCard>
    );
  }

  if (request.isSuccess) {
    return (
      <AuthCard title="Check your e-mail" description={request.data} footer={backToSignIn}>
        <div className="flex justify-center text-success">
          <MailCheck aria-hidden="true" className="size-10" />
        </div>
        <p className="text-center text-sm text-muted-foreground">
          Nothing arrived? Check the spam folder, or{' '}
          <button
            type="button"
            className="rounded-sm font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
            onClick={() => request.reset()}
          >
            try again
          </button>
          .
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter your account's e-mail address and the hub will send you a link to choose a new password."
      footer={backToSignIn}
    >
      <form onSubmit={submit} className="space-y-4" noValidate={false}>
        <div className="space-y-2">
          <Label htmlFor={emailId}>Email</Label>
          <Input
            id={emailId}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        {request.error && (
          <Alert variant="destructive">
            <AlertTitle>Could not send the link</AlertTitle>
            <AlertDescription>{errorMessage(request.error)}</AlertDescription>
          </Alert>
        )}
        <Button type="submit" className="w-full" disabled={request.isPending}>
          {request.isPending && <Spinner className="size-4" label="Sending" />}
          Send reset link
        </Button>
      </form>
    </AuthCard>
  );
}
