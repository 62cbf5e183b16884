import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';

/**
 * SSRF: a member's flow http_request stage may reach public addresses only, on every redirect hop,
 * unless an admin allows host:port. Every server here listens on 127.0.0.1 (loopback is what the
 * guard refuses by default, and the only traffic tests send). Cloud metadata and other non-loopback
 * addresses are covered by the guard's unit tests, with an injected socket opener that never dials:
 * a build without the guard would send this file's requests to them for real.
 */

interface LoopbackServer {
  port: number;
  url: string;
  hits: string[];
  stop: () => Promise<void>;
}

async function startServer(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url!);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    hits,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  } satisfies LoopbackServer;
}

let agent: RunningAgent;
let admin: Client;
let member: Client;
let router: LoopbackServer; // stands in for the router's admin page
let secret: LoopbackServer; // another service on the home network
let hop: LoopbackServer; // an allowed server that redirects to `secret`

beforeAll(async () => {
  router = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"page":"router admin"}');
  });
  secret = await startServer((_req, res) => res.end('secret'));
  hop = await startServer((_req, res) => {
    res.writeHead(302, { location: `${secret.url}/private` });
    res.end();
  });
  agent = await startAgent();
  admin = new Client(agent.url);
  await signUp(admin, { name: 'Admin' });
  member = new Client(agent.url);
  expect((await signUp(member, { name: 'Member' })).role).toBe('user');
});

afterAll(async () => {
  await agent?.stop();
  for (const s of [router, secret, hop]) await s?.stop();
});

async function runFetch(client: Client, url: string) {
  const flow = await client.post('/api/flows', {
    name: `Fetch ${url}`,
    trigger: { type: 'api' },
    stages: [{ id: 'get', name: 'Get it', kind: 'http_request', config: { method: 'GET', url } }],
  });
  expect(flow.status, flow.text).toBe(201);
  const run = await client.post(`/api/flows/${flow.json.id}/run?wait=true`);
  expect(run.status, run.text).toBe(200);
  return run.json as {
    status: string;
    error: string | null;
    stages: { output: any; error: string | null }[];
  };
}

describe('outbound allow-list settings', () => {
  it('is read and changed by admins only: 401 signed out, 403 for members', async () => {
    const stranger = new Client(agent.url);
    expect((await stranger.get('/api/settings/outbound')).status).toBe(401);
    expect((await stranger.put('/api/settings/outbound', { allowList: [] })).status).toBe(401);
    expect((await member.get('/api/settings/outbound')).status).toBe(403);
    expect((await member.put('/api/settings/outbound', { allowList: ['127.0.0.1:1'] })).status).toBe(403);
    const read = await admin.get('/api/settings/outbound');
    expect(read.status).toBe(200);
    expect(read.json).toEqual({ allowList: [] });
  });

  it('answers 400 with details for a malformed entry, and stores entries canonically', async () => {
    const bad = await admin.put('/api/settings/outbound', { allowList: ['printer.local:631', 'http://x/'] });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('allowList.1');
    expect(bad.json.details[0].path).toEqual(['allowList', 1]);
    expect((await admin.put('/api/settings/outbound', { allowList: 'x' })).status).toBe(400);
    expect((await admin.put('/api/settings/outbound', { allowList: ['169.254.169.254:80'] })).status).toBe(
      400,
    );

    const saved = await admin.put('/api/settings/outbound', {
      allowList: ['Printer.Local:631', '[FD00::1]:80'],
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json).toEqual({ allowList: ['printer.local:631', '[fd00::1]:80'] });
    expect((await admin.get('/api/settings/outbound')).json).toEqual(saved.json);
    expect((await admin.put('/api/settings/outbound', { allowList: [] })).status).toBe(200);
  });
});

describe("a member's http_request stage", () => {
  it('is refused for a loopback address until an admin allows its host:port', async () => {
    const refused = await runFetch(member, `${router.url}/admin`);
    expect(refused.status).toBe('failed');
    expect(refused.error).toContain('this hub itself');
    expect(refused.error).toContain(`an admin can allow "127.0.0.1:${router.port}"`);
    expect(router.hits).toEqual([]);

    const allowed = await admin.put('/api/settings/outbound', { allowList: [`127.0.0.1:${router.port}`] });
    expect(allowed.status, allowed.text).toBe(200);
    const ok = await runFetch(member, `${router.url}/admin`);
    expect(ok.status, JSON.stringify(ok)).toBe('succeeded');
    expect(ok.stages[0]!.output.body).toEqual({ page: 'router admin' });
    expect(router.hits).toEqual(['/admin']);
  });

  it('is refused for every spelling of a loopback address', async () => {
    // `secret` is not on the allow-list.
    for (const url of [
      `http://2130706433:${secret.port}/`,
      `http://0x7f.1:${secret.port}/`,
      `http://0177.0.0.1:${secret.port}/`,
      `http://[::ffff:127.0.0.1]:${secret.port}/`,
      `http://[::ffff:7f00:1]:${secret.port}/`,
      `http://[::1]:${secret.port}/`,
      `http://localhost:${secret.port}/`,
    ]) {
      const run = await runFetch(member, url);
      expect(run.status, url).toBe('failed');
      expect(run.error, url).toMatch(/Refused to connect/);
    }
    expect(secret.hits).toEqual([]);
  });

  it('is refused at a redirect hop to an address that is not allowed', async () => {
    await admin.put('/api/settings/outbound', { allowList: [`127.0.0.1:${hop.port}`] });
    const run = await runFetch(member, `${hop.url}/start`);
    expect(run.status).toBe('failed');
    expect(run.error).toContain(`127.0.0.1:${secret.port}`);
    expect(run.error).toContain('Refused to connect');
    expect(hop.hits).toEqual(['/start']);
    expect(secret.hits).toEqual([]);
  });

  it("applies to an admin's flow too (its URL may come from a webhook's body)", async () => {
    const run = await runFetch(admin, `${secret.url}/x`);
    expect(run.status).toBe('failed');
    expect(secret.hits).toEqual([]);
  });
});
