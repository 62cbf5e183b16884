import { z } from 'zod';
import { roleSchema } from './auth.js';

/** A JSON Schema document (draft 2020-12), as zod's z.toJSONSchema writes it. */
export const jsonSchemaSchema = z.record(z.string(), z.unknown());
export type JsonSchema = z.infer<typeof jsonSchemaSchema>;

/**
 * What an endpoint's validators accept, per request part, as JSON Schema of the input side (before
 * coercions and defaults). A part the endpoint does not validate is absent. Checks JSON Schema
 * cannot express (refinements, transforms) are left out: the server still applies them.
 */
export const apiRouteInputSchema = z.object({
  json: jsonSchemaSchema.optional(),
  form: jsonSchemaSchema.optional(),
  query: jsonSchemaSchema.optional(),
  param: jsonSchemaSchema.optional(),
  header: jsonSchemaSchema.optional(),
  cookie: jsonSchemaSchema.optional(),
});
export type ApiRouteInput = z.infer<typeof apiRouteInputSchema>;

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
  /** The JSON Schema of each request part its validators check (body, query, path parameters). */
  input: apiRouteInputSchema,
});
export type ApiRoute = z.infer<typeof apiRouteSchema>;

export const apiRouteListSchema = z.object({
  version: z.string(),
  routes: z.array(apiRouteSchema),
});
export type ApiRouteList = z.infer<typeof apiRouteListSchema>;
