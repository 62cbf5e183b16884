import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryObserver, type QueryFunctionContext } from '@tanstack/react-query';
import { createQueryClient, getQueryFn, queryKeyToPath, rereadQueries } from './query-client';

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

describe('rereadQueries (a live topic just confirmed)', () => {
  /** A list whose first read is answered only when `answerFirst` is called, after the second read. */
  function slowFirstRead() {
    const client = createQueryClient();
    let answerFirst!: (list: string[]) => void;
    let reads = 0;
    const queryFn = () => {
      reads += 1;
      if (reads === 1) return new Promise<string[]>((resolve) => (answerFirst = resolve));
      return Promise.resolve(['before the topic', 'published in the gap']);
    };
    const observer = new QueryObserver(client, { queryKey: ['/api/list'], queryFn });
    const unsubscribe = observer.subscribe(() => undefined);
    return {
      client,
      observer,
      unsubscribe,
      answerFirst: (list: string[]) => answerFirst(list),
      reads: () => reads,
    };
  }

  it('asks again even while the first read is under way, and keeps the newer answer', async () => {
    const { client, observer, unsubscribe, answerFirst, reads } = slowFirstRead();
    await rereadQueries(client, ['/api/list']);
    expect(reads()).toBe(2);
    // The first read's answer, older than the event, arrives late and is not taken.
    answerFirst(['before the topic']);
    await Promise.resolve();
    expect(observer.getCurrentResult().data).toEqual(['before the topic', 'published in the gap']);
    unsubscribe();
  });

  it('(why) a plain invalidation joins the read under way and keeps its older answer', async () => {
    const { client, observer, unsubscribe, answerFirst, reads } = slowFirstRead();
    const invalidated = client.invalidateQueries({ queryKey: ['/api/list'] });
    answerFirst(['before the topic']);
    await invalidated;
    expect(reads()).toBe(1);
    expect(observer.getCurrentResult().data).toEqual(['before the topic']);
    unsubscribe();
  });
});
