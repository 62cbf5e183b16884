import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { ZodType } from 'zod';
import { HttpError } from '../lib/http-error.js';

/**
 * The request part and schema each validator checks, so the API reference (/api/docs/routes) can
 * publish every endpoint's input as JSON Schema, read from the validators themselves (like guardAccess).
 */
export const validatorSchemas = new WeakMap<object, { target: keyof ValidationTargets; schema: ZodType }>();

/**
 * zod validation for a request part, answering the brief's 400 shape with zod's issues in
 * `details`. Use it for every body, query and param: bad input must never reach a service.
 */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
) {
  const middleware = zValidator(target, schema, (result) => {
    if (!result.success) {
      const first = result.error.issues[0];
      const where = first?.path.length ? `${first.path.join('.')}: ` : '';
      throw new HttpError(
        400,
        `Invalid ${target}: ${where}${first?.message ?? 'invalid value'}`,
        result.error.issues,
      );
    }
  });
  validatorSchemas.set(middleware, { target, schema });
  return middleware;
}
