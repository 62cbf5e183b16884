import { Route, Switch } from 'wouter';
import { useAuth } from '@/features/auth/auth-provider';
import { ConsoleTopBar } from './layout/console-top-bar';
import { Bare, Framed, NotFoundView, routeElements, useMatchedRoute } from './route-views';
import { signedInRoutes } from './routes';

/**
 * Spec §2, the signed-in routes inside the console's frame; any other path is not found. Loaded
 * when someone is signed in (router.tsx), with the console's top bar, its menus and live channel,
 * so the signed-out first page does not carry them (issue 26).
 */
export function SignedInRoutes() {
  const { user } = useAuth();
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
