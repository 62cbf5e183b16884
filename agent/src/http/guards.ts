import { createMiddleware } from 'hono/factory';
import type { Role } from '../contract/auth.js';
import { forbidden, unauthorized } from '../lib/http-error.js';
import type { SessionUser } from '../features/auth/session.service.js';
import type { AppEnv } from './app-env.js';

/** The environment of a route behind requireUser/requireRole: `c.get('user')` is never null there. */
export interface SignedInEnv {
  Variables: AppEnv['Variables'] & { user: SessionUser };
}

/**
 * Which callers each guard admits ('any' signed-in user, or a list of roles), so the API
 * reference (/api/docs/routes) can say what every endpoint needs, read from the guards themselves.
 */
export const guardAccess = new WeakMap<object, 'any' | readonly Role[]>();

/** 401 unless signed in. Every non-public route uses this or requireRole, whatever the client shows. */
export const requireUser = createMiddleware<SignedInEnv>(async (c, next) => {
  if (!c.get('user')) throw unauthorized();
  await next();
});
guardAccess.set(requireUser, 'any');

/** 401 unless signed in, 403 unless the user has one of the roles. */
export function requireRole(...roles: Role[]) {
  const guard = createMiddleware<SignedInEnv>(async (c, next) => {
    const user = c.get('user');
    if (!user) throw unauthorized();
    if (!roles.includes(user.role)) throw forbidden();
    await next();
  });
  guardAccess.set(guard, roles);
  return guard;
}

export const requireAdmin = requireRole('admin', 'superadmin');

/**
 * The credential other than a session that a middleware checks (a device token, an API key, a
 * webhook secret), so the API reference does not call a token-protected endpoint public.
 */
export const credentialNames = new WeakMap<object, string>();

/** Marks `middleware` as the check of a credential named for people, e.g. 'Satellite token'. */
export function checksCredential<M extends object>(middleware: M, name: string): M {
  credentialNames.set(middleware, name);
  return middleware;
}

/**
 * Resolves a satellite's id and device token (the bearer) to the satellite, throwing 401 when they
 * do not match; app.ts gives it to the features that take satellites' requests (wake-word samples,
 * voice flows), which do not import the satellites feature.
 */
export type SatelliteAuthenticator = (id: number, token: string | undefined) => { id: number; name: string };
