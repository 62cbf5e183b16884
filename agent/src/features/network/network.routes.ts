import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { networkToolInputSchemas, networkToolParamSchema } from '../../contract/wireguard.js';
import type { NetworkToolDone } from '../../contract/network.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import { HttpError, badRequest } from '../../lib/http-error.js';
import type { NetworkTools, StreamedTool } from './network-tools.service.js';
import type { NetworkService } from './network.service.js';

const MB = 1024 * 1024;
/** The throughput test's bytes: one random block repeated, so a compressing proxy cannot shrink it. */
const THROUGHPUT_CHUNK = 64 * 1024;
const THROUGHPUT_TIMEOUT_MS = 120_000;

function invalidBody(issues: { path: PropertyKey[]; message: string }[]): HttpError {
  const first = issues[0];
  const where = first?.path.length ? `${first.path.join('.')}: ` : '';
  return new HttpError(400, `Invalid json: ${where}${first?.message ?? 'invalid value'}`, issues);
}

/** Mounted at /api/network. */
export function networkRoutes(deps: { info: NetworkService; tools: NetworkTools }) {
  return new Hono<AppEnv>()
    .get('/info', requireUser, async (c) => c.json(await deps.info.info()))
    .post('/tools/:tool', requireAdmin, validate('param', networkToolParamSchema), async (c) => {
      const { tool } = c.req.valid('param');
      const userId = c.get('user').id;

      if (tool === 'throughput') {
        // The body is the upload's raw bytes, so the parameters come in the query.
        const parsed = networkToolInputSchemas.throughput.safeParse({
          direction: c.req.query('direction'),
          ...(c.req.query('megabytes') !== undefined ? { megabytes: Number(c.req.query('megabytes')) } : {}),
        });
        if (!parsed.success) throw invalidBody(parsed.error.issues);
        const { direction, megabytes } = parsed.data;
        const limit = megabytes * MB;
        if (direction === 'upload') {
          const declared = Number(c.req.header('content-length'));
          if (Number.isFinite(declared) && declared > limit) {
            throw new HttpError(413, `The upload is larger than the ${megabytes} MB asked for`);
          }
        }
        const release = deps.tools.acquire(userId);
        if (direction === 'download') return download(c.req.raw.signal, limit, release);
        try {
          const result = await upload(c.req.raw.body, limit, c.req.raw.signal);
          return streamSSE(c, async (stream) => {
            await stream.writeSSE({ event: 'line', data: JSON.stringify({ text: result.line }) });
            await stream.writeSSE({ event: 'done', data: JSON.stringify(result.done) });
          });
        } finally {
          release();
        }
      }

      const schema = networkToolInputSchemas[tool];
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        throw badRequest('Invalid json: the body must be a JSON object');
      }
      const parsed = schema.safeParse(body);
      if (!parsed.success) throw invalidBody(parsed.error.issues);
      // Validation (400) before the slot: a refused target does not count against the limit.
      const run = deps.tools.prepare(tool as StreamedTool, parsed.data as never);
      const release = deps.tools.acquire(userId);

      c.header('X-Accel-Buffering', 'no');
      c.header('Cache-Control', 'no-store');
      return streamSSE(c, async (stream) => {
        const stop = new AbortController();
        // The browser went away (Stop, a closed tab): the child is killed at once.
        stream.onAbort(() => stop.abort());
        const timer = setTimeout(() => stop.abort(), run.timeoutMs);
        let writes = Promise.resolve();
        const emit = (text: string) => {
          writes = writes.then(() => stream.writeSSE({ event: 'line', data: JSON.stringify({ text }) }));
        };
        try {
          const done = await run.run(emit, stop.signal);
          await writes;
          if (stop.signal.aborted && !stream.aborted) {
            await stream.writeSSE({
              event: 'error',
              data: JSON.stringify({ message: `Stopped after the ${run.timeoutMs / 1000} s limit` }),
            });
          } else if (!stream.aborted) {
            await stream.writeSSE({ event: 'done', data: JSON.stringify(done) });
          }
        } catch (err) {
          await writes.catch(() => undefined);
          if (!stream.aborted) {
            const message = err instanceof Error ? err.message : 'The tool failed';
            await stream.writeSSE({ event: 'error', data: JSON.stringify({ message }) });
          }
        } finally {
          clearTimeout(timer);
          release();
        }
      });
    });
}

/** Streams `limit` bytes; the browser times them. The slot is released when it ends or is cancelled. */
function download(signal: AbortSignal, limit: number, release: () => void): Response {
  const block = randomBytes(THROUGHPUT_CHUNK);
  let sent = 0;
  const timer = setTimeout(() => release(), THROUGHPUT_TIMEOUT_MS);
  const finish = () => {
    clearTimeout(timer);
    release();
  };
  signal.addEventListener('abort', finish, { once: true });
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= limit) {
        controller.close();
        finish();
        return;
      }
      const n = Math.min(THROUGHPUT_CHUNK, limit - sent);
      controller.enqueue(
        n === THROUGHPUT_CHUNK ? new Uint8Array(block) : new Uint8Array(block.subarray(0, n)),
      );
      sent += n;
    },
    cancel: finish,
  });
  return new Response(body, {
    headers: {
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(limit),
      'Cache-Control': 'no-store',
      'Content-Encoding': 'identity',
    },
  });
}

/** Reads the upload up to `limit` bytes (413 past it) and reports what the hub saw. */
async function upload(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  signal: AbortSignal,
): Promise<{ line: string; done: NetworkToolDone }> {
  if (!body) throw badRequest('The upload has no body');
  const reader = body.getReader();
  let bytes = 0;
  let first: number | null = null;
  // A stalled upload gives up; cancel() answers a promise whose failure means nothing here.
  const deadline = setTimeout(() => {
    reader.cancel().catch(() => undefined);
  }, THROUGHPUT_TIMEOUT_MS);
  try {
    for (;;) {
      if (signal.aborted) throw new HttpError(400, 'The upload was cancelled');
      const { done, value } = await reader.read();
      if (done) break;
      first ??= performance.now();
      bytes += value.byteLength;
      if (bytes > limit) {
        await reader.cancel();
        throw new HttpError(413, `The upload is larger than the ${limit / MB} MB asked for`);
      }
    }
  } finally {
    clearTimeout(deadline);
  }
  const seconds = first === null ? 0 : (performance.now() - first) / 1000;
  const mbps = seconds > 0 ? Math.round(((bytes * 8) / seconds / 1e6) * 10) / 10 : null;
  return {
    line: `Received ${(bytes / MB).toFixed(1)} MB in ${seconds.toFixed(2)} s`,
    done: {
      ok: true,
      summary: mbps === null ? `Received ${bytes} bytes` : `The hub received ${mbps} Mbit/s`,
      data: { bytes, seconds, mbps },
    },
  };
}
