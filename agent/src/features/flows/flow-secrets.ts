import { SECRET_PLACEHOLDER } from '../../contract/flows.js';
import { HttpError } from '../../lib/http-error.js';

/*
 * A flow's sealed secrets map holds two kinds of keys: a stage's secret header is
 * `<stageId>\n<header>` (flow-runner.ts secretKey), a named secret of the flow `*\n<NAME>`; no
 * stage id contains '*', so the two never meet.
 */
const FLOW_SECRET_PREFIX = '*\n';
export const flowSecretKey = (name: string) => `${FLOW_SECRET_PREFIX}${name}`;
export const isFlowSecretKey = (key: string) => key.startsWith(FLOW_SECRET_PREFIX);
export const flowSecretName = (key: string) => key.slice(FLOW_SECRET_PREFIX.length);

export const SECRET_MASK = '••••';
/** Shorter values are not searched for: masking every "a" would wreck a record and hide nothing. */
export const MIN_MASKED_LENGTH = 4;

/** Percent-escapes in both letter cases: encoders write %2F, some servers echo %2f. */
const withHexCase = (text: string) => [
  text,
  text.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
  text.replace(/%[0-9a-f]{2}/g, (e) => e.toUpperCase()),
];

/** How the URL parser (fetch) writes text into a path and a query: a server echoes that form back. */
function asUrlParts(text: string): string[] {
  const url = new URL('http://h/');
  url.pathname = `/${text}`;
  url.search = `?${text}`;
  return [url.pathname.slice(1), url.search.slice(1)];
}

/**
 * The ways a secret is written where a run can record it: as is, percent-encoded in a URL path or
 * query (encodeURIComponent, encodeURI, a form body or URLSearchParams with + for space, what the
 * URL parser makes of it), and escaped inside JSON text (an echoed body kept as a string).
 */
function spellings(secret: string): string[] {
  const encoded = (encode: (s: string) => string) => {
    try {
      return withHexCase(encode(secret));
    } catch {
      return []; // a lone surrogate cannot be percent-encoded, so it is never sent that way either
    }
  };
  return [
    secret,
    ...encoded(encodeURIComponent),
    ...encoded(encodeURI),
    ...encoded((s) => new URLSearchParams([['', s]]).toString().slice(1)),
    ...encoded((s) => encodeURIComponent(s).replace(/%20/g, '+')),
    ...asUrlParts(secret).flatMap(withHexCase),
    JSON.stringify(secret).slice(1, -1),
  ];
}

/**
 * A function that replaces every secret value inside the strings of a run record (at any depth)
 * with a mask, so a URL, body or prompt rendered with {{secrets.NAME}} is recorded without it.
 */
export function secretMasker(values: Iterable<string>): (value: unknown) => unknown {
  const secrets = [...new Set([...values].filter((v) => v.length >= MIN_MASKED_LENGTH).flatMap(spellings))]
    // Longest first, so a secret that contains another is masked whole.
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return (value) => value;
  const maskText = (text: string) => secrets.reduce((t, secret) => t.split(secret).join(SECRET_MASK), text);
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return maskText(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    }
    return value;
  };
  return walk;
}

/** Fails a stage whose templates name a secret the flow does not have a value for. */
export function requireSecrets(stage: { config: unknown }, named: Record<string, string>): void {
  for (const [, name] of JSON.stringify(stage.config).matchAll(SECRET_PLACEHOLDER)) {
    if (!Object.hasOwn(named, name!) || named[name!] === '') {
      throw new HttpError(400, `The secret ${name} has no value: set it under the flow's Secrets`);
    }
  }
}
