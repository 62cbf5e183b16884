import { upgradeWebSocket } from '@hono/node-server';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../http/app-env.js';
import { requireUser } from '../http/guards.js';
import { HttpError, forbidden } from '../lib/http-error.js';
import type { LiveConnection, LiveHub, LiveSocket } from './hub.js';

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * A WebSocket carries the session cookie from any page the browser has open, including another
 * site on the same host name (cookies ignore ports): the Origin must be this host.
 */
const sameOrigin = createMiddleware<AppEnv>(async (c, next) => {
  const origin = c.req.header('origin');
  if (origin) {
    if (originHost(origin) !== c.req.header('host')) throw forbidden('Cross-origin WebSocket refused');
  }
  await next();
});

/** `GET /api/live`: the browser's WebSocket, signed in by the session cookie. */
export function liveRoutes(deps: { live: LiveHub; stillSignedIn: (sessionToken: string) => boolean }) {
  return new Hono<AppEnv>().get(
    '/',
    requireUser,
    sameOrigin,
    upgradeWebSocket((c) => {
      const user = c.get('user');
      const token = c.get('sessionToken') ?? '';
      let connection: LiveConnection | null = null;
      return {
        onOpen(_event, ws) {
          // main.ts builds the server with the `ws` library, whose sockets have ping and bufferedAmount.
          connection = deps.live.connect(ws.raw as unknown as LiveSocket, user, () =>
            deps.stillSignedIn(token),
          );
        },
        onMessage(event) {
          if (typeof event.data === 'string') connection?.receive(event.data);
        },
        onClose() {
          connection?.close();
        },
      };
    }),
    () => {
      throw new HttpError(400, 'Expected a WebSocket upgrade');
    },
  );
}
