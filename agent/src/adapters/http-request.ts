import { HttpError } from '../lib/http-error.js';

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxResponseBytes: number;
}

/** Outgoing HTTP for flow stages: a deadline for the whole exchange and a cap on the answer's size. */
export function createHttpRequester() {
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
      let response: Response;
      try {
        response = await fetch(url, {
          method: input.method,
          headers: input.headers,
          body: input.method === 'GET' ? undefined : input.body,
          signal,
          redirect: 'follow',
        });
      } catch (error) {
        if (signal.aborted)
          throw new HttpError(504, `${url.host} did not answer within ${input.timeoutMs} ms`);
        throw new HttpError(
          502,
          `Could not reach ${url.host}: ${(error as Error).cause ?? (error as Error).message}`,
        );
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      try {
        for await (const chunk of response.body ?? []) {
          size += chunk.byteLength;
          if (size > input.maxResponseBytes) {
            await response.body?.cancel();
            throw new HttpError(502, `${url.host} answered with more than ${input.maxResponseBytes} bytes`);
          }
          chunks.push(chunk);
        }
      } catch (error) {
        if (error instanceof HttpError) throw error;
        if (signal.aborted)
          throw new HttpError(504, `${url.host} did not finish within ${input.timeoutMs} ms`);
        throw new HttpError(502, `${url.host} broke off its answer: ${(error as Error).message}`);
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
  };
}
