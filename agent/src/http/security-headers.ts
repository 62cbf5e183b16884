import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import { isLoopbackHost } from './https-redirect.js';
import { isSecureRequest } from './request-info.js';

/**
 * The console's Content-Security-Policy: only the hub's own scripts run (no inline script, no
 * eval), so an injected `<script>` or `onerror=` attribute does nothing; nothing is loaded from
 * other sites, and no other site may frame the console (clickjacking).
 * - style-src 'unsafe-inline': the scroll lock of Radix's modal dialogs (react-remove-scroll) adds
 *   a <style> element at run time; without it the page behind a dialog scrolls (tests/e2e/csp.spec.ts).
 *   Injected CSS cannot run code.
 * - img-src data: blob:, media-src blob:: icons inlined as data URLs; recordings and synthesized
 *   speech are played from blobs the console fetched.
 * - connect-src 'self': fetch and the /api/live WebSocket (CSP Level 3 lets 'self' cover ws:/wss:
 *   to the same host and port; checked in Chromium by tests/e2e/csp.spec.ts).
 * - worker-src 'self': the service worker (/sw.js, the installable app's shell cache) is a file of
 *   the hub's own. The microphone's AudioWorklet counts as a script (script-src) and is served as
 *   /capture-worklet.js, so neither needs blob:. manifest-src falls back to default-src 'self'.
 * - zod's eval-compiled parsers are switched off in the browser (web/src/lib/zod-config.ts).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Powerful features the console does not use are off for it and anything it might embed; the
 * microphone is the console's own (wake-word takes, the microphone test, speech try-out).
 */
export const PERMISSIONS_POLICY = [
  'microphone=(self)',
  'camera=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'bluetooth=()',
  'hid=()',
  'midi=()',
  'display-capture=()',
  'browsing-topics=()',
].join(', ');

/**
 * The response headers of Hono's secureHeaders() defaults (less COEP, which would block the
 * console's own workers and media), with the CSP and Permissions-Policy above, written before the
 * handler runs. secureHeaders() sets them on the finished response, which makes @hono/node-server
 * turn its lightweight response into a full fetch Response: a fifth of a status poll's CPU time in
 * scripts/bench/status.ts.
 */
const DOCUMENT_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['Permissions-Policy', PERMISSIONS_POLICY],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'DENY'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];

/**
 * HSTS only over TLS: browsers ignore it on plain http (RFC 6797 §8.1), and a hub opened by its LAN
 * name over https with a self-signed certificate would, once pinned, no longer let its owner click
 * through a certificate warning after the certificate changes. Sent when the browser came over
 * https, directly or through the trusted TLS proxy (NEXUS_TRUST_PROXY).
 */
const HSTS = 'max-age=15552000; includeSubDomains';

/**
 * The agent's own HTTPS (issue 21) sends HSTS only on the default port and never to a loopback name:
 * HSTS keeps a non-default port when it upgrades (RFC 6797 §8.3), so https://nexus.local:8443 pinning
 * would turn the household's http://nexus.local:8080 into https://nexus.local:8080, which answers no
 * TLS; and the kiosk's http://localhost must stay plain. Behind the trusted proxy, the proxy's ports rule.
 */
function hstsSafe(c: Context, trustProxy: boolean): boolean {
  if (trustProxy) return true;
  return new URL(c.req.url).port === '' && !isLoopbackHost(c.req.header('host'));
}

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

export function securityHeaders(trustProxy: boolean) {
  return createMiddleware(async (c, next) => {
    if (c.req.path.startsWith('/api/')) {
      for (const [name, value] of API_HEADERS) c.header(name, value);
    } else {
      for (const [name, value] of DOCUMENT_HEADERS) c.header(name, value);
      if (isSecureRequest(c, trustProxy) && hstsSafe(c, trustProxy))
        c.header('Strict-Transport-Security', HSTS);
    }
    await next();
  });
}
