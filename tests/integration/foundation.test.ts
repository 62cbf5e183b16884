import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Agent as UndiciAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { Client } from '../support/http.js';

let agent: RunningAgent;
let client: Client;

beforeAll(async () => {
  agent = await startAgent();
  client = new Client(agent.url);
});
afterAll(async () => {
  await agent?.stop();
});

describe('the agent', () => {
  it('answers /api/health without signing in', async () => {
    const res = await client.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok', version: '1.0.1-alpha' });
  });

  it('keeps its data in nexus.db under NEXUS_DATA_DIR, in WAL mode with migrations applied', () => {
    const file = path.join(agent.dataDir, 'nexus.db');
    expect(fs.existsSync(file)).toBe(true);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const tables = db.prepare("select name from sqlite_master where type='table'").pluck().all();
      expect(tables).toEqual(expect.arrayContaining(['users', 'sessions', '__drizzle_migrations']));
    } finally {
      db.close();
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await client.get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ message: expect.stringContaining('/api/no-such-thing') });
  });

  it('refuses bodies over the default limit with 413 and the JSON error shape', async () => {
    // On its own connection: the agent answers before reading the body and then closes the socket.
    const res = await fetch(`${agent.url}/api/health`, {
      method: 'POST',
      body: 'x'.repeat(2 * 1024 * 1024),
      headers: { 'content-type': 'text/plain' },
      dispatcher: new UndiciAgent({ pipelining: 0 }),
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ message: expect.any(String) });
  });

  it('answers an audio body sent to a JSON route with 400, not by reading it', async () => {
    // Audio skips the app-wide limit for the upload routes' own; a JSON route must still refuse it.
    const res = await fetch(`${agent.url}/api/auth/login`, {
      method: 'POST',
      body: new Uint8Array(2 * 1024 * 1024),
      headers: { 'content-type': 'audio/wav' },
      dispatcher: new UndiciAgent({ pipelining: 0 }),
    } as RequestInit);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: expect.any(String) });
  });

  it('serves the console with history-API fallback and the right cache headers', async () => {
    const deep = await client.get('/some/deep/link');
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toContain('text/html');
    expect(deep.text).toContain('<div id="root">');
    expect(deep.headers.get('cache-control')).toBe('no-cache');

    const asset = /\/assets\/[^"]+\.js/.exec(deep.text)?.[0];
    expect(asset).toBeDefined();
    const res = await client.get(asset!);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
  });
});

describe('shutdown', () => {
  it('exits cleanly on SIGTERM and closes the database', async () => {
    const other = await startAgent();
    const code = await other.stop('SIGTERM');
    expect(code).toBe(0);
    expect(other.logs.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
  });
});
