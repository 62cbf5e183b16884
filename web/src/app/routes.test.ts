import { describe, expect, it } from 'vitest';
import { signedInRoutes } from './console-routes';
import { firstConsoleRoutes, routeAt, screens, signedOutRoutes } from './routes';

describe('routeAt (the entry matches a path before the router renders)', () => {
  it('finds a literal path and each of its aliases', () => {
    expect(routeAt(signedInRoutes, '/dashboard')?.screen).toBe(screens.dashboard);
    expect(routeAt(signedInRoutes, '/')?.screen).toBe(screens.dashboard);
    expect(routeAt(signedInRoutes, '/gallery')?.screen.title).toBe('FlowForge Gallery');
  });

  it('matches parameters as the router does, optional ones with and without a value', () => {
    expect(routeAt(signedOutRoutes, '/crowdsource')?.screen).toBe(screens.crowdsource);
    expect(routeAt(signedOutRoutes, '/crowdsource/hey-nexus')?.screen).toBe(screens.crowdsource);
    expect(routeAt(signedInRoutes, '/satellite-controls/7')?.screen.title).toBe('Satellite Controls');
    expect(routeAt(signedInRoutes, '/satellite-controls')).toBeUndefined();
  });

  it('finds nothing for a path neither table has, or a console path among the visitors’', () => {
    expect(routeAt(signedInRoutes, '/no-such-page')).toBeUndefined();
    expect(routeAt(signedOutRoutes, '/settings')).toBeUndefined();
    expect(routeAt(signedOutRoutes, '/dashboard')).toBeUndefined();
  });
});

describe('the route tables', () => {
  it('the entry’s console routes are the signed-in table’s own entries', () => {
    for (const route of firstConsoleRoutes) expect(signedInRoutes).toContain(route);
  });

  it('no path is listed twice in a table', () => {
    for (const table of [signedOutRoutes, signedInRoutes]) {
      const paths = table.flatMap((route) => route.paths);
      expect(new Set(paths).size).toBe(paths.length);
    }
  });
});
