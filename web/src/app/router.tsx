import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { Switch } from 'wouter';
import { authUserQueryOptions } from '@/data/auth-session';
import { useAuth } from '@/features/auth/auth-provider';
import { SetupGate } from '@/features/setup/components/setup-gate';
import { TopBar } from './layout/top-bar';
import {
  Bare,
  Framed,
  PageSpinner,
  ScreenView,
  ScrollToTopOnNavigate,
  routeElements,
  useMatchedRoute,
} from './route-views';
import { signedInRoutes, signedOutRoutes, screens } from './routes';
import { preloadedOrLazy } from './screen';

export { documentTitle, PageSpinner } from './route-views';

// The console's frame and routes load once someone is signed in (issue 26: the signed-out first page
// stays small). Until then the full-page spinner of the session check stays on screen.
const loadSignedInRoutes = () => import('./signed-in-routes');
let signedInRoutesModule: ReturnType<typeof loadSignedInRoutes> | undefined;
let loadedSignedInRoutes: ComponentType | undefined;
/** One load of the frame's code, started early or by the first render; a failed load may be tried again. */
const preloadSignedInRoutes = () =>
  (signedInRoutesModule ??= loadSignedInRoutes().then(
    (module) => {
      loadedSignedInRoutes = module.SignedInRoutes;
      return module;
    },
    (error: unknown) => {
      signedInRoutesModule = undefined;
      throw error;
    },
  ));
const LazySignedInRoutes = preloadedOrLazy(
  lazy(async () => ({ default: (await preloadSignedInRoutes()).SignedInRoutes })),
  () => loadedSignedInRoutes,
);

/**
 * Called by the entry before React's first render (issue 26): the console's frame, the screen's
 * code and, once the session check (preloaded by index.html) says someone is signed in, the
 * screen's first reads for the address opened are all asked for at once, rather than during
 * React's first render and after the frame's and the screen's code have run. The screen then
 * renders with its data already in the cache. A path only the console has gets its code at once,
 * as the router's render would (a signed-out owner's bookmark needs it after signing in); one a
 * visitor has too (/) waits for the answer. Only a route's literal paths are matched here; a path
 * with parameters is left to the router's render, as is everything when the check fails.
 * Resolves once the reads are asked for, or there are none to ask for; never rejects.
 */
export async function startFirstScreen(client: QueryClient, path: string): Promise<void> {
  const route = signedInRoutes.find((r) => r.paths.includes(path));
  if (!route) return;
  const preload = () => {
    // A failed load is reported when the frame renders (its error boundary), not here.
    preloadSignedInRoutes().catch(() => undefined);
    route.screen.preload?.();
  };
  const consoleOnly = !signedOutRoutes.some((r) => r.paths.includes(path));
  if (consoleOnly) preload();
  const user = await client.fetchQuery(authUserQueryOptions()).catch(() => null);
  if (!user) return;
  if (!consoleOnly) preload();
  await route.screen.prefetch?.(client);
}

function SignedInRoutes() {
  const client = useQueryClient();
  const screen = useMatchedRoute(signedInRoutes)?.screen;
  // The screen's own code loads beside the frame's rather than after it (idempotent).
  screen?.preload?.();
  // Its first data is asked for now too, not once the frame and the screen have rendered.
  useEffect(() => void screen?.prefetch?.(client), [screen, client]);
  return (
    <Suspense fallback={<PageSpinner fullPage />}>
      <LazySignedInRoutes />
    </Suspense>
  );
}

function SignedOutRoutes() {
  const matched = useMatchedRoute(signedOutRoutes);
  if (matched && !matched.bare) {
    return (
      <Framed bar={<TopBar />}>
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
  const visitorsRoute = useMatchedRoute(signedOutRoutes);
  const consoleRoute = useMatchedRoute(signedInRoutes);
  if (isLoading) {
    // The screen's code loads while the session check is under way rather than after it (issue 26:
    // one round trip less before the first paint): a visitor's page, or else the console's frame
    // and screen for a path only the console has (a signed-in owner's bookmark).
    if (visitorsRoute) visitorsRoute.screen.preload?.();
    else if (consoleRoute) {
      // A failed load is reported when the frame renders (its error boundary), not here.
      preloadSignedInRoutes().catch(() => undefined);
      consoleRoute.screen.preload?.();
    }
    return <PageSpinner fullPage />;
  }
  return (
    <>
      <ScrollToTopOnNavigate />
      {/* First boot: while no account exists, every visitor gets the setup wizard at /install (features/setup). */}
      <SetupGate signedIn={user !== null}>{user ? <SignedInRoutes /> : <SignedOutRoutes />}</SetupGate>
    </>
  );
}
