import type { ApiRoute } from '../../agent/src/contract/docs.js';
import { Client } from './http.js';

export type { ApiRoute };

/** The agent's own API reference: every route, its guards and its input schemas. */
export async function fetchRoutes(baseUrl: string): Promise<ApiRoute[]> {
  const res = await new Client(baseUrl).get('/api/docs/routes');
  if (res.status !== 200) throw new Error(`GET /api/docs/routes answered ${res.status}: ${res.text}`);
  return res.json.routes as ApiRoute[];
}

/**
 * A sample for every path parameter: an id no row has (the hub never reaches 999999 rows in a test),
 * so a call that gets past the guards finds nothing to change, delete or restart.
 */
export const SAMPLE_PARAM = '999999';

/** `path` with each `:name` replaced by `value(name)` (URL-encoded by the caller when needed). */
export function fillPath(path: string, value: (name: string) => string = () => SAMPLE_PARAM): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => value(name));
}

export const routeKey = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/** Statuses a route may answer when an outside system it needs is absent in the test (and 507: disk full). */
export const UPSTREAM_STATUSES: ReadonlySet<number> = new Set([502, 503, 504, 507]);

/** Whether `json` is the brief's error shape: `{message: string, details?: unknown}` and nothing else. */
export function isErrorShape(json: unknown): boolean {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const record = json as Record<string, unknown>;
  return (
    typeof record.message === 'string' && Object.keys(record).every((k) => k === 'message' || k === 'details')
  );
}
