import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { fetchRoutes, routeKey } from '../support/routes.js';

// The appliance runs agent/dist/bundle/main.js (agent/scripts/bundle.mjs: the agent's own modules
// joined into one, for a lighter idle agent). The other integration tests run dist/main.js; this one
// checks that the bundle is the same agent, above all that every path it resolves from its own
// location (migrations, package.json, the web app, the app catalog) still points where it did.
let bundled: RunningAgent;
let modular: RunningAgent;

beforeAll(async () => {
  execFileSync(process.execPath, ['agent/scripts/bundle.mjs'], { stdio: 'inherit' });
  [bundled, modular] = await Promise.all([
    startAgent({ entry: 'agent/dist/bundle/main.js' }),
    startAgent({ entry: 'agent/dist/main.js' }),
  ]);
});
afterAll(async () => {
  await Promise.all([bundled?.stop(), modular?.stop()]);
});

describe('the bundled agent', () => {
  it('reads its version from agent/package.json', async () => {
    const res = await new Client(bundled.url).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok', version: '1.0.1-alpha' });
  });

  it('applies the migrations shipped in agent/drizzle', () => {
    const db = new Database(path.join(bundled.dataDir, 'nexus.db'), { readonly: true });
    try {
      const migrations = db.prepare('select count(*) from __drizzle_migrations').pluck().get() as number;
      const shipped = fs
        .readdirSync(new URL('../../agent/drizzle', import.meta.url))
        .filter((f) => f.endsWith('.sql')).length;
      expect(migrations).toBe(shipped);
    } finally {
      db.close();
    }
  });

  it('serves the console from web/dist', async () => {
    const res = await new Client(bundled.url).get('/dashboard');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<div id="root">');
  });

  it('lists the app catalog from docker/', async () => {
    const owner = new Client(bundled.url);
    await signUp(owner);
    const res = await owner.get('/api/docker/catalog');
    expect(res.status, res.text).toBe(200);
    expect(res.json.apps.map((a: { id: string }) => a.id)).toEqual(
      expect.arrayContaining(['ollama', 'home-assistant']),
    );
  });

  it('is ASCII-only, so V8 keeps its source at one byte per character', () => {
    const source = fs.readFileSync(new URL('../../agent/dist/bundle/main.js', import.meta.url), 'utf8');
    expect(source).toContain('\\u2026'); // the "…" of the comments, escaped
    expect(source).not.toMatch(/[\u0080-\uffff]/);
  });

  it('carries zod without its language packs, and refuses bad input in the same English', async () => {
    const source = fs.readFileSync(new URL('../../agent/dist/bundle/main.js', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^import .* from "zod/m);
    const packs = [...source.matchAll(/^\/\/ \S*node_modules\/zod\/v4\/locales\/(\S+)$/gm)].map((m) => m[1]);
    expect(packs).toEqual(['en.js']);
    const bad = { email: 'not an address', password: 1, extra: true };
    const [mine, theirs] = await Promise.all(
      [bundled, modular].map((agent) => new Client(agent.url).post('/api/auth/login', bad)),
    );
    expect(mine!.status).toBe(400);
    expect(mine!.json).toEqual(theirs!.json);
    expect(JSON.stringify(mine!.json)).toContain('expected string, received number');
  });

  it('has every route of the unbundled agent, with the same guards', async () => {
    const [mine, theirs] = await Promise.all([fetchRoutes(bundled.url), fetchRoutes(modular.url)]);
    expect(mine.map(routeKey).sort()).toEqual(theirs.map(routeKey).sort());
    expect(mine.length).toBeGreaterThan(100);
    expect(JSON.stringify(mine)).toBe(JSON.stringify(theirs));
  });
});

describe('an idle hub', () => {
  /**
   * Packages that only a feature in use needs load on first use (docs/performance.md, Idle): a hub
   * nobody has set anything up on, between restarts (its certificate authority made by the first
   * start), keeps them out of memory. Each line names what loads it when it is needed.
   */
  const LOADED_ON_FIRST_USE = [
    'ollama', // the Ollama client (LLM screens, flows); its Node entry brings a fetch polyfill
    'whatwg-fetch',
    'wavefile', // WAV files: recordings, speech
    'eventsource-parser', // a cloud LLM's streamed answer
    '@peculiar/x509', // making a certificate
    'reflect-metadata',
    'dockerode', // the first Docker Engine call
    'home-assistant-js-websocket', // connecting Home Assistant
    'argon2', // the first sign-in, registration or password change (the timing-safe dummy is a constant)
    're2', // the first flow condition with a pattern
    'systeminformation', // the process list, interfaces, sockets and host facts, when a screen asks
  ];

  it('loads none of the packages only a feature in use needs', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-idle-'));
    const list = path.join(dataDir, 'loaded-modules.txt');
    const launch = {
      entry: 'agent/dist/bundle/main.js',
      dataDir,
      nodeArgs: ['--import', path.resolve('tests/fixtures/loaded-packages.mjs')],
      env: { NEXUS_TEST_LOADED_MODULES: list, DOCKER_HOST: `unix://${path.join(dataDir, 'no-docker.sock')}` },
    };
    try {
      await (await startAgent(launch)).stop();
      fs.rmSync(list, { force: true });
      const agent = await startAgent(launch);
      try {
        // Up and answering: everything a start loads has been loaded.
        const res = await new Client(agent.url).get('/api/health');
        expect(res.status).toBe(200);
      } finally {
        await agent.stop();
      }
      const loaded = fs.readFileSync(list, 'utf8').split('\n');
      const packages = new Set(
        loaded.flatMap((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? []),
      );
      // The recording works: the packages every start needs are in it (zod is in the bundle).
      expect([...packages]).toEqual(expect.arrayContaining(['hono', 'better-sqlite3', 'pino']));
      expect(packages.has('zod')).toBe(false);
      expect(LOADED_ON_FIRST_USE.filter((name) => packages.has(name))).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
