/**
 * Bad input for every route, derived from the JSON Schema of its validators (GET /api/docs/routes):
 * missing and extra fields, wrong types, null, huge strings, deep nesting, unicode oddities, empty
 * bodies, invalid JSON and wrong content types. Pure and deterministic: the same route and seed give
 * the same requests. Values that could make the agent dial out (URLs, host names) are loopback ones.
 */

export type JsonSchema = Record<string, unknown>;

export interface FuzzRoute {
  method: string;
  path: string;
  input: { json?: JsonSchema; query?: JsonSchema; param?: JsonSchema; form?: JsonSchema };
}

export type FuzzKind =
  | 'missing-required'
  | 'wrong-type'
  | 'null'
  | 'extra-field'
  | 'huge-string'
  | 'over-limit'
  | 'deep-nesting'
  | 'unicode'
  | 'empty-body'
  | 'invalid-json'
  | 'content-type'
  | 'bad-param'
  | 'bad-query';

export const FUZZ_KINDS: readonly FuzzKind[] = [
  'missing-required',
  'wrong-type',
  'null',
  'extra-field',
  'huge-string',
  'over-limit',
  'deep-nesting',
  'unicode',
  'empty-body',
  'invalid-json',
  'content-type',
  'bad-param',
  'bad-query',
];

export interface FuzzRequest {
  kind: FuzzKind;
  /** What was sent, for a failure message. */
  note: string;
  method: string;
  /** The path with parameters filled and the query string, ready to append to the base URL. */
  url: string;
  /** A string is sent as UTF-8; bytes as they are (then fetch adds no content type). */
  body?: string | Uint8Array;
  /** undefined: none. */
  contentType?: string;
}

export interface FuzzOptions {
  seed: number;
  /** The agent's body limit in bytes (DEFAULT_BODY_LIMIT). */
  bodyLimit: number;
  /** The deepest JSON the agent accepts (MAX_JSON_DEPTH). */
  maxDepth: number;
  /** A path parameter naming nothing, used while another part is fuzzed. */
  sampleParam: string;
  /** Fewer, cheaper cases (no huge bodies): for callers the guard refuses before any input is read. */
  light?: boolean;
}

/** A small seeded generator (mulberry32): the fuzz is the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Strings that have broken parsers, databases, logs and renderers. */
export const UNICODE_ODDITIES: readonly string[] = [
  '\ud800', // lone high surrogate
  'a\udc00b', // lone low surrogate
  'a\u0000b', // NUL
  '\u202eevil\u202c', // right-to-left override
  '\u200f\u200e\u061c', // direction marks
  '\ud83d\udc4d\ud83c\udffd\ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67', // emoji, skin tone, ZWJ family
  `e${'\u0301'.repeat(64)}`, // stacked combining marks
  '\ufeff\u200b\u2060', // BOM, zero-width space, word joiner
  '\ud835\udd73\ud835\udd8a\ud835\udd91', // astral letters
  '\u0000'.repeat(8),
];

/** Path parameter values no row matches and no coercion turns into an existing id (never 1, 0x1, " 1"). */
export const BAD_PARAMS: readonly string[] = [
  'abc',
  '-1',
  '1.5',
  '9'.repeat(400),
  '1e400',
  '%00',
  '%zz',
  '%ED%A0%80', // a UTF-8-encoded lone surrogate
  '%E2%80%AE',
  'a%2Fb',
];

const HOSTLIKE = /url|uri|host|address|endpoint|server|origin/i;
const LOOPBACK_URL = 'http://127.0.0.1:9/';

/** Whether a field could be dialled: it keeps its loopback sample instead of odd strings. */
export function isHostLike(name: string, schema: JsonSchema): boolean {
  return HOSTLIKE.test(name) || schema.format === 'uri' || schema.format === 'url';
}

/** The branch of an anyOf/oneOf that is not null, or the schema itself. */
function concrete(schema: JsonSchema): JsonSchema {
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (!branches) return schema;
  return concrete(branches.find((b) => b.type !== 'null') ?? branches[0] ?? {});
}

function typeOf(schema: JsonSchema): string | undefined {
  const s = concrete(schema);
  if (s.const !== undefined) return typeof s.const === 'number' ? 'number' : typeof s.const;
  if (Array.isArray(s.enum)) return typeof s.enum[0];
  return Array.isArray(s.type) ? (s.type[0] as string) : (s.type as string | undefined);
}

const PATTERN_CANDIDATES = [
  '127.0.0.1',
  'abc',
  'a',
  '123456',
  'ab_cd',
  'a.b',
  'abcdefghijklmnopqrstuvwxyz012345',
  'en',
];

/**
 * A value the schema probably accepts (enough to get past validation to the service, where the
 * interesting bugs live). Host-like strings are loopback and numbers small, so nothing dials out.
 */
export function sampleValue(schema: JsonSchema, name = ''): unknown {
  const s = concrete(schema);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.default !== undefined) return s.default;
  switch (typeOf(s)) {
    case 'string': {
      if (s.format === 'uri' || s.format === 'url' || /url|uri/i.test(name)) return LOOPBACK_URL;
      if (s.format === 'email') return 'fuzz@example.com';
      if (s.format === 'date-time') return '2024-01-01T00:00:00Z';
      const min = typeof s.minLength === 'number' ? s.minLength : 1;
      const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
      const fits = (v: string) =>
        v.length >= min && v.length <= max && (!s.pattern || new RegExp(s.pattern as string, 'u').test(v));
      if (HOSTLIKE.test(name) && fits('127.0.0.1')) return '127.0.0.1';
      return PATTERN_CANDIDATES.find(fits) ?? 'a'.repeat(Math.min(min, 4096));
    }
    case 'integer':
    case 'number': {
      if (typeof s.minimum === 'number') return s.minimum;
      if (typeof s.exclusiveMinimum === 'number') return Math.floor(s.exclusiveMinimum) + 1;
      return 1;
    }
    case 'boolean':
      return false;
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      return Array.from({ length: min }, () => sampleValue((s.items as JsonSchema) ?? {}, name));
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const required = (s.required ?? []) as string[];
      return Object.fromEntries(required.map((key) => [key, sampleValue(props[key] ?? {}, key)]));
    }
    case 'null':
      return null;
    default:
      return 'a';
  }
}

/** Values of other JSON types than the schema's. */
export function wrongTypeValues(schema: JsonSchema): unknown[] {
  const all: Record<string, unknown[]> = {
    string: ['fuzz', ''],
    number: [12345, -1.5, 1e308],
    boolean: [true],
    array: [[1, 'a', null]],
    object: [{ nested: { deeper: 1 } }],
  };
  let type = typeOf(schema);
  if (type === 'integer') type = 'number';
  const wrong = Object.entries(all)
    .filter(([t]) => t !== type)
    .flatMap(([, v]) => v);
  // Integers also get a fraction and the unsafe range; strings that look like numbers test coercion.
  if (typeOf(schema) === 'integer') wrong.push(1.5, 2 ** 60);
  if (type === 'number') wrong.push('42', 'NaN');
  return wrong;
}

function properties(schema: JsonSchema | undefined): [string, JsonSchema][] {
  if (!schema) return [];
  return Object.entries((concrete(schema).properties ?? {}) as Record<string, JsonSchema>);
}

function requiredOf(schema: JsonSchema): string[] {
  return (concrete(schema).required ?? []) as string[];
}

/** Percent-encodes a string for a URL, lone surrogates included (encodeURIComponent throws on them). */
export function encodeLoose(value: string): string {
  return [...value]
    .map((ch) => {
      const code = ch.codePointAt(0)!;
      if (code >= 0xd800 && code <= 0xdfff) {
        // WTF-8: the bytes a lone surrogate would have, which no valid UTF-8 decoder accepts.
        return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
      }
      return encodeURIComponent(ch);
    })
    .join('');
}

function queryString(values: Record<string, unknown>): string {
  const parts = Object.entries(values).flatMap(([k, v]) =>
    Array.isArray(v)
      ? v.map((item) => `${encodeLoose(k)}=${encodeLoose(String(item))}`)
      : [
          `${encodeLoose(k)}=${encodeLoose(typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))}`,
        ],
  );
  return parts.length ? `?${parts.join('&')}` : '';
}

function nested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** Cases of each kind a caller refused before any input is read gets: the guard must still win. */
const LIGHT_PER_KIND = 3;

/** Every bad request for one route (with `light`, the first few of each kind). */
export function fuzzRequests(route: FuzzRoute, opts: FuzzOptions): FuzzRequest[] {
  const all = allRequests(route, opts);
  if (!opts.light) return all;
  const seen = new Map<FuzzKind, number>();
  return all.filter((req) => {
    const n = (seen.get(req.kind) ?? 0) + 1;
    seen.set(req.kind, n);
    return n <= LIGHT_PER_KIND;
  });
}

function allRequests(route: FuzzRoute, opts: FuzzOptions): FuzzRequest[] {
  const random = seededRandom(opts.seed);
  const out: FuzzRequest[] = [];
  const fill = (value: (name: string) => string = () => opts.sampleParam) =>
    route.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => value(name));
  const querySample = route.input.query ? (sampleValue(route.input.query) as Record<string, unknown>) : {};
  const baseUrl = fill() + queryString(querySample);
  const hasBody = !['GET', 'HEAD'].includes(route.method);
  const jsonSchema = route.input.json;
  const bodySample = jsonSchema ? sampleValue(jsonSchema) : {};
  const add = (kind: FuzzKind, note: string, req: Partial<FuzzRequest>) =>
    out.push({ kind, note, method: route.method, url: baseUrl, ...req });
  const json = (kind: FuzzKind, note: string, value: unknown) =>
    add(kind, note, { body: JSON.stringify(value), contentType: 'application/json' });
  const withField = (key: string, value: unknown) =>
    typeof bodySample === 'object' && bodySample !== null && !Array.isArray(bodySample)
      ? { ...bodySample, [key]: value }
      : { [key]: value };
  const randomString = (length: number) =>
    Array.from({ length }, () => {
      const code = Math.floor(random() * 0x30000);
      return String.fromCodePoint(code >= 0xd800 && code <= 0xdfff ? 0x41 : code);
    }).join('');

  // Path parameters: each in turn gets values no row has and no coercion makes an id.
  const paramNames = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  for (const name of paramNames) {
    for (const bad of BAD_PARAMS) {
      add('bad-param', `:${name}=${bad}`, {
        url: fill((n) => (n === name ? bad : opts.sampleParam)) + queryString(querySample),
        ...(hasBody ? { body: JSON.stringify(bodySample), contentType: 'application/json' } : {}),
      });
    }
  }

  // Query strings: missing, wrong, odd, repeated, huge and badly encoded values.
  if (route.input.query) {
    const path = fill();
    const q = (note: string, query: string) => add('bad-query', note, { url: path + query });
    for (const key of requiredOf(route.input.query)) {
      const { [key]: _missing, ...rest } = querySample;
      q(`without ${key}`, queryString(rest));
    }
    for (const [key, schema] of properties(route.input.query)) {
      if (isHostLike(key, schema)) continue;
      for (const bad of ['abc', '-1', '1e400', '', '[]', ...UNICODE_ODDITIES.slice(0, 4)]) {
        q(`${key}=${JSON.stringify(bad)}`, queryString({ ...querySample, [key]: bad }));
      }
      q(`${key} repeated`, queryString({ ...querySample, [key]: ['1', '2'] }));
      q(`${key} invalid percent-encoding`, `${queryString(querySample) || '?'}&${encodeLoose(key)}=%zz%`);
      if (!opts.light) q(`${key} 8000 chars`, queryString({ ...querySample, [key]: 'x'.repeat(8000) }));
    }
    q('unknown key', queryString({ ...querySample, unknownFuzzKey: 'x' }));
  }

  if (!hasBody) return out;

  // Bodies every route must refuse cleanly, with or without a schema.
  add('empty-body', 'empty, typed JSON', { body: '', contentType: 'application/json' });
  add('empty-body', 'no body, no type', {});
  for (const bad of ['{', "{'a':1}", '{"a":1}{"b":2}', '"\\ud800', '\u0000']) {
    add('invalid-json', bad, { body: bad, contentType: 'application/json' });
  }
  add('invalid-json', 'invalid UTF-8 bytes', {
    body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]),
    contentType: 'application/json',
  });
  const text = JSON.stringify(bodySample);
  add('content-type', 'text/plain', { body: text, contentType: 'text/plain' });
  add('content-type', 'form-urlencoded', {
    body: 'a=1&b=%zz&c',
    contentType: 'application/x-www-form-urlencoded',
  });
  add('content-type', 'multipart', {
    body: '--fuzz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--fuzz--\r\n',
    contentType: 'multipart/form-data; boundary=fuzz',
  });
  add('content-type', 'multipart without boundary', { body: 'a', contentType: 'multipart/form-data' });
  add('content-type', 'multipart, truncated', {
    body: '--fuzz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
    contentType: 'multipart/form-data; boundary=fuzz',
  });
  add('content-type', 'none', { body: new TextEncoder().encode(text) });
  add('content-type', 'application/xml', { body: '<a/>', contentType: 'application/xml' });
  add('content-type', 'JSON as UTF-16', { body: text, contentType: 'application/json; charset=utf-16' });
  add('deep-nesting', `${opts.maxDepth + 1} levels`, {
    body: `{"a":${nested(opts.maxDepth)}}`,
    contentType: 'application/json',
  });
  add('deep-nesting', '100000 levels', { body: nested(100_000), contentType: 'application/json' });
  add('deep-nesting', `${opts.maxDepth - 2} levels, under the limit`, {
    body: JSON.stringify(withField('deep', JSON.parse(nested(opts.maxDepth - 3)))),
    contentType: 'application/json',
  });
  if (!opts.light) {
    add('over-limit', `${opts.bodyLimit + 1} bytes`, {
      body: JSON.stringify(withField('huge', 'x'.repeat(opts.bodyLimit))),
      contentType: 'application/json',
    });
  }

  // The root of the body: wrong types and null.
  for (const root of [null, [], 'fuzz', 42, true]) json('wrong-type', `body ${JSON.stringify(root)}`, root);
  json('extra-field', 'unknown field', withField('unknownFuzzField', 'x'));
  add('extra-field', '__proto__', {
    body: `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"__proto__":{"role":"superadmin","isAdmin":true}}`,
    contentType: 'application/json',
  });
  json('extra-field', 'constructor.prototype', withField('constructor', { prototype: { polluted: true } }));

  if (!jsonSchema) return out;

  json('missing-required', 'empty object', {});
  const sample = bodySample as Record<string, unknown>;
  for (const key of requiredOf(jsonSchema)) {
    const { [key]: _missing, ...rest } = sample;
    json('missing-required', `without ${key}`, rest);
  }
  let huge = 0;
  for (const [key, schema] of properties(jsonSchema)) {
    for (const wrong of wrongTypeValues(schema))
      json('wrong-type', `${key}: ${JSON.stringify(wrong)}`, withField(key, wrong));
    json('null', `${key}: null`, withField(key, null));
    if (typeOf(schema) !== 'string' || isHostLike(key, schema)) continue;
    for (const odd of opts.light ? UNICODE_ODDITIES.slice(0, 2) : UNICODE_ODDITIES) {
      json('unicode', `${key}: ${JSON.stringify(odd).slice(0, 40)}`, withField(key, odd));
    }
    if (!opts.light) json('unicode', `${key}: seeded random code points`, withField(key, randomString(64)));
    if (!opts.light && huge < 2) {
      huge += 1;
      // Close to the limit but under it: the body is read, parsed and validated.
      json(
        'huge-string',
        `${key}: ${opts.bodyLimit - 4096} chars`,
        withField(key, 'x'.repeat(opts.bodyLimit - 4096)),
      );
    }
  }
  return out;
}
