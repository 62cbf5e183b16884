import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** Under the build's folder, beside Vite's own manifest. */
const MODULE_CHUNKS_FILE = '.vite/module-chunks.json';

/** Which chunk holds each of the app's own modules, and what each chunk imports statically. */
export interface ModuleChunks {
  /** The entry chunk's file: what index.html's script loads. */
  entry: string;
  /** Source module (path from web/, e.g. `src/app/signed-in-routes.tsx`) → its chunk's file. */
  modules: Record<string, string>;
  /** Chunk file → the chunk files it imports statically. */
  imports: Record<string, string[]>;
}

/**
 * Writes dist/.vite/module-chunks.json. Vite's manifest would name a chunk after the module it was
 * made for, but the bundler may fold a lazily loaded module into a chunk it shares with others (rolldown
 * does when the module's code is also imported by chunks only it loads), and then the manifest has
 * no entry for that module at all. The build's own tooling — the signed-in page's preloads
 * (vite-prerender.ts) and the size budget (scripts/size-budget.ts) — looks modules up here instead,
 * so a change of the bundler's mind moves the preloads with it rather than breaking the build.
 */
export function moduleChunks(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'nexus-module-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      const map: ModuleChunks = { entry: '', modules: {}, imports: {} };
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        if (output.isEntry) map.entry = output.fileName;
        map.imports[output.fileName] = output.imports;
        for (const id of output.moduleIds) {
          const module = path.relative(root, id).split(path.sep).join('/');
          if (module.startsWith('src/')) map.modules[module] = output.fileName;
        }
      }
      if (!map.entry) throw new Error('module-chunks: the build has no entry chunk');
      fs.mkdirSync(path.dirname(path.join(outDir, MODULE_CHUNKS_FILE)), { recursive: true });
      fs.writeFileSync(path.join(outDir, MODULE_CHUNKS_FILE), JSON.stringify(map));
    },
  };
}

/** The map a build wrote into `outDir`; undefined when there is none (no build yet). */
export function readModuleChunks(outDir: string): ModuleChunks | undefined {
  const file = path.join(outDir, MODULE_CHUNKS_FILE);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as ModuleChunks) : undefined;
}

/**
 * The files loading `module` fetches: its chunk and the chunks that imports statically,
 * transitively, added to `into`. Throws for a module in no chunk (renamed or removed).
 */
export function chunksOf(map: ModuleChunks, module: string, into = new Set<string>()): Set<string> {
  const file = map.modules[module];
  if (!file) throw new Error(`${module} is in no chunk of this build`);
  return withStaticImports(map, file, into);
}

/** A chunk file and the chunks it imports statically, transitively, added to `into`. */
export function withStaticImports(map: ModuleChunks, file: string, into = new Set<string>()): Set<string> {
  if (into.has(file)) return into;
  into.add(file);
  for (const imported of map.imports[file] ?? []) withStaticImports(map, imported, into);
  return into;
}
