import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError, tooManyRequests } from '../lib/http-error.js';
import type { Logger } from '../lib/logger.js';
import type { AppEnv } from './app-env.js';
import { apiNotFound, errorHandler } from './error-handler.js';

/** A tiny app with the agent's handlers, one route per kind of failure, and a log that records. */
function appWithFailures() {
  const logged: { obj: Record<string, unknown>; msg: string }[] = [];
  const log = {
    error: (obj: Record<string, unknown>, msg: string) => logged.push({ obj, msg }),
  } as unknown as Logger;
  const app = new Hono<AppEnv>()
    .use(async (c, next) => {
      c.set('log', log);
      await next();
    })
    .get('/http-error', () => {
      throw new HttpError(409, 'A flow named x already exists', { field: 'name' });
    })
    .get('/limited', () => {
      throw tooManyRequests('Too many attempts', 30);
    })
    .get('/zod', () => {
      z.object({ name: z.string() }).parse({ name: 42 });
      return new Response();
    })
    .get('/hono', () => {
      throw new HTTPException(413);
    })
    .get('/bug', () => {
      throw new TypeError("Cannot read properties of undefined (reading 'secret-looking detail')");
    });
  app.onError(errorHandler);
  app.notFound(apiNotFound);
  return { app, logged };
}

describe('errorHandler', () => {
  it('keeps a known error’s status, message, details and headers', async () => {
    const { app } = appWithFailures();
    const conflict = await app.request('/http-error');
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({
      message: 'A flow named x already exists',
      details: { field: 'name' },
    });
    const limited = await app.request('/limited');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
  });

  it('answers zod errors with 400 and their issues, Hono’s own with their status', async () => {
    const { app } = appWithFailures();
    const invalid = await app.request('/zod');
    expect(invalid.status).toBe(400);
    const body = (await invalid.json()) as { message: string; details: { path: string[] }[] };
    expect(body.message).toBe('Invalid input');
    expect(body.details[0]!.path).toEqual(['name']);
    const tooLarge = await app.request('/hono');
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ message: 'Request body is too large' });
  });

  it('answers an unknown error with 500 and a reference, keeping the details in the log only', async () => {
    const { app, logged } = appWithFailures();
    const res = await app.request('/bug');
    expect(res.status).toBe(500);
    const body = (await res.json()) as { message: string };
    expect(body).toEqual({ message: expect.stringMatching(/^Internal error \(reference [0-9a-f]{8}\)$/) });
    expect(JSON.stringify(body)).not.toContain('secret-looking detail');
    expect(logged).toHaveLength(1);
    expect(logged[0]!.msg).toBe('unhandled error');
    expect(body.message).toContain(String(logged[0]!.obj.errorId));
    expect(String(logged[0]!.obj.err)).toContain('secret-looking detail');
  });

  it('answers an unknown endpoint with 404 in the same shape', async () => {
    const { app } = appWithFailures();
    const res = await app.request('/nope', { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'No such endpoint: DELETE /nope' });
  });
});
