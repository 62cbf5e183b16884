import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../lib/logger.js';
import { createHotReads, type HotRead } from './hot-reads.js';

const TOKEN = 'a-valid-session';

function setup(routes: Record<string, HotRead>, isGetRoute = () => true) {
  const validate = vi.fn((token: string) => (token === TOKEN ? { id: 1 } : null));
  const hot = createHotReads({
    routes,
    validate,
    hostAllowed: (host) => host === '127.0.0.1:8080',
    isGetRoute,
    nextRequestId: () => 'r-1',
    log: createLogger('silent'),
  });
  return { hot, validate };
}

/** Serves one request; answers what the hot read wrote, or that it went on to Hono. */
async function serve(hot: ReturnType<typeof createHotReads>, rawHeaders: string[], url = '/api/hot') {
  const req = { method: 'GET', url, rawHeaders } as unknown as IncomingMessage;
  return new Promise<{ hono: true } | { status: number; headers: string[]; body: string }>((resolve) => {
    const written = { status: 0, headers: [] as string[] };
    const res = {
      writeHead(status: number, headers: string[]) {
        written.status = status;
        written.headers = headers;
      },
      end(body: string) {
        resolve({ ...written, body });
      },
    } as unknown as ServerResponse;
    const next: RequestListener = () => resolve({ hono: true });
    hot.handle(req, res, next);
  });
}

const browser = (cookie: string) => ['Host', '127.0.0.1:8080', 'User-Agent', 'test', 'Cookie', cookie];

describe('hot reads', () => {
  it('refuses at start-up a hot read for a path the app has no GET route for', () => {
    expect(() => setup({ '/api/nowhere': () => '{}' }, () => false)).toThrow(/no GET route/);
  });

  it('answers a signed-in read with the API headers, its length and the JSON', async () => {
    const { hot } = setup({ '/api/hot': () => '{"ok":true}' });
    const answer = await serve(hot, browser(`theme=dark; nexus_session=${TOKEN}`));
    expect(answer).toEqual({
      status: 200,
      body: '{"ok":true}',
      headers: expect.arrayContaining(['X-Content-Type-Options', 'nosniff', 'Content-Length', '11']),
    });
  });

  it('reads the session from any of several Cookie headers, as node:http would join them', async () => {
    const { hot } = setup({ '/api/hot': () => '{}' });
    const answer = await serve(hot, [
      'Host',
      '127.0.0.1:8080',
      'cookie',
      'a=1',
      'COOKIE',
      `nexus_session=${TOKEN}`,
    ]);
    expect(answer).toMatchObject({ status: 200 });
  });

  it('hands everything else to Hono: no cookie, a stranger’s session, a foreign Host, a query, a failing read', async () => {
    const { hot } = setup({
      '/api/hot': () => '{}',
      '/api/broken': () => {
        throw new Error('no sample yet');
      },
      '/api/rejects': () => Promise.reject(new Error('no')),
    });
    expect(await serve(hot, ['Host', '127.0.0.1:8080'])).toEqual({ hono: true });
    expect(await serve(hot, browser('nexus_session=forged'))).toEqual({ hono: true });
    expect(await serve(hot, ['Host', 'evil.example', 'Cookie', `nexus_session=${TOKEN}`])).toEqual({
      hono: true,
    });
    expect(await serve(hot, browser(`nexus_session=${TOKEN}`), '/api/hot?x=1')).toEqual({ hono: true });
    expect(await serve(hot, browser(`nexus_session=${TOKEN}`), '/api/broken')).toEqual({ hono: true });
    expect(await serve(hot, browser(`nexus_session=${TOKEN}`), '/api/rejects')).toEqual({ hono: true });
  });

  it('leaves an answer of 1 KB or more to Hono, which compresses it', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(1100) });
    const { hot } = setup({ '/api/hot': () => big, '/api/later': () => Promise.resolve(big) });
    expect(await serve(hot, browser(`nexus_session=${TOKEN}`))).toEqual({ hono: true });
    expect(await serve(hot, browser(`nexus_session=${TOKEN}`), '/api/later')).toEqual({ hono: true });
  });
});
