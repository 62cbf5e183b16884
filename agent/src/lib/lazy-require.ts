import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A dependency loaded on first use, synchronously through its CommonJS build, for code paths that
 * must stay synchronous. What only rare requests need (sign-in with a 2FA code, a browser's name
 * for a session) then costs an idle hub no memory. Use only for packages that ship a `require`
 * entry; an `import()` is the way where the caller is async.
 */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
