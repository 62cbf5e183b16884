import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError, apiJson, apiRequest, errorMessage } from './request';

interface Sent {
  url: string;
  init: RequestInit;
}

function stubFetch(response: () => Response) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return response();
    }),
  );
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest (spec §7, §8)', () => {
  it('sends cookies and no content type when there is no body', async () => {
    const sent = stubFetch(() => new Response('{}', { status: 200 }));
    await apiRequest('POST', '/api/auth/logout');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('/api/auth/logout');
    expect(sent[0]!.init.method).toBe('POST');
    expect(sent[0]!.init.credentials).toBe('include');
    expect(sent[0]!.init.body).toBeUndefined();
    expect(new Headers(sent[0]!.init.headers).has('content-type')).toBe(false);
  });

  it('sends a JSON body with the JSON content type', async () => {
    const sent = stubFetch(() => new Response('{"user":{}}', { status: 200 }));
    await apiRequest('POST', '/api/auth/login', { email: 'a@b.co', password: 'pw' });
    expect(new Headers(sent[0]!.init.headers).get('content-type')).toBe('application/json');
    expect(JSON.parse(sent[0]!.init.body as string)).toEqual({ email: 'a@b.co', password: 'pw' });
    expect(sent[0]!.init.credentials).toBe('include');
  });

  it('leaves FormData to the browser, without a JSON content type', async () => {
    const sent = stubFetch(() => new Response(null, { status: 204 }));
    const form = new FormData();
    form.set('file', 'x');
    await apiRequest('POST', '/api/upload', form);
    expect(sent[0]!.init.body).toBe(form);
    expect(new Headers(sent[0]!.init.headers).has('content-type')).toBe(false);
  });

  it('throws "<status>: <body text>" with the raw body on a non-OK answer', async () => {
    stubFetch(
      () =>
        new Response('{"message":"2FA code required"}', {
          status: 401,
          statusText: 'Unauthorized',
          headers: { 'content-type': 'application/json' },
        }),
    );
    const error = await apiRequest('POST', '/api/auth/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as Error).message).toBe('401: {"message":"2FA code required"}');
    expect((error as ApiRequestError).status).toBe(401);
  });

  it('throws "<status>: <status text>" when the body is empty', async () => {
    stubFetch(() => new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await expect(apiRequest('GET', '/api/health')).rejects.toThrow(/^503: Service Unavailable$/);
  });

  it('keeps a plain-text body as it is', async () => {
    stubFetch(() => new Response('Bad Gateway from proxy', { status: 502, statusText: 'Bad Gateway' }));
    await expect(apiRequest('GET', '/api/x')).rejects.toThrow('502: Bad Gateway from proxy');
  });

  it('resolves with the response when it is OK', async () => {
    stubFetch(() => new Response('{"ok":true}', { status: 200 }));
    const res = await apiRequest('GET', '/api/x');
    expect(await res.json()).toEqual({ ok: true });
  });
});

describe('apiJson', () => {
  it('parses the JSON answer and gives undefined for an empty one', async () => {
    stubFetch(() => new Response('{"user":{"id":1}}', { status: 200 }));
    expect(await apiJson('GET', '/api/x')).toEqual({ user: { id: 1 } });
    stubFetch(() => new Response(null, { status: 204 }));
    expect(await apiJson('POST', '/api/y')).toBeUndefined();
  });
});

describe('errorMessage', () => {
  it("shows the agent's message rather than raw JSON", () => {
    const error = new ApiRequestError(
      409,
      'Conflict',
      '{"message":"An account with this email already exists"}',
    );
    expect(errorMessage(error)).toBe('An account with this email already exists');
  });

  it('shows the first validation issue of a 400', () => {
    const body = JSON.stringify({
      message: 'Invalid input',
      details: [{ path: ['password'], message: 'Password must be at least 8 characters' }],
    });
    expect(errorMessage(new ApiRequestError(400, 'Bad Request', body))).toBe(
      'Password must be at least 8 characters',
    );
  });

  it('falls back to plain body text, then the status text', () => {
    expect(errorMessage(new ApiRequestError(500, 'Internal Server Error', 'boom'))).toBe('boom');
    expect(errorMessage(new ApiRequestError(502, 'Bad Gateway', '<html>nginx</html>'))).toBe('Bad Gateway');
    expect(errorMessage(new ApiRequestError(500, '', ''))).toBe('Request failed with status 500');
  });

  it('uses the message of other errors and nothing for blanks', () => {
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(errorMessage(new Error(''))).toBeUndefined();
    expect(errorMessage(undefined)).toBeUndefined();
    expect(errorMessage('plain')).toBe('plain');
  });
});
