/**
 * The one way the console talks to the agent (spec §7, §8): cookies always go along, JSON bodies
 * say so, and any non-OK answer becomes an error whose message is "<status>: <body text or status text>".
 */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    /** The raw text of the response body, possibly empty. */
    readonly bodyText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiRequestError';
  }
}

/** Throws an ApiRequestError for a non-OK response; returns the response untouched otherwise. */
export async function throwIfNotOk(res: Response): Promise<Response> {
  if (res.ok) return res;
  const bodyText = await res.text().catch(() => '');
  throw new ApiRequestError(res.status, res.statusText, bodyText);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Sends one request. Plain values are sent as JSON; FormData, Blobs and the like go as they are
 * so the browser can set their content type. Resolves with the OK response.
 */
export async function apiRequest(method: HttpMethod, path: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method, credentials: 'include', headers: {} };
  if (body !== undefined) {
    if (isRawBody(body)) {
      init.body = body;
    } else {
      init.headers = { 'Content-Type': 'application/json' };
      init.body = JSON.stringify(body);
    }
  }
  return throwIfNotOk(await fetch(path, init));
}

/** Sends one request and parses the JSON answer (undefined for an empty body, such as a 204). */
export async function apiJson<T>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, path, body);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

function isRawBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

/**
 * A sentence for people, from any error: the agent's `{message}` (with the first validation
 * issue when the input was refused), else the body text, else the error's own message.
 * Returns undefined when there is nothing better than a blank.
 */
export function errorMessage(error: unknown): string | undefined {
  if (error instanceof ApiRequestError) {
    const fromJson = messageFromJsonBody(error.bodyText);
    if (fromJson) return fromJson;
    const text = error.bodyText.trim();
    // An HTML error page from a proxy says nothing useful in a toast.
    if (text && !text.startsWith('<')) return text;
    return error.statusText || `Request failed with status ${error.status}`;
  }
  if (error instanceof Error) return error.message || undefined;
  if (typeof error === 'string') return error || undefined;
  return undefined;
}

function messageFromJsonBody(bodyText: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object') return undefined;
  const { message, details } = parsed as { message?: unknown; details?: unknown };
  if (typeof message !== 'string' || !message) return undefined;
  if (Array.isArray(details)) {
    const issue: unknown = details[0];
    if (issue && typeof issue === 'object' && typeof (issue as { message?: unknown }).message === 'string') {
      return (issue as { message: string }).message;
    }
  }
  return message;
}
