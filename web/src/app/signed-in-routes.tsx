import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Route, Switch } from 'wouter';
import { useAuth } from '@/features/auth/auth-provider';
import { ConsoleTopBar } from './layout/console-top-bar';
import { Bare, Framed, NotFoundView, routeElements, useMatchedRoute } from './route-views';
import { firstConsoleRoutes } from './routes';
import { signedInRoutes } from './console-routes';

export { signedInRoutes };

/**
 * Spec §2, the signed-in routes inside the console's frame; any other path is not found. Loaded
 * when someone is signed in (router.tsx), with the console's screens, top bar, menus and live
 * channel, so the signed-out first page does not carry them (issue 26).
 */
export function SignedInRoutes() {
  const { user } = useAuth();
  const client = useQueryClient();
  const matched = useMatchedRoute(signedInRoutes);
  // A screen's first reads are asked for beside its code, not once it has rendered. The entry's
  // own console screens have theirs asked for by the router, before this module has loaded.
  const prefetch = matched && !firstConsoleRoutes.includes(matched) ? matched.screen.prefetch : undefined;
  useEffect(() => void prefetch?.(client), [prefetch, client]);
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
    <Framed bar={user ? <ConsoleTopBar user={user} /> : null}>
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
