import { CircleX, Smartphone } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/request';
import { pairThisPhone } from '@/data/auth';

type State = { phase: 'pairing' } | { phase: 'failed'; message: string };

/**
 * /pair#<token>: the page a phone opens from the QR code. The token is in the fragment, which the
 * browser never sends, so it stays out of every request line and log; it is taken out of the
 * address bar at once, then spent for a session, and the phone goes on to the dashboard.
 */
export function PairPage() {
  const [token] = useState(() => window.location.hash.slice(1));
  const [state, setState] = useState<State>(() =>
    token
      ? { phase: 'pairing' }
      : { phase: 'failed', message: 'This link has no pairing code. Scan the QR code again.' },
  );
  // The token works once: React's development double effects must not spend it twice.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    window.history.replaceState(null, '', '/pair');
    if (!token) return;
    pairThisPhone({ token }).then(
      // A full load, so the whole console starts signed in.
      () => window.location.replace('/dashboard'),
      (error: unknown) =>
        setState({ phase: 'failed', message: errorMessage(error) ?? 'The phone could not be paired.' }),
    );
  }, [token]);

  return (
    <div className="flex min-h-svh items-center justify-center bg-background p-4">
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className="flex items-center gap-2 text-lg leading-none font-semibold">
            <Smartphone aria-hidden="true" className="size-5" />
            Pair this phone
          </h1>
        </CardHeader>
        <CardContent className="space-y-4">
          {state.phase === 'pairing' ? (
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <Spinner className="size-4" label="Signing this phone in" />
              <span aria-hidden="true">Signing this phone in…</span>
            </p>
          ) : (
            <>
              <Alert variant="destructive">
                <CircleX aria-hidden="true" className="size-4" />
                <AlertTitle>This phone could not be paired</AlertTitle>
                <AlertDescription>{state.message}</AlertDescription>
              </Alert>
              <p className="text-sm text-muted-foreground">
                Make a new link on the Phone Admin screen of a signed-in browser and scan it within ten
                minutes.
              </p>
              <Button asChild variant="outline">
                <Link href="/auth">Sign in with a password instead</Link>
              </Button>
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
