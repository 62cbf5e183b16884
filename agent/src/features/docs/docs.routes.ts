import { Hono } from 'hono';
import type { RouterRoute } from 'hono/types';
import type { ApiRouteList } from '../../contract/docs.js';
import type { AppEnv } from '../../http/app-env.js';
import { describeApiRoutes } from './docs.service.js';

/**
 * `/api/docs`: public, like the /docs page it feeds. The table is read on each request (and
 * kept): the app is still being assembled when these routes are created.
 */
export function docsRoutes(version: string, routeTable: () => readonly RouterRoute[]) {
  let cached: ApiRouteList | undefined;
  return new Hono<AppEnv>().get('/routes', (c) => {
    cached ??= { version, routes: describeApiRoutes(routeTable()) };
    return c.json(cached satisfies ApiRouteList, 200);
  });
}
