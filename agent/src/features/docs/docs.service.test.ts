import { describe, expect, it } from 'vitest';
import type { RouterRoute } from 'hono/types';
import { z } from 'zod';
import { checksCredential, requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import { describeApiRoutes, pathCovers } from './docs.service.js';

const handler = (c: unknown) => c;
const middleware = async (_c: unknown, next: () => Promise<void>) => next();
const route = (method: string, path: string, h: unknown = handler) =>
  ({ method, path, basePath: '/', handler: h }) as RouterRoute;

describe('pathCovers', () => {
  it('matches exact paths and trailing wildcards, including the bare prefix', () => {
    expect(pathCovers('/api/users/*', '/api/users')).toBe(true);
    expect(pathCovers('/api/users/*', '/api/users/:id')).toBe(true);
    expect(pathCovers('/api/users/*', '/api/usersx')).toBe(false);
    expect(pathCovers('*', '/api/anything')).toBe(true);
    expect(pathCovers('/api/a', '/api/a')).toBe(true);
    expect(pathCovers('/api/a', '/api/a/b')).toBe(false);
  });
});

describe('describeApiRoutes', () => {
  it('reads each endpoint once with the guards that run before it', () => {
    const routes = describeApiRoutes([
      route('ALL', '/api/*', middleware),
      route('GET', '/api/health'),
      route('GET', '/api/me', requireUser),
      route('GET', '/api/me'),
      route('ALL', '/api/admin/*', requireAdmin),
      route('DELETE', '/api/admin/:id', middleware),
      route('DELETE', '/api/admin/:id'),
      route('GET', '/late'),
      route('ALL', '/api/*', handler),
    ]);
    expect(routes).toEqual([
      {
        method: 'DELETE',
        path: '/api/admin/:id',
        group: 'admin',
        signInRequired: true,
        roles: ['admin', 'superadmin'],
        credential: null,
        input: {},
      },
      {
        method: 'GET',
        path: '/api/health',
        group: 'health',
        signInRequired: false,
        roles: null,
        credential: null,
        input: {},
      },
      {
        method: 'GET',
        path: '/api/me',
        group: 'me',
        signInRequired: true,
        roles: null,
        credential: null,
        input: {},
      },
    ]);
  });

  it('ignores a guard registered after the endpoint, which never runs for it', () => {
    const [only] = describeApiRoutes([route('GET', '/api/open'), route('ALL', '/api/*', requireUser)]);
    expect(only).toMatchObject({ path: '/api/open', signInRequired: false });
  });

  it('names the credential a token-checking middleware accepts', () => {
    const tokenCheck = checksCredential(
      async (_c: unknown, next: () => Promise<void>) => next(),
      'Satellite token',
    );
    const [heartbeat] = describeApiRoutes([
      route('POST', '/api/sat/:id/heartbeat', tokenCheck),
      route('POST', '/api/sat/:id/heartbeat'),
    ]);
    expect(heartbeat).toMatchObject({ signInRequired: false, roles: null, credential: 'Satellite token' });
  });

  it("publishes each validator's input as JSON Schema, also for schemas JSON Schema cannot fully say", () => {
    const body = z.object({ name: z.string().min(1).max(10), port: z.number().int().default(80) });
    const param = z.object({ id: z.coerce.number().int().positive() });
    const query = z.object({
      at: z
        .string()
        .transform((v) => new Date(v))
        .refine((d) => !Number.isNaN(d.getTime())),
    });
    const [update] = describeApiRoutes([
      route('PUT', '/api/things/:id', validate('param', param)),
      route('PUT', '/api/things/:id', validate('query', query)),
      route('PUT', '/api/things/:id', validate('json', body)),
      route('PUT', '/api/things/:id'),
    ]);
    expect(update!.input.json).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 10 },
        port: { type: 'integer', default: 80, minimum: expect.any(Number), maximum: expect.any(Number) },
      },
      required: ['name'],
    });
    expect(update!.input.param).toMatchObject({ type: 'object', required: ['id'] });
    // The transform's input side is a string; the refinement is left to the server.
    expect(update!.input.query).toMatchObject({ properties: { at: { type: 'string' } }, required: ['at'] });
    expect(update!.input).not.toHaveProperty('form');
  });

  it('leaves out validators of other methods and paths', () => {
    const [get] = describeApiRoutes([
      route('POST', '/api/things', validate('json', z.object({ a: z.string() }))),
      route('GET', '/api/things'),
    ]);
    expect(get!.input).toEqual({});
  });
});
