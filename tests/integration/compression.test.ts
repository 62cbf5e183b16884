import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';

/**
 * Issue 26: the console's files go out as the build's brotli or gzip copies, whichever the browser
 * accepts; JSON answers of 1 KB and more are compressed; streams are not held back. Spoken over
 * node:http, which (unlike fetch) neither asks for nor undoes compression, so the bytes on the
 * wire are what is checked.
 */

let agent: RunningAgent;
let owner: Client;
let webDist: string;
const SCRIPT = `export const greeting = ${JSON.stringify('hello from the console '.repeat(200))};\n`;
const INDEX = `<!doctype html><html><head><title>Nexus</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
/** The visitors' pages as web/vite-prerender.ts writes them. */
const LANDING = INDEX.replace(
  '<div id="root"></div>',
  '<div id="root" data-prerendered><h1>Landing</h1></div>',
);
const SIGN_IN = INDEX.replace(
  '<div id="root"></div>',
  '<div id="root" data-prerendered><h1>Sign in</h1></div>',
);
/** The signed-in owner's first screen: the shell with the dashboard's code and reads preloaded. */
const DASHBOARD = INDEX.replace(
  '</head>',
  '<link rel="preload" href="/api/nexus/status" as="fetch" crossorigin="use-credentials"></head>',
);

/** A build as web/vite-precompress.ts leaves it: each file with its .br and .gz copies. */
function writeWithCopies(file: string, text: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
}

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-web-'));
  writeWithCopies(path.join(webDist, 'assets/index-Ab12Cd34.js'), SCRIPT);
  writeWithCopies(path.join(webDist, 'index.html'), INDEX);
  writeWithCopies(path.join(webDist, 'prerendered/index.html'), LANDING);
  writeWithCopies(path.join(webDist, 'prerendered/auth.html'), SIGN_IN);
  writeWithCopies(path.join(webDist, 'signed-in/index.html'), DASHBOARD);
  writeWithCopies(path.join(webDist, 'signed-in/dashboard.html'), DASHBOARD);
  // No compressed copies (an image): sent as it is.
  fs.writeFileSync(path.join(webDist, 'icon.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  agent = await startAgent({ env: { NEXUS_WEB_DIST: webDist } });
  owner = new Client(agent.url);
  await signUp(owner, { name: 'Compression Owner' });
});
afterAll(async () => {
  await agent?.stop();
  fs.rmSync(webDist, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request over node:http; the body exactly as it came over the wire. */
function raw(urlPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${agent.url}${urlPath}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const signedIn = () => ({ cookie: `nexus_session=${owner.cookie('nexus_session')}` });

describe('the console’s files', () => {
  const asset = '/assets/index-Ab12Cd34.js';

  it('sends the brotli copy when br is accepted, the gzip copy when only gzip is, else the file', async () => {
    const br = await raw(asset, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript/);
    expect(br.headers['content-length']).toBe(String(br.body.length));
    expect(br.body.equals(fs.readFileSync(path.join(webDist, `${asset}.br`)))).toBe(true);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(SCRIPT);
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const gz = await raw(asset, { 'accept-encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(SCRIPT);
    expect(gz.headers['content-type']).toMatch(/^text\/javascript/);
    expect(gz.headers.vary).toBe('Accept-Encoding');

    // br refused by weight: gzip.
    expect((await raw(asset, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe(
      'gzip',
    );

    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const plain = await raw(asset, headers);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(SCRIPT);
      expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(SCRIPT)));
      // The plain answer depends on the header too: a cache must not hand it to everyone as the only copy.
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(plain.headers['cache-control']).toContain('immutable');
    }

    const png = await raw('/icon.png', { 'accept-encoding': 'br, gzip' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers['content-type']).toBe('image/png');
  });

  it('answers HEAD with the chosen copy’s headers and no body, and a range of the bytes it would send', async () => {
    const head = await raw(asset, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(fs.statSync(path.join(webDist, `${asset}.br`)).size));
    expect(head.body.length).toBe(0);

    const range = await raw(asset, { range: 'bytes=0-5' });
    expect(range.status).toBe(206);
    expect(range.body.toString()).toBe(SCRIPT.slice(0, 6));
  });

  it('serves index.html compressed and uncached, at a console path and as the history-API fallback of a deep link', async () => {
    for (const [at, headers] of [
      ['/settings', signedIn()],
      ['/dashboard/some/deep/link', {}],
    ] as const) {
      const br = await raw(at, { ...headers, 'accept-encoding': 'gzip, br' });
      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/^text\/html/);
      expect(br.headers['cache-control']).toBe('no-cache');
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(zlib.brotliDecompressSync(br.body).toString()).toBe(INDEX);
      // The document's security headers are still there.
      expect(br.headers['content-security-policy']).toContain("script-src 'self'");

      const plain = await raw(at, headers);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(INDEX);
      expect(plain.headers['cache-control']).toBe('no-cache');
    }
  });

  it('sends a visitor the prerendered landing and sign-in pages, and whoever has a session something else', async () => {
    for (const [at, page] of [
      ['/', LANDING],
      ['/auth', SIGN_IN],
    ] as const) {
      const visitor = await raw(at, { 'accept-encoding': 'gzip, br' });
      expect(visitor.status).toBe(200);
      expect(visitor.headers['content-encoding']).toBe('br');
      expect(visitor.headers['content-type']).toMatch(/^text\/html/);
      expect(zlib.brotliDecompressSync(visitor.body).toString()).toBe(page);
      // The answer depends on the session cookie: no cache may give it to an owner.
      expect(visitor.headers.vary).toBe('Accept-Encoding, Cookie');
      expect(visitor.headers['cache-control']).toBe('no-cache');
      expect(visitor.headers['content-security-policy']).toContain("script-src 'self'");
      expect((await raw(at)).body.toString()).toBe(page);

      // Signed in, `/` is the dashboard (its page, below): the landing page must not flash before it.
      expect((await raw(at, signedIn())).body.toString()).toBe(at === '/' ? DASHBOARD : INDEX);
      // Even a stale session: the app decides what it shows.
      expect((await raw(at, { cookie: 'nexus_session=stale' })).body.toString()).toBe(INDEX);
      // A query (an invite code) may change what the page shows.
      expect((await raw(`${at}?invite=abc`)).body.toString()).toBe(INDEX);
    }
  });

  it('sends a signed-in owner the dashboard’s page at / and /dashboard, and anyone else the shell', async () => {
    for (const at of ['/', '/dashboard']) {
      const owners = await raw(at, { ...signedIn(), 'accept-encoding': 'gzip' });
      expect(owners.status).toBe(200);
      expect(owners.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(owners.body).toString()).toBe(DASHBOARD);
      // Its preloads ask for an owner's reads: no cache may give it to anyone else.
      expect(owners.headers.vary).toBe('Accept-Encoding, Cookie');
      expect(owners.headers['cache-control']).toBe('no-cache');
      // A stale or forged session would have its preloads refused: the shell, and the app decides.
      expect((await raw(at, { cookie: 'nexus_session=stale' })).body.toString()).toBe(INDEX);
      expect((await raw(`${at}?tab=1`, signedIn())).body.toString()).toBe(INDEX);
    }
    expect((await raw('/dashboard')).body.toString()).toBe(INDEX);
    expect((await raw('/settings', signedIn())).body.toString()).toBe(INDEX);
  });

  it('sends the shell to everyone while the hub still needs its first-boot wizard', async () => {
    const fresh = await startAgent({ env: { NEXUS_WEB_DIST: webDist } });
    try {
      for (const at of ['/', '/auth']) {
        const res = await fetch(`${fresh.url}${at}`);
        expect(await res.text()).toBe(INDEX);
      }
    } finally {
      await fresh.stop();
    }
  });
});

describe('JSON answers', () => {
  it('leaves a small JSON answer uncompressed even when the client accepts br', async () => {
    for (const at of ['/api/health', '/api/nexus/status', '/api/nexus/status?via=hono']) {
      const res = await raw(at, { ...signedIn(), 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(res.status).toBe(200);
      expect(res.body.length).toBeLessThan(1024);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toBeUndefined();
      expect(res.headers['content-length']).toBe(String(res.body.length));
      JSON.parse(res.body.toString());
    }
  });

  it('compresses a JSON answer over 1 KB with br or gzip as accepted, with Vary, and sends it plain otherwise', async () => {
    // The API reference: tens of KB of JSON.
    const at = '/api/docs/routes';
    const plain = await raw(at, signedIn());
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const document = JSON.parse(plain.body.toString());

    const br = await raw(at, { ...signedIn(), 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.headers['content-length']).toBe(String(br.body.length));
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(JSON.parse(zlib.brotliDecompressSync(br.body).toString())).toEqual(document);
    // The API's security headers survive the rewrite.
    expect(br.headers['x-content-type-options']).toBe('nosniff');

    const gz = await raw(at, { ...signedIn(), 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.body).toString())).toEqual(document);
  });

  it('leaves a refusal’s status and JSON shape as they are', async () => {
    const res = await raw('/api/system/info', { 'accept-encoding': 'br' });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body.toString())).toEqual({ message: 'Not signed in' });
  });
});

describe('streams', () => {
  it('sends a server-sent event stream’s first event at once, uncompressed, before the stream ends', async () => {
    // ping 127.0.0.1 three times: the first line comes at once, the summary two seconds later.
    const req = http.request(`${agent.url}/api/network/tools/ping`, {
      method: 'POST',
      headers: { ...signedIn(), 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br' },
    });
    req.end(JSON.stringify({ target: '127.0.0.1', count: 3 }));
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      req.on('response', resolve);
      req.on('error', reject);
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['content-encoding']).toBeUndefined();
    let ended = false;
    res.on('end', () => (ended = true));
    let received = '';
    const firstEvent = await new Promise<string>((resolve, reject) => {
      res.on('data', (chunk: Buffer) => {
        received += chunk.toString();
        if (received.includes('\n\n')) resolve(received);
      });
      res.on('error', reject);
      res.on('end', () => reject(new Error(`the stream ended before a whole event came: ${received}`)));
    });
    expect(firstEvent).toMatch(/^event: line\n/);
    expect(firstEvent).not.toContain('event: done');
    expect(ended).toBe(false);
    // The rest still comes, and ends with the summary.
    await new Promise<void>((resolve) => (ended ? resolve() : res.on('end', () => resolve())));
    expect(received).toContain('event: done');
  });
});
