import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Manifest, type Plugin } from 'vite';
import type { renderVisitorPage as RenderVisitorPage } from './src/prerender';

/**
 * The visitors' pages written into their HTML at build time, and the screen each one shows: its
 * chunk is preloaded beside the entry, so the page goes live (hydrates) as soon as it can.
 */
const PRERENDERED_PAGES = [
  { path: '/', screen: 'src/features/landing/landing-page.tsx' },
  { path: '/auth', screen: 'src/features/auth/components/auth-page.tsx' },
] as const;

/**
 * Where the pages go under dist/, each named after its path (`/` index.html, `/auth` auth.html):
 * the agent (agent/src/http/static.ts) serves what it finds there to visitors by the same names.
 */
const PRERENDERED_DIR = 'prerendered';
const pageFile = (pagePath: string) => (pagePath === '/' ? 'index.html' : `${pagePath.slice(1)}.html`);

const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * Prerenders the visitors' pages (issue 26: on a phone at home the first paint waited for the
 * JavaScript to download, compile and render, about 1.3 s at 4× slowed CPU). After the browser
 * build, it builds web/src/prerender.tsx for Node (a second, server-side Vite build into a
 * temporary folder), renders each page of PRERENDERED_PAGES into a copy of index.html and writes
 * it to dist/prerendered/. dist/index.html itself stays the empty shell every other page (and the
 * service worker's offline copy) uses. Runs before the precompress plugin (order 'post'), which
 * then writes the pages' .br and .gz copies too.
 */
export function prerenderVisitorPages(): Plugin {
  let root = '';
  let outDir = '';
  let alias: Record<string, string> = {};
  return {
    name: 'nexus-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      alias = Object.fromEntries(
        config.resolve.alias.flatMap((a) => (typeof a.find === 'string' ? [[a.find, a.replacement]] : [])),
      );
    },
    closeBundle: {
      sequential: true,
      async handler() {
        // Under node_modules, so the server build's imports of packages resolve from there.
        const serverDir = path.join(root, 'node_modules', '.prerender');
        await build({
          configFile: false,
          // The browser build has copied public/ already.
          publicDir: false,
          root,
          logLevel: 'warn',
          resolve: { alias },
          plugins: [react()],
          build: {
            ssr: path.join(root, 'src/prerender.tsx'),
            outDir: serverDir,
            emptyOutDir: true,
            minify: false,
            rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
          },
        });
        try {
          const { renderVisitorPage } = (await import(
            pathToFileURL(path.join(serverDir, 'prerender.mjs')).href
          )) as { renderVisitorPage: typeof RenderVisitorPage };
          const shell = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
          if (!shell.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT} to fill`);
          const manifest = JSON.parse(
            fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8'),
          ) as Manifest;
          fs.mkdirSync(path.join(outDir, PRERENDERED_DIR), { recursive: true });
          for (const page of PRERENDERED_PAGES) {
            const body = await renderVisitorPage(page.path);
            const preloads = screenPreloads(manifest, page.screen, shell)
              .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
              .join('');
            const html = shell
              .replace('</head>', `${preloads}</head>`)
              .replace(ROOT_ELEMENT, `<div id="root" data-prerendered>${body}</div>`);
            fs.writeFileSync(path.join(outDir, PRERENDERED_DIR, pageFile(page.path)), html);
          }
        } finally {
          fs.rmSync(serverDir, { recursive: true, force: true });
        }
      },
    },
  };
}

/** The screen's chunk and the chunks it imports statically, but for those the shell already loads. */
function screenPreloads(manifest: Manifest, screen: string, shell: string): string[] {
  const files: string[] = [];
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`prerender: ${key} is not a chunk of the build`);
    if (files.includes(chunk.file) || shell.includes(`/${chunk.file}"`)) return;
    files.push(chunk.file);
    chunk.imports?.forEach(visit);
  };
  visit(screen);
  return files;
}
