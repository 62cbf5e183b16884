/**
 * Bundles the compiled agent (agent/dist, written by `tsc -b`) into one ES module,
 * agent/dist/bundle/main.js, which the appliance runs (systemd/nexus-agent.service, the image,
 * `npm start`). Why: Node keeps per-module bookkeeping for each of the ~450 agent modules loaded at
 * start (its ESM loader's module jobs, module records, URLs, resolution caches), measured at 4–7 MB
 * of V8 heap on the idle agent (docs/performance.md, "Idle"). Packages stay external and load from
 * node_modules as before (those imported with `import()` keep loading on first use); only the
 * agent's own code is joined, and zod without its language packs (below). Not minified: stack traces
 * keep their names.
 *
 * Every `import.meta.url` in an agent module is replaced by that module's own URL in dist,
 * computed from the bundle's location, so paths resolved from it (migrations, package.json, the
 * app catalog, the analytics worker, createRequire) are the same as when dist/main.js runs.
 */
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const agentDir = fileURLToPath(new URL('..', import.meta.url));
const distDir = path.join(agentDir, 'dist');
const outfile = path.join(distDir, 'bundle', 'main.js');

const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(distDir + path.sep)) return undefined;
      const source = fs.readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const fromBundle = path.relative(path.dirname(outfile), args.path).split(path.sep).join('/');
      return {
        contents: source.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`,
        ),
        loader: 'js',
      };
    });
  },
};

/**
 * zod is joined into the bundle without its 61 language packs. Its index re-exports every one as
 * `z.locales` (for `z.config(z.locales.de())`), so each start loaded all of them as modules and
 * kept their 535 KB of source on the heap; the agent's errors are English, which zod sets itself
 * from locales/en.js. Only that re-export is emptied: `z.locales` is `{}` in the agent.
 * tests/integration/agent-bundle.test.ts holds the bundle to it, and its 400s to zod's English.
 * Every other package stays external: joining them all held more memory (docs/performance.md).
 */
const ZOD = /^zod(?:\/|$)/;
const ZOD_LANGUAGE_PACKS_IMPORTER = /[\\/]zod[\\/]v4[\\/](?:classic|core)[\\/]/;
const zodWithoutLanguagePacks = {
  name: 'zod-without-language-packs',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (ZOD.test(args.path) ? undefined : { external: true }));
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      ZOD_LANGUAGE_PACKS_IMPORTER.test(args.importer)
        ? { path: 'zod-language-packs', namespace: 'emptied' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'emptied' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

const result = await build({
  entryPoints: [path.join(distDir, 'main.js')],
  write: false,
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  plugins: [ownImportMetaUrl, zodWithoutLanguagePacks],
});

// V8 keeps a script's source on its heap, as one byte per character only when every character is
// Latin-1: a single "…" in a comment doubles the 1.3 MB source to 2.6 MB. esbuild escapes
// non-ASCII in strings and identifiers but keeps it in comments and regular expression literals,
// where a \uXXXX escape means the same character.
const [output] = result.outputFiles;
const ascii = output.text.replace(
  /[\u0080-\uffff]/g,
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
);
fs.mkdirSync(path.dirname(outfile), { recursive: true });
fs.writeFileSync(outfile, ascii);
