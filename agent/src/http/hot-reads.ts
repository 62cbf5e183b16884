import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { SESSION_COOKIE } from '../features/auth/session.service.js';
import type { Logger } from '../lib/logger.js';
import { readCookie } from './cookies.js';
import type { HostCheck } from './host-check.js';
import { API_HEADERS } from './security-headers.js';
import { COMPRESS_MIN_BYTES } from './compression.js';

/**
 * Hot reads: the one shortcut past Hono, for cheap signed-in JSON reads that open tabs poll.
 *
 * Why it exists: measured with scripts/bench/status.ts, Hono with @hono/node-server spends two and a
 * half times the CPU of a bare node:http answer on a status poll (about 31 µs against 12 µs here),
 * which holds it at a third of the bare server's rate; answered here, the same poll costs about
 * 1.15× the bare answer's CPU (docs/status-and-metrics.md, "Sixth round"). The audit scope's async
 * hooks are on only while a change is being served (features/audit/audit-scope.ts), never for a
 * read. So the cost is in the framework's request/response layer itself, not in anything the agent
 * does per request, and no middleware setting brings Hono near the bare server.
 *
 * How a feature adds one (the metrics feature's `/api/nexus/status` is the example):
 * 1. The read is an ordinary Hono route first: `GET <path>` behind `requireUser`, in the feature's
 *    routes. That route answers everything the hot read does not: 401s, a query string, errors.
 * 2. The feature returns `hotReads: { '<full path>': read }`, where `read` answers the route's JSON
 *    text from memory — usually `jsonCachedBy(key, read)`, serialised once per value of `key`.
 * 3. createApp (app.ts) passes them to createHotReads, which refuses at start-up a path that is not
 *    one of the app's GET routes; main.ts gives `app.hotReads.createServer` to the HTTP and HTTPS
 *    servers, so every request meets the hot reads first.
 *
 * What a hot read shares with the API (tests/integration/hot-reads.test.ts holds it to the route's
 * answers): the session check (SessionService.validate, with its memo), the Host check (DNS
 * rebinding), the API's security headers, the JSON, and the request log line (debug level, with a
 * request id, marked `hot`). Only the signed-in happy path is served: anything else — no or a stale
 * session, a query string, another method, a read that throws, an answer of COMPRESS_MIN_BYTES or
 * more (which Hono compresses) — goes on to Hono untouched, so refusals, errors and compression have
 * one code path.
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
  /** Whether the app has this GET route: a hot read only ever shortcuts an existing route. */
  isGetRoute: (path: string) => boolean;
  /** The API's request ids, so a hot read's log line is like every other request's. */
  nextRequestId: () => string;
  log: Logger;
}) {
  const routes = new Map(Object.entries(opts.routes));
  for (const path of routes.keys()) {
    if (!opts.isGetRoute(path)) throw new Error(`hot read ${path}: the app has no GET route for it`);
  }

  // Written with one writeHead of a prepared list: setting seven headers one by one cost as much
  // as the rest of the hot read together. The list is built once per JSON text: a read's text
  // changes about once a second, the polls in between reuse it.
  const staticHeaders = [...API_HEADERS.flat(), 'Content-Type', 'application/json'];
  const prepared = new Map<string, { body: string; bytes: number; headers: string[] }>();
  function prepare(path: string, body: string) {
    const last = prepared.get(path);
    if (last?.body === body) return last;
    const bytes = Buffer.byteLength(body);
    const entry = { body, bytes, headers: [...staticHeaders, 'Content-Length', String(bytes)] };
    prepared.set(path, entry);
    return entry;
  }

  /** Answers 200 with `body`; false (nothing written) when the answer is Hono's to give. */
  function answer(res: ServerResponse, body: string, path: string, started: number): boolean {
    const { bytes, headers } = prepare(path, body);
    // Large answers are compressed by Hono's middleware (http/compression.ts): one place decides.
    if (bytes >= COMPRESS_MIN_BYTES) return false;
    res.writeHead(200, headers);
    res.end(body);
    // Successful reads are debug-level, as in the API's own request log.
    if (started >= 0) {
      opts.log.debug(
        {
          requestId: opts.nextRequestId(),
          method: 'GET',
          path,
          status: 200,
          ms: Math.round(performance.now() - started),
          hot: true,
        },
        'request',
      );
    }
    return true;
  }

  /** Serves req if it is a hot read by a signed-in user; otherwise hands it to `next` as it came. */
  function handle(req: IncomingMessage, res: ServerResponse, next: RequestListener): void {
    const read = req.method === 'GET' ? routes.get(req.url ?? '') : undefined;
    if (!read) {
      next(req, res);
      return;
    }
    const { cookie, host } = cookieAndHost(req.rawHeaders);
    const token = readCookie(cookie, SESSION_COOKIE);
    if (!token || !opts.hostAllowed(host) || !opts.validate(token)) {
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
    if (typeof json === 'string') {
      if (!answer(res, json, req.url!, started)) next(req, res);
    } else
      json.then(
        (text) => {
          if (!answer(res, text, req.url!, started)) next(req, res);
        },
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

/**
 * The Cookie and Host headers from the raw list, as node:http would merge them (cookies joined
 * with "; ", the first Host). `req.headers` builds an object of every header on first use, the
 * largest part of reading two of them; Hono builds it anyway for the requests handed on.
 */
function cookieAndHost(raw: string[]): { cookie: string | undefined; host: string | undefined } {
  let cookie: string | undefined;
  let host: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 6 && name.toLowerCase() === 'cookie') {
      cookie = cookie === undefined ? raw[i + 1] : `${cookie}; ${raw[i + 1]}`;
    } else if (name.length === 4 && host === undefined && name.toLowerCase() === 'host') {
      host = raw[i + 1];
    }
  }
  return { cookie, host };
}
