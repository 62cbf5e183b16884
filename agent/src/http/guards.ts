import { createMiddleware } from 'hono/factory';
import type { Role } from '../contract/auth.js';
import { HttpError, forbidden, unauthorized } from '../lib/http-error.js';
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

/** Sensitive changes need the password or a passkey proven within this long in the same session. */
export const REAUTH_WINDOW_MS = 5 * 60 * 1000;
/** The message a 401 for a stale authentication carries; the console asks for the password on seeing its code. */
export const REAUTH_REQUIRED_CODE = 'reauth_required';

/**
 * 401 `{code: 'reauth_required'}` unless the session proved the password or a passkey in the last
 * five minutes (`POST /api/auth/reauth`). Put it after requireUser/requireRole.
 */
export function requireRecentAuth(now: () => number = Date.now) {
  return createMiddleware<SignedInEnv>(async (c, next) => {
    const user = c.get('user');
    if (!user) throw unauthorized();
    const at = user.session.reauthAt?.getTime() ?? 0;
    if (now() - at > REAUTH_WINDOW_MS) {
      throw new HttpError(401, 'Confirm it is you: enter your password or use a passkey, then try again', {
        code: REAUTH_REQUIRED_CODE,
      });
    }
    await next();
  });
}

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
