import type { RouterRoute } from 'hono/types';
import type { ApiRoute } from '../../contract/docs.js';
import type { Role } from '../../contract/auth.js';
import { credentialNames, guardAccess } from '../../http/guards.js';

/**
 * The API reference, read from the running app's own route table so it cannot drift from the
 * code: every method and path under /api, and the guard each one sits behind.
 */
export function describeApiRoutes(table: readonly RouterRoute[]): ApiRoute[] {
  const endpoints = new Map<string, { method: string; path: string; index: number }>();
  table.forEach((route, index) => {
    if (route.method === 'ALL' || !route.path.startsWith('/api/')) return;
    const key = `${route.method} ${route.path}`;
    // Remember the last handler of the chain: guards registered after it never run for it.
    endpoints.set(key, { method: route.method, path: route.path, index });
  });

  const routes = [...endpoints.values()].map(({ method, path, index }): ApiRoute => {
    let signInRequired = false;
    let roles: Role[] | null = null;
    let credential: string | null = null;
    for (let i = 0; i <= index; i++) {
      const candidate = table[i]!;
      const access = guardAccess.get(candidate.handler);
      const credentialName = credentialNames.get(candidate.handler);
      if (!access && !credentialName) continue;
      if (candidate.method !== 'ALL' && candidate.method !== method) continue;
      if (!pathCovers(candidate.path, path)) continue;
      if (credentialName) credential = credentialName;
      if (!access) continue;
      signInRequired = true;
      if (access !== 'any') roles = roles ? roles.filter((r) => access.includes(r)) : [...access];
    }
    return { method, path, group: groupOf(path), signInRequired, roles, credential };
  });

  return routes.sort(
    (a, b) =>
      a.group.localeCompare(b.group) || a.path.localeCompare(b.path) || a.method.localeCompare(b.method),
  );
}

/** Whether a middleware's path (possibly ending in a wildcard) applies to an endpoint's path. */
export function pathCovers(pattern: string, path: string): boolean {
  if (pattern === '*' || pattern === '/*') return true;
  if (pattern === path) return true;
  if (pattern.endsWith('/*')) {
    const prefix = pattern.slice(0, -2);
    return path === prefix || path.startsWith(`${prefix}/`);
  }
  return false;
}

function groupOf(path: string): string {
  return path.split('/')[2] ?? '';
}
