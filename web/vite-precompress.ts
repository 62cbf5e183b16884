import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text the browser fetches; images, fonts (woff2 is compressed already) and source maps are left alone. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;

/** Below this a compressed copy saves less than the response's headers weigh. */
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of the build (hashed assets,
 * index.html, sw.js, the manifest), at the strongest settings: the work is done once per build,
 * and the agent (agent/src/http/static.ts) sends the smallest copy the browser accepts. A copy is
 * written only when it is smaller than the file. Runs after every other plugin's closeBundle,
 * because some (the service worker shell) rewrite files there.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'nexus-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const files = fs
          .readdirSync(outDir, { recursive: true, encoding: 'utf8' })
          .filter((name) => COMPRESSIBLE.test(name))
          .map((name) => path.join(outDir, name));
        await Promise.all(
          files.map(async (file) => {
            const source = fs.readFileSync(file);
            if (source.length < MIN_BYTES) return;
            const [br, gz] = await Promise.all([
              brotli(source, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
                },
              }),
              gzip(source, { level: zlib.constants.Z_BEST_COMPRESSION }),
            ]);
            if (br.length < source.length) fs.writeFileSync(`${file}.br`, br);
            if (gz.length < source.length) fs.writeFileSync(`${file}.gz`, gz);
          }),
        );
      },
    },
  };
}
