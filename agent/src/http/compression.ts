import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';

/**
 * JSON answers are compressed from this size up. Below it the saving is a few hundred bytes at
 * most (less than the headers of the exchange), while compressing still costs CPU and a thread
 * pool round trip: the status polls (about 200 bytes) stay as they are.
 */
export const COMPRESS_MIN_BYTES = 1024;

export type ContentEncoding = 'br' | 'gzip';

/**
 * The encoding to answer in for an Accept-Encoding header (RFC 9110 §12.5.3): the one with the
 * higher weight, brotli on a tie (smaller for JSON at the same CPU); `q=0` refuses, `*` stands for
 * anything not named. Undefined when the client accepts neither: the answer is sent as it is.
 */
export function pickEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';');
    const q = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name.trim().toLowerCase(), Number.isFinite(weight) ? weight : 0);
  }
  const any = weights.get('*') ?? 0;
  const br = weights.get('br') ?? any;
  const gzip = weights.get('gzip') ?? weights.get('x-gzip') ?? any;
  if (br <= 0 && gzip <= 0) return undefined;
  return br >= gzip ? 'br' : 'gzip';
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Compresses on libuv's thread pool, so a large answer (the diagnostics bundle) does not hold up
 * other requests. Brotli at quality 4: for JSON of a few KB to a few MB it is about as fast as
 * gzip's default and still smaller; the top qualities are for files compressed once at build time.
 */
export function compressBody(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzip(body);
}

/** Only JSON documents: not application/x-ndjson or text/event-stream, which are streams. */
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/**
 * The text of an answer made by `c.json`, read without turning it into a full Response.
 *
 * Why: @hono/node-server answers with a lightweight Response that keeps a string body as it is and
 * writes it straight to the socket; reading `body` or `arrayBuffer()` builds the full web Response
 * instead, which made every small JSON answer pay for one (the status read through Hono fell from a
 * quarter to a twelfth of a bare server's rate). Its cache is a symbol-keyed [status, body, headers]
 * triple; where there is none (another kind of Response) this answers undefined and the caller reads
 * the body as before.
 */
function lightweightText(res: Response): string | undefined {
  const key = Object.getOwnPropertySymbols(res).find((symbol) => symbol.description === 'cache');
  const cached = key ? (res as unknown as Record<symbol, unknown>)[key] : undefined;
  return Array.isArray(cached) && typeof cached[1] === 'string' ? cached[1] : undefined;
}

/** Answers without a body, or whose body must not change: left exactly as the route made them. */
function untouchable(c: Context): boolean {
  const res = c.res;
  if (c.req.method === 'HEAD') return true;
  if (res.status === 204 || res.status === 206 || res.status === 304) return true;
  // Headers first: reading `body` makes @hono/node-server build a full Response, which a stream
  // or a file download has no reason to pay for.
  if (!JSON_TYPE.test(res.headers.get('content-type') ?? '')) return true;
  if (res.headers.has('content-encoding')) return true;
  if (NO_TRANSFORM.test(res.headers.get('cache-control') ?? '')) return true;
  const length = res.headers.get('content-length');
  if (length !== null && Number(length) < COMPRESS_MIN_BYTES) return true;
  const text = lightweightText(res);
  if (text !== undefined) return Buffer.byteLength(text) < COMPRESS_MIN_BYTES;
  return !res.body;
}

/**
 * Compresses the API's JSON answers of COMPRESS_MIN_BYTES and more when the client accepts br or
 * gzip, with `Vary: Accept-Encoding` (a cache must not hand the compressed copy to a client that
 * cannot read it). A JSON answer is a whole document already in memory, so reading it costs no
 * waiting. Everything that streams is left alone and still flushes at once: server-sent events
 * (text/event-stream), NDJSON progress (application/x-ndjson), log follows, downloads (backups,
 * CSV, recordings), the WebSocket upgrade; Hono's `compress` middleware was not used because it
 * compresses every compressible type, event streams included, through a CompressionStream that
 * holds small writes back, and compresses small JSON whose length it does not know.
 */
export const compressJsonAnswers = createMiddleware(async (c, next) => {
  await next();
  if (untouchable(c)) return;
  const res = c.res;
  const body = Buffer.from(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  let sent: Buffer = body;
  if (body.length >= COMPRESS_MIN_BYTES) {
    headers.append('Vary', 'Accept-Encoding');
    const encoding = pickEncoding(c.req.header('accept-encoding'));
    if (encoding) {
      sent = await compressBody(body, encoding);
      headers.set('Content-Encoding', encoding);
      headers.set('Content-Length', String(sent.length));
      const etag = headers.get('ETag');
      // The compressed bytes are not the entity the strong validator named (RFC 9110 §8.8.1).
      if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
    }
  }
  // Cleared first: assigning over an existing answer makes Hono copy the old headers onto the new
  // one, which would bring back a stale Content-Length.
  c.res = undefined as unknown as Response;
  c.res = new Response(new Uint8Array(sent.buffer, sent.byteOffset, sent.length) as Uint8Array<ArrayBuffer>, {
    status: res.status,
    statusText: res.statusText,
    headers,
  });
});
