import { Suspense, useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { Spinner } from '@/components/ui/spinner';
import { setupStatusQueryOptions } from '@/data/setup-status';
import { lazyComponent } from '@/lib/lazy-code';

// Loaded only on a hub that still needs setting up, so every other first page stays small.
const InstallWizard = lazyComponent(async () => (await import('./install-wizard')).InstallWizard).Component;

export const INSTALL_PATH = '/install';

/**
 * Pages a visitor may open on a hub that is not set up yet. The sign-in screen stays reachable
 * because registering the first account there makes its owner the superadmin, which completes
 * setup as the wizard does; the public information pages (help, docs, pricing, legal,
 * crowdsourcing) must not be hidden behind a wizard meant for the owner.
 */
const REACHABLE_BEFORE_SETUP = [
  /^\/auth$/,
  /^\/forgot-password$/,
  /^\/reset-password$/,
  /^\/(help|docs|pricing|checkout|privacy|terms)$/,
  /^\/crowdsource(\/[^/]+)?$/,
];

export const reachableBeforeSetup = (path: string) => REACHABLE_BEFORE_SETUP.some((re) => re.test(path));

/**
 * First boot: while the hub has no account (and the wizard was not skipped for the sign-in
 * screen), every visitor gets the setup wizard, at /install whatever console address they opened
 * (the pages in REACHABLE_BEFORE_SETUP excepted). Once
 * any account exists, including one registered on the sign-in screen, the console's own routes
 * (`children`) take over. Signed-in visitors never wait for the check: an account exists.
 */
export function SetupGate({ signedIn, children }: { signedIn: boolean; children: ReactNode }) {
  const status = useQuery({ ...setupStatusQueryOptions(), enabled: !signedIn });
  const [location, navigate] = useLocation();
  const needsSetup = !signedIn && status.data?.needsSetup === true && !reachableBeforeSetup(location);

  useEffect(() => {
    if (needsSetup && location !== INSTALL_PATH) navigate(INSTALL_PATH, { replace: true });
  }, [needsSetup, location, navigate]);

  if (signedIn) return <>{children}</>;
  const spinner = (
    <div className="grid min-h-dvh place-items-center">
      <Spinner className="size-8 text-muted-foreground" />
    </div>
  );
  if (status.isPending && !reachableBeforeSetup(location)) return spinner;
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
