import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { moduleChunks } from './vite-module-chunks';
import { precompress } from './vite-precompress';
import { prerenderVisitorPages } from './vite-prerender';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The public files the installed app needs before any screen loads. */
const SHELL_PUBLIC_FILES = [
  '/before-paint.js',
  '/favicon.svg',
  '/manifest.webmanifest',
  '/icons/icon-192.png',
  '/icons/icon-512.png',
  '/icons/maskable-512.png',
  '/icons/apple-touch-icon.png',
];

/**
 * Writes this build's id and shell files into dist/sw.js (web/public/sw.js): the first page's
 * scripts and styles are precached, and a new build gets a new cache name, which retires the old
 * cache. Screens' lazy chunks are cached when first used (the worker's /assets/ rule).
 */
function serviceWorkerShell(): Plugin {
  let entryFiles: string[] = [];
  let allFiles: string[] = [];
  let outDir = '';
  return {
    name: 'nexus-service-worker-shell',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      allFiles = Object.keys(bundle).sort();
      entryFiles = [];
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk' || !item.isEntry) continue;
        entryFiles.push(item.fileName, ...item.imports, ...(item.viteMetadata?.importedCss ?? []));
      }
    },
    closeBundle() {
      const file = path.join(outDir, 'sw.js');
      if (!fs.existsSync(file)) return;
      const shell = ['/index.html', ...SHELL_PUBLIC_FILES, ...new Set(entryFiles.map((f) => `/${f}`))];
      const build = createHash('sha256').update(allFiles.join('\n')).digest('hex').slice(0, 12);
      const source = fs
        .readFileSync(file, 'utf8')
        .replace("const BUILD = 'dev';", `const BUILD = '${build}';`)
        .replace("const SHELL = ['/index.html'];", `const SHELL = ${JSON.stringify(shell)};`);
      fs.writeFileSync(file, source);
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    serviceWorkerShell(),
    moduleChunks(),
    prerenderVisitorPages(),
    precompress(),
  ],
  resolve: { alias: { '@': path.join(here, 'src') } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      output: {
        // Fewer, larger files (issue 26): over a phone's VPN link every file costs a round trip of
        // its own, and an HTTP/1.1 browser fetches at most six at once, so the first page's ~20
        // small shared chunks (icons, Radix parts) cost more in waiting than in bytes.
        codeSplitting: {
          groups: [
            // lib/zod-config sets zod's jitless flag before zod loads; as its own chunk, imported
            // first by the entry, it runs before any chunk that holds zod and the agent's contract.
            { name: 'zod-config', test: /[\\/]src[\\/]lib[\\/]zod-config\.ts$/, priority: 2 },
            // Everything the entry imports statically arrives as one file beside the entry.
            { name: 'first-page', tags: ['$initial'], priority: 1 },
          ],
          // Shared chunks under 4 KB (before minification) are copied into the chunks that use them.
          experimentalInlineCommonChunks: { maxSize: 4096 },
        },
      },
    },
  },
  server: {
    port: 5173,
    // In development the agent serves the API; the console is served by Vite with hot reload.
    proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } },
  },
});
