import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The console's route tables, read from their source so a route added there is covered by the
 * specs without an edit here: web/src/app/routes.tsx holds the entry's screens and tables (the
 * visitors' and the first console routes), console-routes.tsx the rest of the console's.
 */
const ROUTE_SOURCES = ['routes.tsx', 'console-routes.tsx'].map((file) =>
  fs.readFileSync(fileURLToPath(new URL(`../../web/src/app/${file}`, import.meta.url)), 'utf8'),
);

/** One entry per line of a table: its paths (the aliases of one screen) and the key of the screen it opens. */
export interface RouteEntry {
  paths: string[];
  screen: string;
  bare: boolean;
}

export type TableName = 'signedOutRoutes' | 'signedInRoutes';

/** A table's entries in order; a spread of another table (`...firstConsoleRoutes`) is followed. */
export function routeTable(table: TableName | 'firstConsoleRoutes'): RouteEntry[] {
  const source = ROUTE_SOURCES.find((s) => s.includes(`export const ${table}`));
  if (!source) throw new Error(`No route table ${table} in web/src/app`);
  const start = source.indexOf(`export const ${table}`);
  const body = source.slice(source.indexOf('[', source.indexOf('=', start)), source.indexOf('];', start));
  const entries: RouteEntry[] = [];
  const item = /paths:\s*\[([^\]]*)\],\s*screen:\s*screens\.(\w+)(,\s*bare: true)?|\.\.\.(\w+)/g;
  for (const match of body.matchAll(item)) {
    if (match[4]) {
      entries.push(...routeTable(match[4] as TableName));
      continue;
    }
    const paths = [...match[1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
    entries.push({ paths, screen: match[2]!, bare: Boolean(match[3]) });
  }
  return entries;
}

/** A path a browser can open for a wouter pattern (`:wakeWord?` and `:id` get sample values). */
export function openablePath(pattern: string): string {
  return pattern.replace('/:wakeWord?', '/hey-nexus').replace('/:id', '/7');
}

/** Whether a concrete path is one of a wouter pattern's (`:name` one segment, `:name?` optional). */
export function matchesPattern(pattern: string, path: string): boolean {
  const source = pattern
    .split('/')
    .map((part) => {
      if (part.startsWith(':')) return part.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+';
      return part ? `/${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` : '';
    })
    .join('');
  return new RegExp(`^${source || '/'}$`).test(path);
}

/**
 * Each screen key of the route sources' `screens` objects with what it renders, `module#Export`:
 * two keys rendering the same component are aliases of one screen.
 */
export function screenComponents(): Map<string, string> {
  const found = new Map<string, string>();
  for (const source of ROUTE_SOURCES) {
    const start = source.search(/^(export )?const screens = \{/m);
    const body = source.slice(start, source.indexOf('\n} satisfies', start));
    const keys = [...body.matchAll(/^ {2}(\w+): /gm)];
    keys.forEach((key, i) => {
      const text = body.slice(key.index, keys[i + 1]?.index ?? body.length);
      const loaded = /import\('([^']+)'\)\)\.(\w+)/.exec(text);
      if (loaded) found.set(key[1]!, `${loaded[1]}#${loaded[2]}`);
    });
  }
  return found;
}
