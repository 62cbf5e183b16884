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

/**
 * The app-wide limit. Audio bodies skip it because the routes that take them apply `audioBodyLimit`
 * themselves; a route that does not take audio refuses the content type before reading the body
 * (its JSON validator answers 400), so skipping here never lets an unbounded body be read.
 */
export const appBodyLimit: MiddlewareHandler = (c, next) => {
  const method = c.req.method;
  // GET and HEAD carry no body; asking for one makes @hono/node-server build a full fetch Request,
  // which was a sixth of a status poll's CPU time.
  if (method === 'GET' || method === 'HEAD') return next();
  if (isAudio(c.req.header('content-type'))) return next();
  return defaultLimit(c, next);
};

/** For routes whose body is `audio/*`: 413 past 10 MB, whatever Content-Length claims. */
export const audioBodyLimit: MiddlewareHandler = limit(AUDIO_BODY_LIMIT, 'Audio');

export function isAudio(contentType: string | undefined): boolean {
  return (contentType ?? '').trimStart().toLowerCase().startsWith('audio/');
}
