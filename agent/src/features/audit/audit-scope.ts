import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../../http/app-env.js';
import { clientAddress } from '../../http/request-info.js';

/** Who is asking and from where, as the request that is being served knows it. */
export interface RequestOrigin {
  actor: { id: number; email: string } | null;
  ipAddress: string;
  userAgent: string | null;
}

const scope = new AsyncLocalStorage<() => RequestOrigin>();

/**
 * Binds every API request to its origin (signed-in user, client address by the one rule of
 * request-info.ts, User-Agent), so a feature records a security event with only its type and
 * particulars and the log still says who, from where: no feature has to thread the request
 * through its service for the audit's sake. Read lazily, at the moment an event is recorded.
 */
export function auditRequestScope(trustProxy: boolean) {
  return createMiddleware<AppEnv>(async (c: Context<AppEnv>, next) => {
    const origin = (): RequestOrigin => {
      const user = c.get('user');
      return {
        actor: user ? { id: user.id, email: user.email } : null,
        ipAddress: clientAddress(c, trustProxy),
        userAgent: c.req.header('user-agent')?.slice(0, 512) ?? null,
      };
    };
    await scope.run(origin, next);
  });
}

/** The origin of the request being served, or null outside one (timers, the command line). */
export function currentRequestOrigin(): RequestOrigin | null {
  return scope.getStore()?.() ?? null;
}
