import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { SESSION_COOKIE } from '../features/auth/session.service.js';
import type { Logger } from '../lib/logger.js';
import { readCookie } from './cookies.js';
import type { HostCheck } from './host-check.js';
import { API_HEADERS } from './security-headers.js';

/**
 * The signed-in JSON reads every open console tab polls, answered from memory before Hono.
 *
 * Why: a status poll spends about 130 µs of CPU in the agent, half of it in Hono's and
 * @hono/node-server's request/response layer, which held `/api/nexus/status` at a quarter to a
 * half of a bare node:http server's rate (scripts/bench/status.ts). Here only the happy path is
 * served: the same session check as the API's middleware (SessionService.validate, with its memo
 * and database-version check), the same API security headers, the same JSON and the same request
 * log line. Anything else — no or a stale session, a query string, another method, a read that
 * throws — goes on to Hono untouched, so 401s, errors and their shapes have one code path.
 */
/** A hot read answers JSON text (serialised once, see jsonCachedBy), or a promise of it. */
export type HotRead = () => string | Promise<string>;

/**
 * Serialises `read`'s answer once per value of `key`: a status built from the latest metrics
 * sample and the current second is the same for every poll within that second, so the tabs of a
 * house polling it share one JSON text instead of building it per request.
 */
export function jsonCachedBy(key: () => string, read: () => unknown): HotRead {
  let cached: { key: string; json: string } | null = null;
  return () => {
    const current = key();
    if (cached?.key === current) return cached.json;
    return Promise.resolve(read()).then((value) => {
      const json = JSON.stringify(value);
      cached = { key: current, json };
      return json;
    });
  };
}

export function createHotReads(opts: {
  routes: Record<string, HotRead>;
  validate: (token: string) => unknown;
  /** The API's Host check (DNS rebinding); a refused Host goes on to Hono, which answers 421. */
  hostAllowed: HostCheck;
  log: Logger;
}) {
  const routes = new Map(Object.entries(opts.routes));

  // Written with one writeHead of a prepared list: setting seven headers one by one cost as much
  // as the rest of the hot read together.
  const staticHeaders = [...API_HEADERS.flat(), 'Content-Type', 'application/json'];

  function answer(res: ServerResponse, body: string, path: string, started: number) {
    res.writeHead(200, [...staticHeaders, 'Content-Length', String(Buffer.byteLength(body))]);
    res.end(body);
    // Successful reads are debug-level, as in the API's own request log.
    if (started >= 0) {
      opts.log.debug(
        { method: 'GET', path, status: 200, ms: Math.round(performance.now() - started), hot: true },
        'request',
      );
    }
  }

  /** Serves req if it is a hot read by a signed-in user; otherwise hands it to `next` as it came. */
  function handle(req: IncomingMessage, res: ServerResponse, next: RequestListener): void {
    const read = req.method === 'GET' ? routes.get(req.url ?? '') : undefined;
    const token = read ? readCookie(req.headers.cookie, SESSION_COOKIE) : undefined;
    if (!read || !token || !opts.hostAllowed(req.headers.host) || !opts.validate(token)) {
      next(req, res);
      return;
    }
    const started = opts.log.isLevelEnabled('debug') ? performance.now() : -1;
    let json: string | Promise<string>;
    try {
      json = read();
    } catch {
      next(req, res);
      return;
    }
    if (typeof json === 'string') answer(res, json, req.url!, started);
    else
      json.then(
        (text) => answer(res, text, req.url!, started),
        () => next(req, res),
      );
  }

  return {
    handle,
    /** For @hono/node-server's `createServer` option: an http server whose listener tries the hot reads first. */
    createServer: ((options: object, listener: RequestListener) =>
      createServer(options, (req, res) => handle(req, res, listener))) as unknown as typeof createServer,
    /** The same for the HTTPS port (issue 21): `options` are node:https's (key, cert, minVersion…). */
    createSecureServer: ((options: object, listener: RequestListener) =>
      createHttpsServer(options, (req, res) =>
        handle(req, res, listener),
      )) as unknown as typeof createHttpsServer,
  };
}
