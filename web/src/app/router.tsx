import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
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
import { firstConsoleRoutes, routeAt, signedOutRoutes, screens } from './routes';
import { preloadedOrLazy, sharedLoad } from '@/lib/lazy-code';

export { documentTitle, PageSpinner } from './route-views';

// The console's frame and routes load once someone is signed in (issue 26: the signed-out first page
// stays small). Until then the full-page spinner of the session check stays on screen.
const consoleFrame = sharedLoad(() => import('./signed-in-routes'));
const LazySignedInRoutes = preloadedOrLazy(
  lazy(async () => ({ default: (await consoleFrame.load()).SignedInRoutes })),
  () => consoleFrame.loaded()?.SignedInRoutes,
);

/**
 * Called by the entry before React's first render (issue 26): the console's frame, the screen's
 * code and, once the session check (preloaded by index.html) says someone is signed in, the
 * screen's first reads for the address opened are all asked for at once, rather than during
 * React's first render and after the frame's and the screen's code have run. The screen then
 * renders with its data already in the cache: its first render paints the values, instead of
 * painting placeholders and rendering again (a whole render of the page on a slow phone) when the
 * answers arrive. A path that is not a visitor's page gets the frame
 * at once, as the router's render would (a signed-out owner's bookmark needs it after signing in,
 * and an unknown path is "Page not found" inside it); one a visitor has too (/) waits for the
 * answer. The dashboard's code starts with the frame's; another screen's waits for the console's
 * table, which comes with the frame. When the check fails, everything is left to the router's render.
 * Resolves once the reads are answered or have failed, or there are none to ask for; never rejects.
 */
export async function startFirstScreen(client: QueryClient, path: string): Promise<void> {
  const firstRoute = routeAt(firstConsoleRoutes, path);
  const startFrame = () => {
    // A failed load is reported when the frame renders (its error boundary), not here.
    const frame = consoleFrame.load().catch(() => undefined);
    firstRoute?.screen.preload?.();
    return frame;
  };
  let frame = routeAt(signedOutRoutes, path) ? undefined : startFrame();
  const user = await client.fetchQuery(authUserQueryOptions()).catch(() => null);
  if (!user) return;
  frame ??= startFrame();
  const route = firstRoute ?? routeAt((await frame)?.signedInRoutes ?? [], path);
  route?.screen.preload?.();
  await route?.screen.prefetch?.(client);
}

function SignedInRoutes() {
  const client = useQueryClient();
  // The dashboard's code loads beside the frame's rather than after it (idempotent), and its first
  // data is asked for now too, not once the frame and the screen have rendered. The frame does
  // the same for its other screens once it has loaded (signed-in-routes.tsx).
  const screen = useMatchedRoute(firstConsoleRoutes)?.screen;
  screen?.preload?.();
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
  const consoleRoute = useMatchedRoute(firstConsoleRoutes);
  if (isLoading) {
    // The screen's code loads while the session check is under way rather than after it (issue 26:
    // one round trip less before the first paint): a visitor's page, or else the console's frame
    // (a signed-in owner's bookmark, or "Page not found" inside the frame), with the dashboard's
    // code when that is the screen.
    if (visitorsRoute) visitorsRoute.screen.preload?.();
    else {
      // A failed load is reported when the frame renders (its error boundary), not here.
      consoleFrame.load().catch(() => undefined);
      consoleRoute?.screen.preload?.();
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
