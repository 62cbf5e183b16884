import { createMiddleware } from 'hono/factory';

/**
 * The response headers of Hono's secureHeaders() defaults (less COEP, which would block the
 * console's own workers and media), written before the handler runs. secureHeaders() sets them on
 * the finished response, which makes @hono/node-server turn its lightweight response into a full
 * fetch Response: a fifth of a status poll's CPU time in scripts/bench/status.ts.
 */
const DOCUMENT_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=15552000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];

/**
 * JSON answers are never rendered as pages, so the document-only headers (opener policy, DNS
 * prefetch, download options, XSS auditor...) do nothing there; these are the ones OWASP's REST
 * cheat sheet asks of an API. Each header costs validation and bytes on every status poll.
 */
export const API_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
];

export const securityHeaders = createMiddleware(async (c, next) => {
  const headers = c.req.path.startsWith('/api/') ? API_HEADERS : DOCUMENT_HEADERS;
  for (const [name, value] of headers) c.header(name, value);
  await next();
});
