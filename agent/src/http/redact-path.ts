/**
 * A webhook's address carries its secret: /api/hooks/<flowId>/<secret>[/test]. Anything that
 * writes a request path somewhere (the request log, and through it the diagnostics bundle) writes
 * it through here, so the secret is replaced and the flow id and the /test suffix stay readable.
 * Case-insensitive and tolerant of doubled slashes, since the path logged is whatever was asked for.
 */
const HOOK_PATH = /(\/+api\/+hooks\/+[^/\s?#"']+\/+)(?!\[redacted\])[^/\s?#"']+/gi;

export const REDACTED_SEGMENT = '[redacted]';

/** A request path (or any text holding one) with webhook secrets replaced. */
export function redactPath(path: string): string {
  return path.replace(HOOK_PATH, `$1${REDACTED_SEGMENT}`);
}
