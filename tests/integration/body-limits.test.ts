import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';

/**
 * Bodies a stranger can send: a webhook is public (its secret is in the URL), so its body limits
 * are the only thing between the network and the hub's memory, disk and stack.
 */
/**
 * A POST on a connection of its own: the agent answers 413 without reading the whole body and drops
 * the connection, which must not be one that fetch's pool hands to the next request.
 */
function postOnOwnConnection(
  url: string,
  headers: Record<string, string>,
  chunks: Buffer[],
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    // The agent may close before the last chunk is written: that is the point. When the close
    // overtakes its answer (a reset while the client still sends), the client never sees the 413:
    // that counts as refused too (status 0), where waiting for an answer would hang the test.
    req.on('error', (error) =>
      req.writableEnded ? resolve({ status: 0, text: String(error) }) : reject(error),
    );
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('request body limits', () => {
  let agent: RunningAgent;
  let owner: Client;
  let flowId: number;
  let hookPath: string;

  beforeAll(async () => {
    agent = await startAgent();
    owner = new Client(agent.url);
    await signUp(owner);
    const flow = await owner.post('/api/flows', {
      name: 'Hook',
      trigger: { type: 'webhook' },
      stages: [{ id: 'tell', name: 'Tell', kind: 'notify', config: { title: 'hook' } }],
    });
    expect(flow.status, flow.text).toBe(201);
    flowId = flow.json.id;
    hookPath = flow.json.webhook.productionPath;
    expect((await owner.put(`/api/flows/${flowId}/status`, { status: 'active' })).status).toBe(200);
  });

  afterAll(() => agent?.stop());

  const runs = async () => (await owner.get(`/api/flows/${flowId}/runs`)).json;

  it('refuses a 12 MB audio body on a webhook with 413 and stores nothing', async () => {
    const res = await postOnOwnConnection(
      agent.url + hookPath,
      { 'content-type': 'audio/wav', 'content-length': String(12 * 1024 * 1024) },
      [Buffer.alloc(12 * 1024 * 1024)],
    );
    expect([413, 0], res.text).toContain(res.status);
    if (res.status === 413) expect(JSON.parse(res.text).message).toBe('Audio is larger than 10 MB');
    expect(await runs()).toEqual([]);
  });

  it('refuses a streamed (chunked) audio body past the limit as well', async () => {
    // No Content-Length: the limit counts what arrives.
    const res = await postOnOwnConnection(
      agent.url + hookPath,
      { 'content-type': 'audio/x-wav', 'transfer-encoding': 'chunked' },
      Array.from({ length: 12 }, () => Buffer.alloc(1024 * 1024)),
    );
    expect([413, 0], res.text).toContain(res.status);
    expect(await runs()).toEqual([]);
  });

  it('answers 400, not 500, to deeply nested JSON, and stores nothing', async () => {
    const depth = 100_000;
    const deep = '['.repeat(depth) + ']'.repeat(depth);
    expect(deep.length).toBeLessThan(1024 * 1024);
    const hook = await owner.request('POST', hookPath, deep);
    expect(hook.status, hook.text).toBe(400);
    expect(hook.json.message).toMatch(/nested deeper than/);
    const run = await owner.request('POST', `/api/flows/${flowId}/run?wait=true`, `{"input":${deep}}`);
    expect(run.status, run.text).toBe(400);
    const objects = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    const create = await owner.request('POST', '/api/flows', objects);
    expect(create.status, create.text).toBe(400);
    expect(await runs()).toEqual([]);
    expect((await owner.get('/api/flows')).json).toHaveLength(1);
  });

  it('still takes JSON nested as deep as a real payload, with brackets inside strings', async () => {
    let input: unknown = { text: '[[[[{{{{ not structure ]]]' };
    for (let i = 0; i < 30; i += 1) input = { nested: [input] };
    const res = await owner.post(`/api/flows/${flowId}/run?wait=true`, { input });
    expect(res.status, res.text).toBe(200);
  });
});
