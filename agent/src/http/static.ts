import fs from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { AppEnv } from './app-env.js';

/** Vite emits content-hashed file names under assets/, so they can be cached for a year. */
const HASHED_ASSET = /^\/assets\//;

/**
 * Serves the built console: static files, then index.html for every other non-/api GET so
 * the client router handles deep links (history-API fallback). index.html is never cached, so
 * an update reaches browsers at once.
 */
export function mountWebApp(app: Hono<AppEnv>, webDist: string): void {
  const indexFile = path.join(webDist, 'index.html');
  const root = path.relative(process.cwd(), webDist) || '.';
  app.use(
    '*',
    serveStatic({
      root,
      onFound: (filePath, c) => {
        c.header(
          'Cache-Control',
          HASHED_ASSET.test(c.req.path) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    }),
  );
  app.get('*', (c) => {
    if (!fs.existsSync(indexFile)) {
      return c.text('The console has not been built yet: run `npm run build`.', 503);
    }
    c.header('Cache-Control', 'no-cache');
    return c.html(fs.readFileSync(indexFile, 'utf8'));
  });
}
