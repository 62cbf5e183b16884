import { Hono } from 'hono';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin } from '../../http/guards.js';
import { toHttpError } from './provider-client.js';
import type { ProvidersService } from './providers.service.js';

/** Long enough for a model to load before Ollama starts answering a proxied chat. */
const PROXY_TIMEOUT_MS = 120_000;
/** Headers of Ollama's answer worth passing on; hop-by-hop ones are not. */
const PASSED_HEADERS = ['content-type', 'content-length', 'cache-control'];

/**
 * Mounted at /api/ollama: the hub's Ollama API for admins, so tools in the browser can use it
 * without its address being reachable. /api/ollama/tags → OLLAMA_URL/api/tags, and so on;
 * streams (chat, pull) pass through as Ollama sends them. People who are not admins only chat,
 * through /api/llm/chat.
 */
export function ollamaProxyRoutes(providers: ProvidersService) {
  return new Hono<AppEnv>().all('/*', requireAdmin, async (c) => {
    const row = providers.builtIn();
    const ollama = providers.resolve(row).client.ollama!;
    const rest = c.req.path.replace(/^\/api\/ollama/, '') || '/';
    const method = c.req.method;
    let upstream: Response;
    try {
      upstream = await ollama.forward({
        method,
        path: `/api${rest}`,
        search: new URL(c.req.url).search,
        body: method === 'GET' || method === 'HEAD' ? null : await c.req.arrayBuffer(),
        contentType: c.req.header('content-type') ?? null,
        signal: c.req.raw.signal,
        timeoutMs: PROXY_TIMEOUT_MS,
      });
    } catch (err) {
      throw toHttpError(err, row.name);
    }
    const headers = new Headers();
    for (const name of PASSED_HEADERS) {
      const value = upstream.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    return new Response(upstream.body, { status: upstream.status, headers });
  });
}
