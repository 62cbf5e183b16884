import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HttpError } from '../lib/http-error.js';

/** JSON and form bodies: nothing the console sends comes near it. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** Audio uploads (wake-word samples, voice clips): a minute of 16 kHz 16-bit stereo WAV fits with room. */
export const AUDIO_BODY_LIMIT = 10 * 1024 * 1024;

function limit(maxSize: number, what: string): MiddlewareHandler {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new HttpError(413, `${what} is larger than ${formatSize(maxSize)}`);
    },
  });
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}

const defaultLimit = limit(DEFAULT_BODY_LIMIT, 'Request body');

/** The routes that take a whole-hub backup as a multipart upload (features/backups/backups.routes.ts). */
const BACKUP_UPLOAD_PATHS = new Set(['/api/backups/restore', '/api/setup/restore']);
/** The LAN throughput test's upload: bounded by the route to the size the test asked for (at most 200 MB). */
const THROUGHPUT_UPLOAD_PATH = '/api/network/tools/throughput';

/**
 * JSON deeper than any request the hub takes: 100,000 nested arrays fit in 1 MB, parse fine, and then
 * overflow the stack of whatever walks them (JSON.stringify of a flow's input answered 500). Webhook
 * payloads and flow definitions nest a dozen levels at most.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The app-wide limit, applied before any route reads a body: 1 MB, or 10 MB for `audio/*` bodies,
 * whichever route takes them (a route may be stricter); JSON nested deeper than MAX_JSON_DEPTH is
 * refused with 400 before a route parses it.
 */
export const appBodyLimit: MiddlewareHandler = (c, next) => {
  const method = c.req.method;
  // GET and HEAD carry no body; asking for one makes @hono/node-server build a full fetch Request,
  // which was a sixth of a status poll's CPU time.
  if (method === 'GET' || method === 'HEAD') return next();
  // Backup uploads stream to disk under the restore routes' own limit (MAX_BACKUP_UPLOAD_BYTES).
  if (method === 'POST' && BACKUP_UPLOAD_PATHS.has(c.req.path)) return next();
  if (method === 'POST' && c.req.path === THROUGHPUT_UPLOAD_PATH) return next();
  const type = c.req.header('content-type');
  if (isAudio(type)) return audioBodyLimit(c, next);
  if (!isJson(type)) return defaultLimit(c, next);
  return defaultLimit(c, async () => {
    // Hono keeps the text: the route's c.req.json() or c.req.text() reads it from there.
    if (jsonDeeperThan(await c.req.text(), MAX_JSON_DEPTH)) {
      throw new HttpError(400, `Invalid json: nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    await next();
  });
};

function isJson(contentType: string | undefined): boolean {
  return (contentType ?? '').toLowerCase().includes('json');
}

/** One pass over the text, counting brackets outside strings; malformed JSON is left to the parser. */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c /* \ */) i += 1;
      else if (ch === 0x22 /* " */) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b /* [ */ || ch === 0x7b /* { */) {
      depth += 1;
      if (depth > max) return true;
    } else if (ch === 0x5d /* ] */ || ch === 0x7d /* } */) depth -= 1;
  }
  return false;
}

/** For routes whose body is `audio/*`: 413 past 10 MB, whatever Content-Length claims (the app-wide limit does the same). */
export const audioBodyLimit: MiddlewareHandler = limit(AUDIO_BODY_LIMIT, 'Audio');

export function isAudio(contentType: string | undefined): boolean {
  return (contentType ?? '').trimStart().toLowerCase().startsWith('audio/');
}
