import { z } from 'zod';
import { roleSchema } from './auth.js';

/** One endpoint of the agent's API, read from the running app's route table (GET /api/docs/routes). */
export const apiRouteSchema = z.object({
  method: z.string(),
  path: z.string(),
  /** The first path segment after /api: the feature the endpoint belongs to. */
  group: z.string(),
  /** Whether the endpoint's own guard refuses signed-out callers with 401. */
  signInRequired: z.boolean(),
  /** The roles its guard admits; null when any signed-in user (or anyone, if public) may call it. */
  roles: z.array(roleSchema).nullable(),
  /** A credential other than a session that opens it (e.g. 'Satellite token'); null when none does. */
  credential: z.string().nullable(),
});
export type ApiRoute = z.infer<typeof apiRouteSchema>;

export const apiRouteListSchema = z.object({
  version: z.string(),
  routes: z.array(apiRouteSchema),
});
export type ApiRouteList = z.infer<typeof apiRouteListSchema>;
