import { randomUUID } from 'node:crypto';
import type { ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ZodError } from 'zod';
import { HttpError } from '../lib/http-error.js';
import { storageError } from '../lib/storage-errors.js';
import type { AppEnv } from './app-env.js';

/**
 * Renders every failure as `{ message, details? }`. Known errors keep their status; zod errors
 * are 400; Hono's own (malformed JSON, body too large) keep theirs; a full or unwritable disk is a
 * 507/503 (lib/storage-errors.ts); anything else is a 500
 * whose details stay in the log under an id the owner can quote.
 */
export const errorHandler: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof HttpError) {
    for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
    return c.json(
      err.details === undefined ? { message: err.message } : { message: err.message, details: err.details },
      err.status,
    );
  }
  if (err instanceof ZodError) {
    return c.json({ message: 'Invalid input', details: err.issues }, 400);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const message = status === 413 ? 'Request body is too large' : err.message || 'Bad request';
    return c.json({ message }, status);
  }
  // A full disk or an unwritable database: the owner needs to know, the caller gets a 507/503 that
  // says the change was not saved. Only the code is logged: drizzle's error carries the query's values.
  const storage = storageError(err);
  if (storage) {
    (c.get('log') ?? console).error(storage.details as object, storage.message);
    for (const [k, v] of Object.entries(storage.headers ?? {})) c.header(k, v);
    return c.json({ message: storage.message, details: storage.details }, storage.status);
  }
  const errorId = randomUUID().slice(0, 8);
  (c.get('log') ?? console).error({ err, errorId }, 'unhandled error');
  return c.json({ message: `Internal error (reference ${errorId})` }, 500);
};

export const apiNotFound: NotFoundHandler<AppEnv> = (c) =>
  c.json({ message: `No such endpoint: ${c.req.method} ${c.req.path}` }, 404);
