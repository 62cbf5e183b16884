/**
 * A few checks of an answer's shape for the first pages (issue 26): the session check, the setup
 * status and the sign-in screen run before any screen needs zod, and loading zod and the agent's
 * schemas for them would double the first page's JavaScript; likewise the console's frame and the
 * dashboard's reads, so that a signed-in owner's first values do not wait for zod. Each shape built
 * here mirrors one contract schema and is tested against it (web/src/data/auth-session.test.ts,
 * web/src/data/dashboard-shapes.test.ts): it accepts what the schema accepts and, like a zod
 * object, keeps only the keys it names. Every other answer is parsed with the contract's zod
 * schemas, loaded with the screens that use them.
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

/** z.number(): any finite number (JSON has no other). */
export const number: Shape<number> = (value, path) =>
  typeof value === 'number' && Number.isFinite(value) ? value : fail(path, 'a number');

/** z.number().int().nonnegative(). */
export const count: Shape<number> = (value, path) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : fail(path, 'a count');

/** z.number().int().positive(). */
export const positiveInteger: Shape<number> = (value, path) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0
    ? value
    : fail(path, 'a positive integer');

/** z.unknown() in an object: anything, unchecked, but the key is there (JSON has no undefined). */
export const unknown: Shape<unknown> = (value, path) => (value === undefined ? fail(path, 'given') : value);

export function literal<const V extends string | number | boolean>(expected: V): Shape<V> {
  return (value, path) => (value === expected ? expected : fail(path, JSON.stringify(expected)));
}

export function oneOf<const V extends string>(values: readonly V[]): Shape<V> {
  return (value, path) =>
    values.includes(value as V) ? (value as V) : fail(path, `one of ${values.join(', ')}`);
}

export function nullable<T>(shape: Shape<T>): Shape<T | null> {
  return (value, path) => (value === null ? null : shape(value, path));
}

/** `.optional()`: also undefined (an absent key stays absent in an object). */
export function optional<T>(shape: Shape<T>): Shape<T | undefined> {
  return (value, path) => (value === undefined ? undefined : shape(value, path));
}

export function array<T>(item: Shape<T>): Shape<T[]> {
  return (value, path) =>
    Array.isArray(value) ? value.map((v, i) => item(v, `${path}[${i}]`)) : fail(path, 'a list');
}

export function tuple<T extends unknown[]>(...items: { [K in keyof T]: Shape<T[K]> }): Shape<T> {
  return (value, path) =>
    Array.isArray(value) && value.length === items.length
      ? (items.map((item, i) => item(value[i], `${path}[${i}]`)) as T)
      : fail(path, `a list of ${items.length}`);
}

/** z.union: the first shape that accepts the value. */
export function either<A, B>(a: Shape<A>, b: Shape<B>): Shape<A | B> {
  return (value, path) => {
    try {
      return a(value, path);
    } catch {
      return b(value, path);
    }
  };
}

/** z.discriminatedUnion: the object shape named by the value's `key`. */
export function byKey<T>(key: string, shapes: Record<string, Shape<T>>): Shape<T> {
  return (value, path) => {
    const tag =
      typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    const shape = typeof tag === 'string' && Object.hasOwn(shapes, tag) ? shapes[tag] : undefined;
    return shape
      ? shape(value, path)
      : fail(path ? `${path}.${key}` : key, `one of ${Object.keys(shapes).join(', ')}`);
  };
}

export function object<T extends Record<string, unknown>>(fields: { [K in keyof T]: Shape<T[K]> }): Shape<T> {
  return (value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'an object');
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(fields)) {
      const field = fields[key as keyof T](source[key], path ? `${path}.${key}` : key);
      // As zod: an optional key the answer leaves out stays out.
      if (field !== undefined || key in source) out[key] = field;
    }
    return out as T;
  };
}

/** Checks `value` against `shape`; throws a TypeError naming the first field that is off. */
export function parseShape<T>(shape: Shape<T>, value: unknown): T {
  return shape(value, '');
}
