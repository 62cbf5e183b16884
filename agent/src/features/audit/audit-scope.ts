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

/** The request's origin, read lazily; `served` turns false when the request has been answered. */
interface Scope {
  origin: () => RequestOrigin;
  served: boolean;
}

const scope = new AsyncLocalStorage<Scope>();

/** Changes being served right now: the hooks are on only while there is one. */
let inFlight = 0;

/** The origin of the request `c`, read now: what the scope hands to record(), for a read to pass itself. */
export function requestOrigin<E extends AppEnv>(c: Context<E>, trustProxy: boolean): RequestOrigin {
  const user = c.get('user');
  return {
    actor: user ? { id: user.id, email: user.email } : null,
    ipAddress: clientAddress(c, trustProxy),
    userAgent: c.req.header('user-agent')?.slice(0, 512) ?? null,
  };
}

/**
 * Methods that only read. They are most of the API's traffic (every open tab polls) and record no
 * security event, except the backup download, which passes requestOrigin(c) to record() itself.
 */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Binds every API request that changes something (every method but GET, HEAD and OPTIONS) to its
 * origin (signed-in user, client address by the one rule of request-info.ts, User-Agent), so a
 * feature records a security event with only its type and particulars and the log still says who,
 * from where: no feature has to thread the request through its service for the audit's sake. Read
 * lazily, at the moment an event is recorded.
 *
 * The origin is the request's while it is being served, i.e. until its handler has answered.
 * Work that goes on after the answer (a stream's body, a job started with inBackground) gets no
 * origin: it reads currentRequestOrigin() while the request is served and passes the actor, the
 * address and the User-Agent to record() itself.
 *
 * Why reads stay outside, and why the count: on Node 20, AsyncLocalStorage works through async
 * hooks, and while they are on every async resource of the process (every promise, every socket
 * write) calls a hook. Reads are most of the traffic and take no origin from the scope, so they never switch the
 * hooks on: through Hono the bench's agent needed 33.5–37.3 µs a request after this, 37.8–43.3
 * before (scripts/bench/status.ts, docs/status-and-metrics.md "Sixth round"). A change switches
 * them on only while it is in flight: `disable()` (which removes Node's hooks when no other
 * storage uses them) when the last one has been answered; the next one's `run()` switches
 * them on again. Resources created while the scope is off carry no origin, which is why the origin
 * ends with the answer, for every request alike, instead of depending on whether another request
 * happened to be in flight. (Node ≥ 22.7 with --experimental-async-context-frame, the default from
 * Node 24, needs no hooks at all; the count is then merely unnecessary.)
 */
export function auditRequestScope(trustProxy: boolean) {
  return createMiddleware<AppEnv>(async (c: Context<AppEnv>, next) => {
    if (READS.has(c.req.method)) return next();
    const current: Scope = { origin: () => requestOrigin(c, trustProxy), served: false };
    inFlight++;
    try {
      await scope.run(current, next);
    } finally {
      current.served = true;
      if (--inFlight === 0) scope.disable();
    }
  });
}

/** The origin of the change being served, or null outside one (a read, timers, the command line, after the answer). */
export function currentRequestOrigin(): RequestOrigin | null {
  const current = scope.getStore();
  return current && !current.served ? current.origin() : null;
}
