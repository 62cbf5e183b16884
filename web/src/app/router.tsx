import { Suspense, useEffect, type ReactNode } from 'react';
import { Route, Switch, matchRoute, useLocation, useRouter } from 'wouter';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/features/auth/auth-provider';
import { NotFoundScreen } from '@/features/not-found/not-found-screen';
import { useHubName } from '@/features/setup/components/hub-name';
import { SetupGate } from '@/features/setup/components/setup-gate';
import { AppShell } from './layout/app-shell';
import { ScreenErrorBoundary } from './screen-error-boundary';
import { signedInRoutes, signedOutRoutes, screens, type RouteDef } from './routes';
import type { ScreenDef } from './screen';

const APP_NAME = 'Nexus Console';

/** "Screen · Hub name · Nexus Console": the hub's name (signed in) tells two hubs' tabs apart. */
export function documentTitle(title: string, hubName?: string): string {
  const parts = title === APP_NAME ? [] : [title];
  if (hubName) parts.push(hubName);
  return [...parts, APP_NAME].join(' · ');
}

function useDocumentTitle(title: string) {
  const hubName = useHubName();
  useEffect(() => {
    document.title = documentTitle(title, hubName);
  }, [title, hubName]);
}

/** Spec §2: a spinner while the session (or a screen's code) loads. */
export function PageSpinner({ fullPage = false }: { fullPage?: boolean }) {
  return (
    <div className={fullPage ? 'grid min-h-dvh place-items-center' : 'grid min-h-[50vh] place-items-center'}>
      <Spinner className="size-8 text-muted-foreground" />
    </div>
  );
}

function ScreenView({ screen, signedIn }: { screen: ScreenDef; signedIn: boolean }) {
  useDocumentTitle(screen.title);
  const { Component } = screen;
  return <Component signedIn={signedIn} />;
}

function NotFoundView() {
  useDocumentTitle('Page not found');
  return <NotFoundScreen />;
}

/** New screens start at the top, unless the address names a section to go to. */
function ScrollToTopOnNavigate() {
  const [location] = useLocation();
  useEffect(() => {
    if (!window.location.hash) window.scrollTo(0, 0);
  }, [location]);
  return null;
}

function routeElements(routes: readonly RouteDef[], signedIn: boolean) {
  return routes.flatMap((route) =>
    route.paths.map((path) => (
      <Route key={path} path={path}>
        <ScreenView screen={route.screen} signedIn={signedIn} />
      </Route>
    )),
  );
}

/** The route of the table that the current path opens, if any. */
function useMatchedRoute(routes: readonly RouteDef[]): RouteDef | undefined {
  const [location] = useLocation();
  const { parser } = useRouter();
  return routes.find((route) => route.paths.some((path) => matchRoute(parser, path, location)[0]));
}

/** The console's frame stays mounted while its screens change inside it. */
function Framed({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  return (
    <AppShell>
      <ScreenErrorBoundary resetKey={location}>
        <Suspense fallback={<PageSpinner />}>{children}</Suspense>
      </ScreenErrorBoundary>
    </AppShell>
  );
}

function Bare({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  return (
    <ScreenErrorBoundary resetKey={location}>
      <Suspense fallback={<PageSpinner fullPage />}>{children}</Suspense>
    </ScreenErrorBoundary>
  );
}

function SignedInRoutes() {
  const matched = useMatchedRoute(signedInRoutes);
  if (matched?.bare) {
    return (
      <Bare>
        <Switch>
          {routeElements(
            signedInRoutes.filter((r) => r.bare),
            true,
          )}
        </Switch>
      </Bare>
    );
  }
  return (
    <Framed>
      <Switch>
        {routeElements(
          signedInRoutes.filter((r) => !r.bare),
          true,
        )}
        <Route>
          <NotFoundView />
        </Route>
      </Switch>
    </Framed>
  );
}

function SignedOutRoutes() {
  const matched = useMatchedRoute(signedOutRoutes);
  if (matched && !matched.bare) {
    return (
      <Framed>
        <Switch>
          {routeElements(
            signedOutRoutes.filter((r) => !r.bare),
            false,
          )}
        </Switch>
      </Framed>
    );
  }
  // Full-page visitors' screens other than /auth (the phone pairing page).
  if (matched?.bare && matched.screen !== screens.auth) {
    return (
      <Bare>
        <ScreenView screen={matched.screen} signedIn={false} />
      </Bare>
    );
  }
  // Spec §2: /auth, and any path that is not a visitor's page, shows the auth screen.
  return (
    <Bare>
      <ScreenView screen={screens.auth} signedIn={false} />
    </Bare>
  );
}

/**
 * The console's routes (spec §2): the signed-out table, where any other path shows the auth
 * screen, and the signed-in table inside the console's frame, where any other path is not found.
 */
export function AppRouter() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <PageSpinner fullPage />;
  return (
    <>
      <ScrollToTopOnNavigate />
      {/* First boot: while no account exists, every visitor gets the setup wizard at /install (features/setup). */}
      <SetupGate signedIn={user !== null}>{user ? <SignedInRoutes /> : <SignedOutRoutes />}</SetupGate>
    </>
  );
}
