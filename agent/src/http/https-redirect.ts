import type { Context, Next } from 'hono';
import { isSecureRequest } from './request-info.js';

/**
 * Plain HTTP sends the console's pages to HTTPS (308: method and body kept), so a phone or laptop
 * opening http://nexus.local:8080 lands on a secure origin, where the browser lets the microphone
 * be used. Not redirected:
 * - Host localhost, 127.0.0.1 or [::1]: browsers treat those as secure contexts already, and the
 *   hub's kiosk, its scripts and the test suite use them;
 * - /health and /api/* (health and readiness included): machine clients the household set up with
 *   http:// URLs (webhook triggers, API keys, satellites, monitoring) keep working, and most of
 *   them would not follow a redirect of a POST. A browser calls the API only from a console page,
 *   which has itself been redirected; a session cookie sent over HTTP was sent before any redirect
 *   could help, so redirecting the API would protect nothing;
 * - GET /ca.crt: a device fetches it before it trusts the hub's HTTPS;
 * - behind a trusted TLS proxy (NEXUS_TRUST_PROXY): the proxy owns the scheme and its ports.
 * The target is the same name on the HTTPS port, the path and query unchanged. The Host was
 * already checked (refuseForeignHosts) so the redirect never points at a stranger's name.
 */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The name part of a Host header, lower-cased: `[::1]:8080` → `[::1]`, `Nexus.local:80` → `nexus.local`. */
function hostName(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith('[')) {
    const end = lower.indexOf(']');
    return end === -1 ? lower : lower.slice(0, end + 1);
  }
  const colon = lower.indexOf(':');
  const name = colon === -1 ? lower : lower.slice(0, colon);
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

export function isLoopbackHost(host: string | undefined): boolean {
  return host === undefined || LOOPBACK_HOSTS.has(hostName(host));
}

function exemptPath(method: string, path: string): boolean {
  if (path === '/health' || path === '/api' || path.startsWith('/api/')) return true;
  return path === '/ca.crt' && (method === 'GET' || method === 'HEAD');
}

export function redirectToHttps(opts: { httpsPort: () => number | null; trustProxy: boolean }) {
  return async (c: Context, next: Next) => {
    const port = opts.httpsPort();
    const host = c.req.header('host');
    if (
      port === null ||
      opts.trustProxy ||
      exemptPath(c.req.method, c.req.path) ||
      isLoopbackHost(host) ||
      isSecureRequest(c, false)
    ) {
      return next();
    }
    const url = new URL(c.req.url);
    const target = `https://${hostName(host!)}${port === 443 ? '' : `:${port}`}${url.pathname}${url.search}`;
    return c.redirect(target, 308);
  };
}
