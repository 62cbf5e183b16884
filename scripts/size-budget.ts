/**
 * The first page's JavaScript budget (issue 26), checked by `npm test` right after the build:
 *
 *   npm run build -w web && npx tsx scripts/size-budget.ts
 *
 * For each route of web/size-budget.json it adds the gzip size (level 9) of what a cold load of that
 * route fetches: the entry with its static imports (index.html's script and modulepreload links),
 * then each module the route loads lazily (its frame, its screen) with their static imports, each
 * file counted once. It follows the chunks through the module map the build writes
 * (web/vite-module-chunks.ts), prints the table, and exits 1 when a route is over its budget or a
 * module named in the budget file is in no chunk of the build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chunksOf, readModuleChunks, withStaticImports } from '../web/vite-module-chunks.js';

interface RouteBudget {
  /** What the route is, for the table. */
  label: string;
  /** Budget in KB (1,000 bytes, as the issue's figures) of gzip-compressed JavaScript. */
  budgetKb: number;
  /** The issue's goal, shown beside the budget; the budget comes down to it as the page shrinks. */
  goalKb?: number;
  /** The modules (paths from web/, as in the module map) the route loads after the entry. */
  lazy: string[];
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'web', 'dist');
const budgets = JSON.parse(fs.readFileSync(path.join(root, 'web', 'size-budget.json'), 'utf8')) as {
  routes: Record<string, RouteBudget>;
};
// Vite's manifest has no entry for a module the bundler folded into a shared chunk; the build's own
// module map has every module (web/vite-module-chunks.ts).
const chunks = readModuleChunks(dist);
if (!chunks) {
  process.stderr.write('The build wrote no module-chunks map: run `npm run build -w web` first.\n');
  process.exit(1);
}

const gzipSizes = new Map<string, number>();
function gzipSize(file: string): number {
  let size = gzipSizes.get(file);
  if (size === undefined) {
    size = gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
    gzipSizes.set(file, size);
  }
  return size;
}

const sum = (files: Iterable<string>) => [...files].reduce((total, file) => total + gzipSize(file), 0);
const kb = (bytes: number) => (bytes / 1000).toFixed(1);

const entryFiles = withStaticImports(chunks, chunks.entry);
const entryBytes = sum(entryFiles);

const problems: string[] = [];
const rows: string[][] = [];
for (const [route, budget] of Object.entries(budgets.routes)) {
  const lazyFiles = new Set<string>();
  for (const module of budget.lazy) {
    if (!chunks.modules[module]) {
      problems.push(
        `${route}: ${module} is in no chunk of this build (renamed? update web/size-budget.json)`,
      );
      continue;
    }
    for (const file of chunksOf(chunks, module)) if (!entryFiles.has(file)) lazyFiles.add(file);
  }
  const total = entryBytes + sum(lazyFiles);
  const over = total > budget.budgetKb * 1000;
  if (over) problems.push(`${route}: ${kb(total)} KB is over its budget of ${budget.budgetKb} KB`);
  rows.push([
    route,
    budget.label,
    kb(entryBytes),
    kb(sum(lazyFiles)),
    kb(total),
    String(budget.budgetKb),
    budget.goalKb === undefined ? '' : String(budget.goalKb),
    over ? 'OVER' : 'ok',
  ]);
}

const header = ['route', 'page', 'entry + preloads', 'route chunks', 'total', 'budget', 'goal', ''];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) =>
  `| ${cells.map((c, i) => (i >= 2 && i <= 6 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
process.stdout.write(
  [
    'JavaScript of the first page, KB gzip -9 (web/size-budget.json):',
    line(header),
    `|${widths.map((w, i) => (i >= 2 && i <= 6 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`,
    ...rows.map(line),
    `entry + preloads: ${[...entryFiles].map((f) => `${path.basename(f)} ${kb(gzipSize(f))}`).join(', ')}`,
    '',
  ].join('\n'),
);
if (problems.length > 0) {
  process.stderr.write(`Size budget failed:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
  process.exit(1);
}
