import type { RouterRoute } from 'hono/types';
import { z, type ZodType } from 'zod';
import type { ApiRoute, ApiRouteInput, JsonSchema } from '../../contract/docs.js';
import type { Role } from '../../contract/auth.js';
import { credentialNames, guardAccess } from '../../http/guards.js';
import { validatorSchemas } from '../../http/validate.js';

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
    const input: ApiRouteInput = {};
    for (let i = 0; i <= index; i++) {
      const candidate = table[i]!;
      const validator = validatorSchemas.get(candidate.handler);
      if (
        validator &&
        (candidate.method === 'ALL' || candidate.method === method) &&
        pathCovers(candidate.path, path)
      ) {
        input[validator.target as keyof ApiRouteInput] = toJsonSchema(validator.schema);
      }
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
    return { method, path, group: groupOf(path), signInRequired, roles, credential, input };
  });

  return routes.sort(
    (a, b) =>
      a.group.localeCompare(b.group) || a.path.localeCompare(b.path) || a.method.localeCompare(b.method),
  );
}

/**
 * The input side of a zod schema as JSON Schema: what a caller sends, before coercions, transforms
 * and defaults. What JSON Schema cannot say (a refinement, a transform's output, a custom check)
 * becomes `{}` (anything) rather than failing the whole reference; the server still enforces it.
 */
export function toJsonSchema(schema: ZodType): JsonSchema {
  try {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
      io: 'input',
      unrepresentable: 'any',
      cycles: 'ref',
      reused: 'inline',
    }) as JsonSchema;
    return rest;
  } catch {
    return {};
  }
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
