import { describe, expect, it } from 'vitest';
import type { RouterRoute } from 'hono/types';
import { checksCredential, requireAdmin, requireUser } from '../../http/guards.js';
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
      },
      {
        method: 'GET',
        path: '/api/health',
        group: 'health',
        signInRequired: false,
        roles: null,
        credential: null,
      },
      { method: 'GET', path: '/api/me', group: 'me', signInRequired: true, roles: null, credential: null },
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
});
