import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nexusStatusSchema } from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';

/**
 * GET /api/nexus/status is answered before Hono for signed-in callers (agent/src/http/hot-reads.ts).
 * From outside it must be indistinguishable from the API's own answers: same body, same headers,
 * same refusals; everything but the signed-in happy path goes through Hono.
 */
let agent: RunningAgent;
let owner: Client;

beforeAll(async () => {
  agent = await startAgent({ env: { LOG_LEVEL: 'debug' } });
  owner = new Client(agent.url);
  await signUp(owner, { name: 'Hot Reader' });
});
afterAll(async () => {
  await agent?.stop();
});

/** The headers a JSON answer carries, less those that differ per response. */
function headersOf(res: { headers: Headers }) {
  const skip = new Set(['date', 'content-length', 'keep-alive', 'connection']);
  const kept: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!skip.has(name)) kept[name] = value;
  });
  return kept;
}

describe('the hot status read', () => {
  it('answers a signed-in poll with the status and exactly the headers of the API’s other JSON reads', async () => {
    const hot = await owner.get('/api/nexus/status');
    expect(hot.status).toBe(200);
    nexusStatusSchema.parse(hot.json);
    // The same read with a query string is not hot: Hono answers it.
    const viaHono = await owner.get('/api/nexus/status?from=hono');
    expect(viaHono.status).toBe(200);
    expect(Object.keys(viaHono.json).sort()).toEqual(Object.keys(hot.json).sort());
    expect(headersOf(hot)).toEqual(headersOf(viaHono));
    expect(headersOf(hot)).toEqual(headersOf(await owner.get('/api/system/uptime')));
    // The request was logged like any other read: a request id, method, path, status and time.
    const line = agent.logs.find((l) => l.includes('"path":"/api/nexus/status"') && l.includes('"hot":true'));
    expect(JSON.parse(line!)).toMatchObject({
      msg: 'request',
      requestId: expect.any(String),
      method: 'GET',
      status: 200,
      ms: expect.any(Number),
    });
    // And so was the one Hono answered, with its own request id.
    const honoLine = agent.logs.find(
      (l) => l.includes('"path":"/api/nexus/status"') && !l.includes('"hot":true'),
    );
    expect(JSON.parse(honoLine!)).toMatchObject({
      msg: 'request',
      requestId: expect.any(String),
      method: 'GET',
      status: 200,
    });
    expect(JSON.parse(honoLine!).requestId).not.toBe(JSON.parse(line!).requestId);
  });

  it('leaves refusals to the API: signed out, a stale session, another method', async () => {
    const stranger = new Client(agent.url);
    const signedOut = await stranger.get('/api/nexus/status');
    expect(signedOut.status).toBe(401);
    expect(signedOut.json).toEqual({ message: 'Not signed in' });

    const forged = await stranger.get('/api/nexus/status', { cookie: 'nexus_session=not-a-session' });
    expect(forged.status).toBe(401);

    const leaving = new Client(agent.url);
    await signUp(leaving, { name: 'Leaving Soon' });
    const token = leaving.cookie('nexus_session')!;
    expect((await leaving.get('/api/nexus/status')).status).toBe(200);
    expect((await leaving.post('/api/auth/logout')).status).toBe(200);
    const stale = await stranger.get('/api/nexus/status', { cookie: `nexus_session=${token}` });
    expect(stale.status).toBe(401);

    expect((await owner.post('/api/nexus/status', {})).status).toBe(404);
  });
});
