import { HttpError } from '../lib/http-error.js';
import { OutboundRedirectError, OutboundRefusedError, type OutboundGuard } from './outbound-guard.js';

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxResponseBytes: number;
}

/** The guard's refusal, wherever fetch wrapped it (undici reports connect errors as `cause`). */
function refusalIn(error: unknown): OutboundRefusedError | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof OutboundRefusedError) return e;
  }
  return null;
}

/**
 * Outgoing HTTP for flow stages: a deadline for the whole exchange and a cap on the answer's size.
 * Every hop goes through the outbound guard (members choose these URLs).
 */
export function createHttpRequester(deps: { guard: OutboundGuard }) {
  return {
    async request(input: OutgoingRequest) {
      const started = performance.now();
      let url: URL;
      try {
        url = new URL(input.url);
      } catch {
        throw new HttpError(400, `Not a URL: ${input.url.slice(0, 200)}`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new HttpError(400, `Only http and https URLs can be requested, not ${url.protocol}`);
      }
      const signal = AbortSignal.timeout(input.timeoutMs);
      try {
        return await deps.guard.fetch(
          url,
          { method: input.method, headers: input.headers, body: input.body, signal },
          async (response, last) => {
            const chunks: Uint8Array[] = [];
            let size = 0;
            try {
              for await (const chunk of response.body ?? []) {
                size += chunk.byteLength;
                if (size > input.maxResponseBytes) {
                  throw new HttpError(
                    502,
                    `${last.host} answered with more than ${input.maxResponseBytes} bytes`,
                  );
                }
                chunks.push(chunk);
              }
            } catch (error) {
              if (error instanceof HttpError) throw error;
              if (signal.aborted)
                throw new HttpError(504, `${last.host} did not finish within ${input.timeoutMs} ms`);
              throw new HttpError(502, `${last.host} broke off its answer: ${(error as Error).message}`);
            }
            const headers: Record<string, string> = {};
            response.headers.forEach((value, name) => (headers[name] = value));
            return {
              status: response.status,
              headers,
              body: Buffer.concat(chunks).toString('utf8'),
              ms: Math.round(performance.now() - started),
            };
          },
        );
      } catch (error) {
        if (error instanceof HttpError) throw error;
        const refusal = refusalIn(error);
        if (refusal) throw new HttpError(403, refusal.message);
        if (error instanceof OutboundRedirectError) throw new HttpError(502, error.message);
        if (signal.aborted)
          throw new HttpError(504, `${url.host} did not answer within ${input.timeoutMs} ms`);
        throw new HttpError(
          502,
          `Could not reach ${url.host}: ${(error as Error).cause ?? (error as Error).message}`,
        );
      }
    },
  };
}
