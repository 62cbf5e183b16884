import { prerender } from 'react-dom/static';
import { Router } from 'wouter';
import { App } from './app/app';
import { firstConsoleRoutes, routeAt } from './app/routes';
import { assumeSignedOut } from './data/auth-session';
import { assumeSetUp } from './data/setup-status';
import { createQueryClient } from './lib/query-client';

/**
 * The build's server-side entry (web/vite-prerender.ts): renders a visitor's page at `path` to
 * HTML, as a signed-out visitor of a hub that is set up sees it before any answer of the hub's
 * but those two has arrived. main.tsx hydrates it only when the same two answers hold, so its
 * first render in the browser is this one.
 */
export async function renderVisitorPage(path: string): Promise<string> {
  // A lazy screen first met in a render is written as its fallback plus an inline script that
  // swaps it in later, which the Content-Security-Policy does not run (script-src 'self'). Once
  // a render has loaded it, the next one writes it in place: so render until nothing is left to swap.
  for (let pass = 0; pass < 3; pass++) {
    const html = await renderOnce(path);
    if (!/<(script|template)\b/.test(html)) return html;
  }
  throw new Error(`prerender ${path}: the page still has parts that load later (a <script> or <template>)`);
}

async function renderOnce(path: string): Promise<string> {
  const client = createQueryClient();
  assumeSignedOut(client);
  assumeSetUp(client);
  const { prelude } = await prerender(
    <Router ssrPath={path}>
      <App client={client} />
    </Router>,
    // A part larger than this (12.8 kB by default) is also written to swap in later: the page is
    // one file that arrives at once, so none is.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const html = await new Response(prelude).text();
  client.clear();
  return html;
}

/**
 * The reads a signed-in owner's first screen at `path` asks for before React renders it
 * (app/router.tsx startFirstScreen), as the addresses fetched. The build preloads them in that
 * screen's page (web/vite-prerender.ts), so they are answered while the scripts download. Found by
 * running the screen's own prefetch with a fetch that notes each GET and answers none, so the list
 * is always what the code asks for.
 */
export async function firstScreenReads(path: string): Promise<string[]> {
  const prefetch = routeAt(firstConsoleRoutes, path)?.screen.prefetch;
  if (!prefetch) return [];
  const asked: string[] = [];
  const fetchOfNode = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    if ((init?.method ?? 'GET') === 'GET') asked.push(String(input));
    return Promise.reject(new Error('not answered at build time'));
  };
  const client = createQueryClient();
  try {
    await prefetch(client);
  } finally {
    globalThis.fetch = fetchOfNode;
    client.clear();
  }
  return asked;
}
