import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The console's route table (web/src/app/routes.tsx), read from its source so a route added there
 * is covered by the specs without an edit here. One entry per line of the table: its paths (the
 * aliases of one screen) and the key of the screen it opens.
 */
export interface RouteEntry {
  paths: string[];
  screen: string;
  bare: boolean;
}

export function routeTable(table: 'signedOutRoutes' | 'signedInRoutes'): RouteEntry[] {
  const source = fs.readFileSync(
    fileURLToPath(new URL('../../web/src/app/routes.tsx', import.meta.url)),
    'utf8',
  );
  const start = source.indexOf(`export const ${table}`);
  const body = source.slice(start, source.indexOf('\n];', start));
  const entries: RouteEntry[] = [];
  for (const match of body.matchAll(/paths:\s*\[([^\]]*)\],\s*screen:\s*screens\.(\w+)(,\s*bare: true)?/g)) {
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
 * Each screen key of the table's `screens` object with what it renders, `module#Export` (its own key
 * for a screen not built yet): two keys rendering the same component are aliases of one screen.
 */
export function screenComponents(): Map<string, string> {
  const source = fs.readFileSync(
    fileURLToPath(new URL('../../web/src/app/routes.tsx', import.meta.url)),
    'utf8',
  );
  const start = source.indexOf('export const screens = {');
  const body = source.slice(start, source.indexOf('\n} satisfies', start));
  const found = new Map<string, string>();
  const keys = [...body.matchAll(/^ {2}(\w+): /gm)];
  keys.forEach((key, i) => {
    const text = body.slice(key.index, keys[i + 1]?.index ?? body.length);
    const loaded = /import\('([^']+)'\)\)\.(\w+)/.exec(text);
    found.set(key[1]!, loaded ? `${loaded[1]}#${loaded[2]}` : key[1]!);
  });
  return found;
}
