/**
 * A few checks of an answer's shape for the first page (issue 26): the session check, the setup
 * status and the sign-in screen run before any screen needs zod, and loading zod and the agent's
 * schemas for them would double the first page's JavaScript. Each shape built here mirrors one
 * contract schema and is tested against it (web/src/data/auth-session.test.ts): it accepts what the
 * schema accepts and, like a zod object, keeps only the keys it names. Every other answer is parsed
 * with the contract's zod schemas, loaded with the screens that use them.
 */
export type Shape<T> = (value: unknown, path: string) => T;

function fail(path: string, expected: string): never {
  throw new TypeError(`Unexpected answer from the hub: ${path || 'the answer'} is not ${expected}`);
}

export const string: Shape<string> = (value, path) =>
  typeof value === 'string' ? value : fail(path, 'a string');

export const boolean: Shape<boolean> = (value, path) =>
  typeof value === 'boolean' ? value : fail(path, 'a boolean');

export const integer: Shape<number> = (value, path) =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : fail(path, 'an integer');

export function oneOf<const V extends string>(values: readonly V[]): Shape<V> {
  return (value, path) =>
    values.includes(value as V) ? (value as V) : fail(path, `one of ${values.join(', ')}`);
}

export function nullable<T>(shape: Shape<T>): Shape<T | null> {
  return (value, path) => (value === null ? null : shape(value, path));
}

export function object<T extends Record<string, unknown>>(fields: { [K in keyof T]: Shape<T[K]> }): Shape<T> {
  return (value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'an object');
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(fields)) {
      out[key] = fields[key as keyof T](source[key], path ? `${path}.${key}` : key);
    }
    return out as T;
  };
}

/** Checks `value` against `shape`; throws a TypeError naming the first field that is off. */
export function parseShape<T>(shape: Shape<T>, value: unknown): T {
  return shape(value, '');
}
