import { Suspense, lazy, useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { Spinner } from '@/components/ui/spinner';
import { setupStatusQueryOptions } from '../api';

// Loaded only on a hub that still needs setting up, so every other first page stays small.
const InstallWizard = lazy(async () => ({ default: (await import('./install-wizard')).InstallWizard }));

export const INSTALL_PATH = '/install';

/**
 * First boot: while the hub has no account (and the wizard was not skipped for the sign-in
 * screen), every visitor gets the setup wizard, at /install whatever address they opened. Once
 * any account exists, including one registered on the sign-in screen, the console's own routes
 * (`children`) take over. Signed-in visitors never wait for the check: an account exists.
 */
export function SetupGate({ signedIn, children }: { signedIn: boolean; children: ReactNode }) {
  const status = useQuery({ ...setupStatusQueryOptions(), enabled: !signedIn });
  const [location, navigate] = useLocation();
  const needsSetup = !signedIn && status.data?.needsSetup === true;

  useEffect(() => {
    if (needsSetup && location !== INSTALL_PATH) navigate(INSTALL_PATH, { replace: true });
  }, [needsSetup, location, navigate]);

  if (signedIn) return <>{children}</>;
  const spinner = (
    <div className="grid min-h-dvh place-items-center">
      <Spinner className="size-8 text-muted-foreground" />
    </div>
  );
  if (status.isPending) return spinner;
  // A failed check must not lock anyone out: the console's routes decide then.
  if (!needsSetup) return <>{children}</>;
  return (
    <main>
      <Suspense fallback={spinner}>
        <InstallWizard />
      </Suspense>
    </main>
  );
}
