import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueryFunctionContext } from '@tanstack/react-query';
import { createQueryClient, getQueryFn, queryKeyToPath } from './query-client';

afterEach(() => {
  vi.unstubAllGlobals();
});

function context(queryKey: readonly unknown[]): QueryFunctionContext {
  return { queryKey, signal: new AbortController().signal, meta: undefined } as QueryFunctionContext;
}

describe('queryKeyToPath (spec §7)', () => {
  it('joins the key parts with slashes', () => {
    expect(queryKeyToPath(['/api/auth/user'])).toBe('/api/auth/user');
    expect(queryKeyToPath(['/api/satellites', 42, 'logs'])).toBe('/api/satellites/42/logs');
  });
});

describe('getQueryFn', () => {
  it('GETs the joined key with cookies and returns the JSON', async () => {
    const fetchMock = vi.fn(async () => new Response('{"status":"ok"}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const fn = getQueryFn<{ status: string }>({ on401: 'throw' });
    expect(await fn(context(['/api', 'health']))).toEqual({ status: 'ok' });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/health',
      expect.objectContaining({ method: 'GET', credentials: 'include' }),
    );
  });

  it("turns a 401 into null with on401 'returnNull'", async () => {
    vi.stubGlobal('fetch', async () => new Response('{"message":"Not signed in"}', { status: 401 }));
    const fn = getQueryFn({ on401: 'returnNull' });
    expect(await fn(context(['/api/auth/user']))).toBeNull();
  });

  it("throws on a 401 with on401 'throw', and on other errors either way", async () => {
    vi.stubGlobal('fetch', async () => new Response('{"message":"Not signed in"}', { status: 401 }));
    await expect(getQueryFn({ on401: 'throw' })(context(['/api/auth/user']))).rejects.toThrow(
      '401: {"message":"Not signed in"}',
    );
    vi.stubGlobal('fetch', async () => new Response('nope', { status: 500 }));
    await expect(getQueryFn({ on401: 'returnNull' })(context(['/api/x']))).rejects.toThrow('500: nope');
  });
});

describe('createQueryClient defaults (spec §7)', () => {
  it('never retries, never refetches by itself and treats data as always fresh', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries?.retry).toBe(false);
    expect(queries?.refetchOnWindowFocus).toBe(false);
    expect(queries?.refetchInterval).toBe(false);
    expect(queries?.staleTime).toBe(Infinity);
    expect(mutations?.retry).toBe(false);
  });

  it('fetches a query by its key when no query function is given', async () => {
    vi.stubGlobal('fetch', async (url: string) => new Response(JSON.stringify({ url }), { status: 200 }));
    const client = createQueryClient();
    expect(await client.fetchQuery({ queryKey: ['/api/nexus/status'] })).toEqual({
      url: '/api/nexus/status',
    });
  });
});
