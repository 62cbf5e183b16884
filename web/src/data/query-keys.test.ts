import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type * as Request from '@/lib/request';

// Every GET the data layer makes is recorded instead of sent.
const requested: string[] = [];
vi.mock('@/lib/request', async (importOriginal) => {
  const actual = await importOriginal<typeof Request>();
  const record = async (_method: string, path: string) => {
    requested.push(path);
    throw new Error('recorded');
  };
  return { ...actual, apiJson: vi.fn(record), apiRequest: vi.fn(record) };
});

const modules = import.meta.glob<Record<string, unknown>>(['./*.ts', '!./*.test.ts'], { eager: true });

interface Options {
  queryKey: readonly unknown[];
  queryFn?: (context: unknown) => Promise<unknown>;
}

/** The path each argument-free query of every data module fetches, with the key it caches it under. */
async function keysByPath(): Promise<Map<string, Set<string>>> {
  const byPath = new Map<string, Set<string>>();
  const client = new QueryClient();
  for (const [file, exports] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(exports)) {
      if (!name.endsWith('QueryOptions') || typeof value !== 'function' || value.length > 0) continue;
      const options = (value as () => Options)();
      requested.length = 0;
      await options
        .queryFn?.({
          queryKey: options.queryKey,
          signal: new AbortController().signal,
          meta: undefined,
          client,
        })
        .catch(() => undefined);
      for (const path of requested) {
        const keys = byPath.get(path) ?? new Set<string>();
        keys.add(`${JSON.stringify(options.queryKey)} (${file} ${name})`);
        byPath.set(path, keys);
      }
    }
  }
  return byPath;
}

describe('the data layer: one query key per endpoint', () => {
  it('never caches one endpoint under two keys (a screen would show stale data after another changes it)', async () => {
    const byPath = await keysByPath();
    expect(byPath.size).toBeGreaterThan(20);
    const clashes = [...byPath].filter(
      ([, keys]) => new Set([...keys].map((k) => k.split(' (')[0])).size > 1,
    );
    expect(clashes).toEqual([]);
  });

  it("reads Docker's engine under the Docker screen's key, wherever it is asked (setup's step too)", async () => {
    const byPath = await keysByPath();
    const engineKeys = [...(byPath.get('/api/docker/engine') ?? [])].map((k) => k.split(' (')[0]);
    expect(new Set(engineKeys)).toEqual(new Set([JSON.stringify(['/api/docker', 'engine'])]));
    expect(Object.keys(modules['./setup.ts'] ?? {})).not.toContain('engineQueryOptions');
  });
});
