/**
 * Sends once more on a fresh connection when a kept-alive one turns out closed before any answer,
 * as browsers do (Chromium resends a request whose reused socket closed before the first response
 * byte). The agent closes idle connections after node's 5 s; a test that blocks its own event loop
 * longer than that (a synchronous docker CLI call) has not yet seen the close when it sends, and
 * its request would go out on the dead socket. A server that closed mid-request for a reason of its
 * own fails the second attempt too, so nothing real is hidden.
 */
async function fetchLikeABrowser(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code !== 'UND_ERR_SOCKET' || cause.message !== 'other side closed') throw err;
    return fetch(url, init);
  }
}

/**
 * A tiny cookie-keeping HTTP client for integration tests: one instance is one browser.
 */
export class Client {
  private cookies = new Map<string, string>();
  /** The raw Set-Cookie headers of the last response, for cookie-attribute assertions. */
  lastSetCookie: string[] = [];

  constructor(
    readonly baseUrl: string,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const init: RequestInit = { method, headers: { ...this.defaultHeaders, ...headers }, redirect: 'manual' };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    if (this.cookies.size) {
      (init.headers as Record<string, string>).cookie = [...this.cookies]
        .map(([k, v]) => `${k}=${v}`)
        .join('; ');
    }
    const res = await fetchLikeABrowser(this.baseUrl + path, init);
    this.lastSetCookie = res.headers.getSetCookie();
    for (const raw of this.lastSetCookie) {
      const [pair = '', ...attrs] = raw.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /max-age=0\b/i.test(a.trim())) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, headers: res.headers, text, json: json as any };
  }

  get = (path: string, headers?: Record<string, string>) => this.request('GET', path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) =>
    this.request('POST', path, body, headers);
  put = (path: string, body?: unknown) => this.request('PUT', path, body);
  delete = (path: string) => this.request('DELETE', path);

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }
  clearCookies(): void {
    this.cookies.clear();
  }
}
