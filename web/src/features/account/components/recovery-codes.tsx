import { useQuery } from '@tanstack/react-query';
import { Download, KeyRound } from 'lucide-react';
import { Link } from 'wouter';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { recoveryCodesStatusQueryOptions, useRegenerateRecoveryCodes } from '@/data/auth';

/** The codes, just made: shown this once, to be written down or saved as a file. */
export function FreshRecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const download = () => {
    const blob = new Blob(
      [`Nexus Console recovery codes (${location.host})\nEach code signs in once.\n\n${codes.join('\n')}\n`],
      { type: 'text/plain' },
    );
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = 'nexus-recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Alert variant="warning" role="region" aria-label="Your recovery codes">
      <KeyRound aria-hidden="true" />
      <AlertTitle>Save your recovery codes now</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>
          If you lose your phone, each of these codes signs you in once in place of a 2FA code. They are shown
          only now: print them, save them in a password manager, or download them.
        </p>
        <ol
          data-testid="recovery-codes"
          className="grid grid-cols-2 gap-x-6 gap-y-1 rounded-md bg-muted p-3 font-mono text-sm text-foreground"
        >
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ol>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={download}>
            <Download aria-hidden="true" />
            Download as a file
          </Button>
          <Button size="sm" onClick={onDone}>
            I have saved them
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}

/** With 2FA on: how many codes are left, a new set, and the way to /2fa-test. */
export function RecoveryCodesStatus({ onNewCodes }: { onNewCodes: (codes: string[]) => void }) {
  const status = useQuery(recoveryCodesStatusQueryOptions());
  const regenerate = useRegenerateRecoveryCodes();
  const remaining = status.data?.remaining;
  return (
    <div className="grid gap-2 text-sm">
      <p data-testid="recovery-codes-left">
        {status.isLoading
          ? 'Counting your recovery codes...'
          : status.error
            ? `Could not count your recovery codes: ${errorMessage(status.error)}`
            : `${remaining} of ${status.data?.total ?? 10} recovery codes left.`}
        {remaining !== undefined && remaining <= 3 ? ' Make new ones before you run out.' : null}
      </p>
      <div className="flex flex-wrap gap-2">
        <ConfirmButton
          variant="outline"
          size="sm"
          disabled={regenerate.isPending}
          question="Make new recovery codes?"
          description="The codes you have now stop working at once; you get ten new ones to save."
          confirmLabel="Make new codes"
          onConfirm={() =>
            regenerate.mutate(undefined, {
              onSuccess: (codes) => {
                onNewCodes(codes);
                toast({ title: 'New recovery codes made', description: 'The old ones no longer work.' });
              },
            })
          }
        >
          {regenerate.isPending ? 'Making codes...' : 'Make new recovery codes'}
        </ConfirmButton>
        <Button asChild variant="ghost" size="sm">
          <Link href="/2fa-test">Test a code from your app</Link>
        </Button>
      </div>
      {regenerate.error ? (
        <p role="alert" className="text-destructive">
          {errorMessage(regenerate.error)}
        </p>
      ) : null}
    </div>
  );
}
