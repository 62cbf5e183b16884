import { redactPath } from '../../http/redact-path.js';

const SECRET_KEY =
  /pass(word|phrase)?|secret|token|api[-_]?key|authorization|cookie|totp|private[-_]?key|credential|session/i;

const SECRET_PATTERNS: [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
  // JSON Web Tokens (Home Assistant long-lived tokens are JWTs).
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]+/g, '[redacted]'],
  // Satellite tokens, flow API keys and other prefixed keys (sk-… as cloud LLM providers issue them).
  [/\b(nxsat_|nxf_|sk-|sk_)[A-Za-z0-9_-]{8,}/g, '[redacted]'],
  // user:password@ in URLs.
  [/(\/\/)[^/\s:@]+:[^/\s@]+@/g, '$1[redacted]@'],
  // token=…, password=…, key=… in query strings and key=value text.
  [/\b((?:access_)?token|password|passwd|secret|api_?key|key)=([^&\s"']+)/gi, '$1=[redacted]'],
];

/** Replaces anything in free text that looks like a credential. */
export function redactText(text: string): string {
  // Webhook addresses carry their secret as a path segment (logged by lines written before the
  // request log redacted it, or by anything else that names the address).
  let out = redactPath(text);
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Deep copy with secret-named fields replaced and secret-looking text redacted. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (depth > 20) return '[truncated]';
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] =
        SECRET_KEY.test(k) && v !== null && typeof v !== 'boolean' ? '[redacted]' : redactValue(v, depth + 1);
    }
    return out;
  }
  return value;
}

/** One stored log line (pino JSON) as a redacted object; a line that is not JSON becomes `{ raw }`. */
export function redactLogLine(line: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(line);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return redactValue(parsed) as Record<string, unknown>;
    }
  } catch {
    // truncated or not JSON: fall through
  }
  return { raw: redactText(line) };
}
