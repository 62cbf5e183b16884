import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Recordings } from '../fixtures/recordings.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';

const recordings = new Recordings();
const take = recordings.pad(recordings.speak('hey nexus'), 0.4, 0.6);
let agent: RunningAgent;
let owner: Client;
let visitor: Client;
let wakeWordId: number;

/** A visitor's upload from a given client address (the agent trusts X-Forwarded-For here). */
async function contribute(query: string, body: Uint8Array, address = '198.51.100.1') {
  const res = await fetch(`${agent.url}/api/crowdsource/hey-nexus/samples?${query}`, {
    method: 'POST',
    body: body as Uint8Array<ArrayBuffer>,
    headers: { 'content-type': 'audio/wav', 'x-forwarded-for': address },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  agent = await startAgent({ env: { NEXUS_TRUST_PROXY: 'true' } });
  owner = new Client(agent.url);
  visitor = new Client(agent.url);
  await signUp(owner, { name: 'Ada Owner' });
  const created = await owner.post('/api/wake-words', { phrase: 'Hey Nexus' });
  wakeWordId = created.json.id;
});
afterAll(async () => {
  await agent?.stop();
  recordings.cleanup();
});

describe('/api/crowdsource', () => {
  it('shows a wake word to signed-out visitors only once its owner opens it to contributions', async () => {
    expect((await visitor.get('/api/crowdsource')).json).toEqual([]);
    expect((await visitor.get('/api/crowdsource/hey-nexus')).status).toBe(404);
    expect((await contribute('consent=true', recordings.read(take))).status).toBe(404);
    const opened = await owner.request('PATCH', `/api/wake-words/${wakeWordId}`, { crowdsourcing: true });
    expect(opened.status).toBe(200);
    const res = await visitor.get('/api/crowdsource/hey-nexus');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      slug: 'hey-nexus',
      phrase: 'Hey Nexus',
      license: expect.stringContaining('CC0'),
    });
    expect((await visitor.get('/api/crowdsource')).json).toHaveLength(1);
    expect((await visitor.get('/api/crowdsource/Not_A_Slug!')).status).toBe(400);
  });

  it('refuses an upload without consent with 400', async () => {
    const missing = await contribute('', recordings.read(take));
    expect(missing.status).toBe(400);
    expect(missing.json.message).toMatch(/consent/);
    expect((await contribute('consent=false', recordings.read(take))).status).toBe(400);
  });

  it('refuses a bad take before accepting it and tells the visitor why', async () => {
    const res = await contribute('consent=true', recordings.read(recordings.silence(2)));
    expect(res.status).toBe(422);
    expect(res.json.message).toMatch(/^Take not accepted: no speech found — /);
    expect(res.json.details.quality.verdict).toBe('bad');
    const samples = (await owner.get(`/api/wake-words/${wakeWordId}/samples`)).json;
    expect(samples).toEqual([]);
    expect((await contribute('consent=true', recordings.read(recordings.corrupt()))).status).toBe(400);
  });

  let token: string;
  it('keeps a good take for moderation and returns a deletion token, storing only its hash', async () => {
    const res = await contribute('consent=true&speaker=Visitor%201', recordings.read(take));
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ status: 'pending', quality: { verdict: 'good' } });
    token = res.json.deletionToken;
    expect(token).toMatch(/^nxdel_[\w-]{40,}$/);

    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    try {
      const rows = db.prepare('select deletion_token_hash as hash from wake_word_samples').all() as {
        hash: string;
      }[];
      expect(rows).toEqual([{ hash: createHash('sha256').update(token).digest('hex') }]);
    } finally {
      db.close();
    }

    const queue = (await owner.get(`/api/wake-words/${wakeWordId}/samples?source=crowdsource&status=pending`))
      .json;
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({ source: 'crowdsource', speaker: 'Visitor 1', status: 'pending' });
    expect((await visitor.get(`/api/wake-words/${wakeWordId}/samples`)).status).toBe(401);
  });

  it('lets the owner approve from the moderation queue, which counts towards the public progress', async () => {
    const [queued] = (await owner.get(`/api/wake-words/${wakeWordId}/samples?source=crowdsource`)).json;
    const approved = await owner.request('PATCH', `/api/wake-words/${wakeWordId}/samples/${queued.id}`, {
      status: 'accepted',
    });
    expect(approved.json.status).toBe('accepted');
    expect((await visitor.get('/api/crowdsource/hey-nexus')).json.accepted).toBe(1);
  });

  it('deletes the take with its token, once; a wrong token deletes nothing', async () => {
    expect(
      (await visitor.post('/api/crowdsource/deletions', { token: 'nxdel_not-a-real-token' })).status,
    ).toBe(404);
    expect((await visitor.post('/api/crowdsource/deletions', { token })).status).toBe(204);
    expect((await visitor.post('/api/crowdsource/deletions', { token })).status).toBe(404);
    expect((await owner.get(`/api/wake-words/${wakeWordId}/samples`)).json).toEqual([]);
    expect((await visitor.post('/api/crowdsource/deletions', {})).status).toBe(400);
  });

  it('limits uploads per client address (30 an hour) with 429 and Retry-After, others unaffected', async () => {
    const junk = recordings.read(recordings.corrupt());
    const address = '203.0.113.9';
    for (let i = 0; i < 30; i++) expect((await contribute('consent=true', junk, address)).status).toBe(400);
    const limited = await contribute('consent=true', recordings.read(take), address);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await contribute('consent=true', recordings.read(take), '203.0.113.10')).status).toBe(201);
  });
});
