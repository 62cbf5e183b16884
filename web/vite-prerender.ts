import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import { chunksOf, readModuleChunks, type ModuleChunks } from './vite-module-chunks';
import type * as Prerender from './src/prerender';

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

/**
 * A signed-in owner's first screen, the dashboard at `/` and `/dashboard`: an empty shell like
 * index.html, which also preloads the console's frame, the screen's code and its first reads, so
 * all of them download beside the entry instead of one after another once it has run (issue 26:
 * each step was a round trip, and a whole render of the page on a slow phone). The agent sends it
 * to a request with a valid session on a hub that is set up (agent/src/http/static.ts), from
 * dist/signed-in/ by the same names as the prerendered pages.
 */
const SIGNED_IN_DIR = 'signed-in';
const SIGNED_IN_PAGES = [
  {
    paths: ['/', '/dashboard'],
    // The frame (app/router.tsx consoleFrame), the screen (app/routes.tsx screens.dashboard) and
    // the module of its reads, which the screen loads beside its cards.
    modules: [
      'src/app/signed-in-routes.tsx',
      'src/features/dashboard/index.ts',
      'src/features/dashboard/prefetch.ts',
    ],
  },
] as const;
const pageFile = (pagePath: string) => (pagePath === '/' ? 'index.html' : `${pagePath.slice(1)}.html`);

const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * The browser may paint a document it has only partly parsed: the prerendered form showed without
 * its lower half for a frame, then grew (a layout shift a person sees). `rel="expect"` holds the
 * first paint until this element, after the page, is parsed (Chromium 124+; others ignore it).
 */
const PAGE_END_ID = 'prerendered-end';
const HOLD_PAINT_UNTIL_PARSED = `<link rel="expect" href="#${PAGE_END_ID}" blocking="render">`;

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
          const { renderVisitorPage, firstScreenReads } = (await import(
            pathToFileURL(path.join(serverDir, 'prerender.mjs')).href
          )) as typeof Prerender;
          const shell = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
          if (!shell.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT} to fill`);
          const chunks = readModuleChunks(outDir);
          if (!chunks) throw new Error('prerender: the build wrote no module-chunks map');
          fs.mkdirSync(path.join(outDir, PRERENDERED_DIR), { recursive: true });
          for (const page of PRERENDERED_PAGES) {
            const body = await renderVisitorPage(page.path);
            const preloads = modulePreloads(screenPreloads(chunks, [page.screen], shell));
            const html = shell
              .replace('</head>', `${HOLD_PAINT_UNTIL_PARSED}${preloads}</head>`)
              .replace(
                ROOT_ELEMENT,
                `<div id="root" data-prerendered>${body}</div><span id="${PAGE_END_ID}" hidden></span>`,
              );
            fs.writeFileSync(path.join(outDir, PRERENDERED_DIR, pageFile(page.path)), html);
          }
          fs.mkdirSync(path.join(outDir, SIGNED_IN_DIR), { recursive: true });
          for (const page of SIGNED_IN_PAGES) {
            for (const pagePath of page.paths) {
              // Fetch preloads as index.html's own (crossorigin="use-credentials" matches the
              // console's fetch: credentials "include", mode "cors"), so the reads take them over.
              const reads = (await firstScreenReads(pagePath))
                .map((url) => `<link rel="preload" href="${url}" as="fetch" crossorigin="use-credentials">`)
                .join('');
              if (!reads) throw new Error(`prerender: the first screen at ${pagePath} asks for no reads`);
              const preloads = modulePreloads(screenPreloads(chunks, page.modules, shell));
              const html = shell.replace('</head>', `${reads}${preloads}</head>`);
              fs.writeFileSync(path.join(outDir, SIGNED_IN_DIR, pageFile(pagePath)), html);
            }
          }
        } finally {
          fs.rmSync(serverDir, { recursive: true, force: true });
        }
      },
    },
  };
}

/** The modules' chunks and the chunks they import statically, but for those the shell already loads. */
function screenPreloads(chunks: ModuleChunks, modules: readonly string[], shell: string): string[] {
  const files = new Set<string>();
  for (const module of modules) chunksOf(chunks, module, files);
  return [...files].filter((file) => !shell.includes(`/${file}"`));
}

const modulePreloads = (files: string[]) =>
  files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('');
