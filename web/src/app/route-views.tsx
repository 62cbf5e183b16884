import { Suspense, useEffect, type ReactNode } from 'react';
import { Route, useLocation, useRouter } from 'wouter';
import { Spinner } from '@/components/ui/spinner';
import { NotFoundScreen } from '@/features/not-found/not-found-screen';
import { useHubName } from '@/features/setup/components/hub-name';
import { AppShell } from './layout/app-shell';
import { useMarkPageLive } from '@/lib/prerendered-page';
import { ScreenErrorBoundary } from './screen-error-boundary';
import { routeAt, type RouteDef } from './routes';
import type { ScreenDef } from './screen';

/** What the signed-out routes (router.tsx) and the signed-in ones (signed-in-routes.tsx) share. */

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

export function ScreenView({ screen, signedIn }: { screen: ScreenDef; signedIn: boolean }) {
  useDocumentTitle(screen.title);
  // In the same Suspense boundary as the screen: this runs once the screen itself is live.
  useMarkPageLive();
  const { Component } = screen;
  return <Component signedIn={signedIn} />;
}

export function NotFoundView() {
  useDocumentTitle('Page not found');
  return <NotFoundScreen />;
}

/** New screens start at the top, unless the address names a section to go to. */
export function ScrollToTopOnNavigate() {
  const [location] = useLocation();
  useEffect(() => {
    if (!window.location.hash) window.scrollTo(0, 0);
  }, [location]);
  return null;
}

export function routeElements(routes: readonly RouteDef[], signedIn: boolean) {
  return routes.flatMap((route) =>
    route.paths.map((path) => (
      <Route key={path} path={path}>
        <ScreenView screen={route.screen} signedIn={signedIn} />
      </Route>
    )),
  );
}

/** The route of the table that the current path opens, if any. */
export function useMatchedRoute(routes: readonly RouteDef[]): RouteDef | undefined {
  const [location] = useLocation();
  return routeAt(routes, location, useRouter().parser);
}

/** The console's frame stays mounted while its screens change inside it; `bar` is its top bar. */
export function Framed({ bar, children }: { bar: ReactNode; children: ReactNode }) {
  const [location] = useLocation();
  return (
    <AppShell bar={bar}>
      <ScreenErrorBoundary resetKey={location}>
        <Suspense fallback={<PageSpinner />}>{children}</Suspense>
      </ScreenErrorBoundary>
    </AppShell>
  );
}

export function Bare({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  return (
    <ScreenErrorBoundary resetKey={location}>
      <Suspense fallback={<PageSpinner fullPage />}>{children}</Suspense>
    </ScreenErrorBoundary>
  );
}
