import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toJsonSchema } from '../../agent/src/features/docs/docs.service.js';
import {
  BAD_PARAMS,
  FUZZ_KINDS,
  UNICODE_ODDITIES,
  encodeLoose,
  fuzzRequests,
  sampleValue,
  seededRandom,
  type FuzzRoute,
} from '../support/fuzz.js';

const LIMIT = 1024 * 1024;
const opts = { seed: 7, bodyLimit: LIMIT, maxDepth: 64, sampleParam: '999999' };

const body = z.object({
  name: z.string().min(1).max(100),
  port: z.number().int().min(1).max(65535),
  enabled: z.boolean().optional(),
  url: z.url(),
  tags: z.array(z.string()).min(1),
});
const route: FuzzRoute = {
  method: 'PUT',
  path: '/api/things/:id',
  input: {
    json: toJsonSchema(body),
    query: toJsonSchema(z.object({ limit: z.coerce.number().int().max(100) })),
    param: toJsonSchema(z.object({ id: z.coerce.number().int().positive() })),
  },
};
const json = (b: unknown) => (typeof b === 'string' ? (JSON.parse(b) as Record<string, unknown>) : undefined);

describe('the route fuzz generator', () => {
  const requests = fuzzRequests(route, opts);
  const of = (kind: string) => requests.filter((r) => r.kind === kind);

  it('covers every kind of bad input for a route with a body, a query and a path parameter', () => {
    expect(new Set(requests.map((r) => r.kind))).toEqual(new Set(FUZZ_KINDS));
  });

  it('is deterministic: the same route and seed give the same requests', () => {
    const again = fuzzRequests(route, opts);
    expect(again.map((r) => [r.url, r.body, r.contentType])).toEqual(
      requests.map((r) => [r.url, r.body, r.contentType]),
    );
    expect(seededRandom(1)()).toBe(seededRandom(1)());
    expect(seededRandom(1)()).not.toBe(seededRandom(2)());
  });

  it('starts from a sample the schema accepts, with loopback URLs', () => {
    const sample = sampleValue(route.input.json!);
    expect(body.safeParse(sample).success).toBe(true);
    expect(sample).toMatchObject({ url: 'http://127.0.0.1:9/' });
  });

  it('leaves out each required field in turn, and sends an empty object', () => {
    const bodies = of('missing-required').map((r) => json(r.body)!);
    expect(bodies).toContainEqual({});
    for (const field of ['name', 'port', 'url', 'tags']) {
      expect(bodies.some((b) => !(field in b) && Object.keys(b).length === 3)).toBe(true);
    }
  });

  it('gives every field values of the wrong type and null', () => {
    const bodies = of('wrong-type').map((r) => json(r.body));
    expect(bodies).toContainEqual(expect.objectContaining({ name: 12345 }));
    expect(bodies).toContainEqual(expect.objectContaining({ port: 'fuzz' }));
    expect(bodies).toContainEqual(expect.objectContaining({ port: 1.5 }));
    expect(bodies).toContainEqual(expect.objectContaining({ enabled: 'fuzz' }));
    expect(bodies).toContainEqual(expect.objectContaining({ tags: { nested: { deeper: 1 } } }));
    expect(of('wrong-type').map((r) => r.body)).toEqual(
      expect.arrayContaining(['null', '[]', '"fuzz"', '42']),
    );
    const nulls = of('null').map((r) => json(r.body)!);
    for (const field of ['name', 'port', 'enabled', 'url', 'tags']) {
      expect(nulls.some((b) => b[field] === null)).toBe(true);
    }
  });

  it('adds unknown fields, including prototype keys', () => {
    const texts = of('extra-field').map((r) => r.body as string);
    expect(texts.some((t) => t.includes('"unknownFuzzField"'))).toBe(true);
    expect(texts.some((t) => t.includes('"__proto__":{"role":"superadmin"'))).toBe(true);
    expect(texts.some((t) => t.includes('"constructor"'))).toBe(true);
  });

  it('sends strings close to the body limit, and a body over it', () => {
    const huge = of('huge-string');
    expect(huge.length).toBeGreaterThan(0);
    for (const r of huge) {
      const size = Buffer.byteLength(r.body as string);
      expect(size).toBeLessThan(LIMIT);
      expect(size).toBeGreaterThan(LIMIT - 8192);
    }
    expect(of('over-limit').every((r) => Buffer.byteLength(r.body as string) > LIMIT)).toBe(true);
  });

  it('nests JSON past the depth limit, far past it, and just under it', () => {
    const depths = of('deep-nesting').map(
      (r) => (r.body as string).match(/^[[{"a:]*/)![0].split('[').length - 1,
    );
    expect(depths).toEqual(expect.arrayContaining([64, 100_000]));
  });

  it('puts every unicode oddity in each string field, but never in a URL', () => {
    const bodies = of('unicode').map((r) => json(r.body)!);
    for (const odd of UNICODE_ODDITIES) expect(bodies.some((b) => b.name === odd)).toBe(true);
    expect(bodies.every((b) => b.url === 'http://127.0.0.1:9/')).toBe(true);
    // Lone surrogates survive serialisation as escapes, so the agent receives them.
    expect(of('unicode').some((r) => (r.body as string).includes('\\ud800'))).toBe(true);
  });

  it('sends empty bodies, invalid JSON and wrong content types', () => {
    expect(of('empty-body')).toContainEqual(
      expect.objectContaining({ body: '', contentType: 'application/json' }),
    );
    expect(of('empty-body').some((r) => r.body === undefined && r.contentType === undefined)).toBe(true);
    expect(of('invalid-json').some((r) => r.body instanceof Uint8Array)).toBe(true);
    expect(of('invalid-json').map((r) => r.body)).toContain('{');
    const types = of('content-type').map((r) => r.contentType);
    expect(types).toEqual(
      expect.arrayContaining([
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=fuzz',
        undefined,
      ]),
    );
  });

  it('fills path parameters with values no coercion turns into an existing id', () => {
    const urls = of('bad-param').map((r) => r.url);
    expect(urls).toHaveLength(BAD_PARAMS.length);
    for (const bad of BAD_PARAMS) {
      let coerced = NaN;
      try {
        coerced = Number(decodeURIComponent(bad));
      } catch {
        // Not even decodable: no id.
      }
      expect(Number.isInteger(coerced) && coerced > 0 && coerced < 1e6, bad).toBe(false);
    }
    // Everything else keeps the sample: only the parameter under test changes.
    expect(of('wrong-type').every((r) => r.url.startsWith('/api/things/999999?limit='))).toBe(true);
  });

  it('sends missing, wrong, odd and badly encoded query values', () => {
    const urls = of('bad-query').map((r) => r.url);
    expect(urls).toContain('/api/things/999999');
    expect(urls).toContain('/api/things/999999?limit=abc');
    expect(urls.some((u) => u.includes('%zz'))).toBe(true);
    expect(urls).toContain('/api/things/999999?limit=1&limit=2');
    expect(urls.some((u) => u.includes('limit=%ED%A0%80'))).toBe(true);
  });

  it('sends only the generic bodies to a route without a schema, and nothing to a GET without one', () => {
    const plain = fuzzRequests({ method: 'POST', path: '/api/x', input: {} }, opts);
    expect(new Set(plain.map((r) => r.kind))).toEqual(
      new Set([
        'empty-body',
        'invalid-json',
        'content-type',
        'deep-nesting',
        'over-limit',
        'wrong-type',
        'extra-field',
      ]),
    );
    expect(fuzzRequests({ method: 'GET', path: '/api/x', input: {} }, opts)).toEqual([]);
  });

  it('keeps host-like fields on loopback', () => {
    const schema = toJsonSchema(z.object({ host: z.string(), serverAddress: z.string() }));
    expect(sampleValue(schema)).toEqual({ host: '127.0.0.1', serverAddress: '127.0.0.1' });
  });

  it('percent-encodes lone surrogates instead of throwing', () => {
    expect(() => encodeURIComponent('\ud800')).toThrow();
    expect(encodeLoose('a\ud800')).toBe('a%ED%A0%80');
  });
});
