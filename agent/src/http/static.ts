import fs from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Hono } from 'hono';
import type { AppEnv } from './app-env.js';

/** Vite emits content-hashed file names under assets/, so they can be cached for a year. */
const HASHED_ASSET = /^\/assets\//;

/**
 * Pages the build wrote for particular visits (web/vite-prerender.ts), each named after its path
 * (index.html is `/`, auth.html is `/auth`):
 * - dist/prerendered/: the visitors' pages, painted from their HTML before any script has run;
 * - dist/signed-in/: a signed-in owner's first screen, the shell with that screen's code and
 *   first reads preloaded.
 * Read once at start: a build ships them all together.
 */
function pagesIn(webDist: string, folder: 'prerendered' | 'signed-in'): { route: string; file: string }[] {
  const dir = path.join(webDist, folder);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.html'))
    .map((name) => ({
      route: name === 'index.html' ? '/' : `/${name.slice(0, -'.html'.length)}`,
      file: `${folder}/${name}`,
    }));
}

/**
 * Serves the built console: static files, then index.html for every other non-/api GET so
 * the client router handles deep links (history-API fallback). index.html is never cached, so
 * an update reaches browsers at once.
 *
 * The build writes `.br` and `.gz` copies beside every compressible file (web/vite-precompress.ts),
 * index.html included: it changes only with a build, so compressing it once there costs nothing
 * per request and it is served by the same code as every other file. @hono/node-server's
 * serveStatic (`precompressed`) sends the copy the request's Accept-Encoding names (br before
 * gzip), with the original file's Content-Type and the copy's Content-Length, and the file itself
 * when none is accepted; HEAD answers the same headers without a body, a Range applies to the
 * bytes sent.
 */
export function mountWebApp(
  app: Hono<AppEnv>,
  webDist: string,
  opts: {
    /**
     * Whether this request gets a prerendered page: it shows what a signed-out visitor of a hub
     * that is set up sees, so anyone else gets the empty shell and the app renders their page
     * (the browser checks again before it takes a prerendered page over: web/src/main.tsx).
     */
    prerenderedFor: (c: Context<AppEnv>) => boolean;
    /**
     * Whether this request gets the signed-in owner's page: its preloads ask for reads only a
     * signed-in owner of a hub that is set up is answered, and for the console's code.
     */
    signedInFor: (c: Context<AppEnv>) => boolean;
  },
): void {
  const root = path.relative(process.cwd(), webDist) || '.';
  const cacheHeaders = (c: Context) => {
    c.header(
      'Cache-Control',
      HASHED_ASSET.test(c.req.path) ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
    // serveStatic names Accept-Encoding only when it sends a compressed copy; a cache must also
    // know that the plain file it was sent depends on the header (RFC 9110 §12.5.5).
    c.header('Vary', 'Accept-Encoding');
  };
  const pages = [
    ...pagesIn(webDist, 'prerendered').map((page) => ({ ...page, servedTo: opts.prerenderedFor })),
    ...pagesIn(webDist, 'signed-in').map((page) => ({ ...page, servedTo: opts.signedInFor })),
  ];
  for (const { route, file, servedTo } of pages) {
    const page = serveStatic<AppEnv>({
      root,
      path: file,
      precompressed: true,
      onFound: (_file, c) => {
        cacheHeaders(c);
        // Who asks decides which page they get: a cache must not hand it to anyone else.
        c.header('Vary', 'Accept-Encoding, Cookie');
      },
    });
    // Only the bare address: a query (an invite code, say) may change what the page shows.
    app.get(route, (c, next) => (!c.req.url.includes('?') && servedTo(c) ? page(c, next) : next()));
  }
  app.use('*', serveStatic({ root, precompressed: true, onFound: (_file, c) => cacheHeaders(c) }));
  app.get(
    '*',
    serveStatic({ root, path: 'index.html', precompressed: true, onFound: (_file, c) => cacheHeaders(c) }),
  );
  // Reached only when index.html is missing.
  app.get('*', (c) => c.text('The console has not been built yet: run `npm run build`.', 503));
}
