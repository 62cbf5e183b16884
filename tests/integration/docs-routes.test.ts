import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { Client } from '../support/http.js';

let agent: RunningAgent;

beforeAll(async () => {
  agent = await startAgent();
});
afterAll(async () => {
  await agent?.stop();
});

type Route = {
  method: string;
  path: string;
  group: string;
  signInRequired: boolean;
  roles: string[] | null;
  credential: string | null;
  input: Record<string, Record<string, unknown>>;
};

describe('GET /api/docs/routes', () => {
  it("lists the agent's own endpoints with the guard each sits behind, without signing in", async () => {
    const res = await new Client(agent.url).get('/api/docs/routes');
    expect(res.status).toBe(200);
    expect(res.json.version).toBe('1.0.1-alpha');
    const routes = res.json.routes as Route[];
    const find = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path);

    expect(find('GET', '/api/health')).toEqual({
      method: 'GET',
      path: '/api/health',
      group: 'health',
      signInRequired: false,
      roles: null,
      credential: null,
      input: {},
    });
    // Each endpoint's input, as JSON Schema read from its validators.
    expect(find('PUT', '/api/auth/registration')!.input.json).toEqual({
      type: 'object',
      properties: { mode: { type: 'string', enum: ['open', 'invite', 'closed'] } },
      required: ['mode'],
    });
    expect(find('PATCH', '/api/users/:id')!.input.param).toMatchObject({ type: 'object', required: ['id'] });
    expect(find('GET', '/api/audit')!.input.query).toMatchObject({ type: 'object' });
    expect(find('GET', '/api/docs/routes')).toMatchObject({ signInRequired: false });
    expect(find('POST', '/api/auth/login')).toMatchObject({ group: 'auth', signInRequired: false });
    expect(find('GET', '/api/auth/user')).toMatchObject({ signInRequired: true, roles: null });
    expect(find('GET', '/api/notifications')).toMatchObject({ signInRequired: true, roles: null });
    expect(find('POST', '/api/notifications/:id/read')).toMatchObject({ signInRequired: true });
    expect(find('POST', '/api/auth/password-reset/request')).toMatchObject({ signInRequired: false });
    // A sub-app-wide guard (`.use(requireAdmin)`) covers every endpoint under it.
    expect(find('GET', '/api/users')).toMatchObject({ signInRequired: true, roles: ['admin', 'superadmin'] });
    expect(find('PATCH', '/api/users/:id')).toMatchObject({ roles: ['admin', 'superadmin'] });
    // Endpoints for devices and other hubs name the token they take instead of reading as public.
    expect(find('POST', '/api/devices/satellite/:id/heartbeat')).toMatchObject({
      signInRequired: false,
      credential: 'Satellite token',
    });
    expect(find('GET', '/api/nexus/peer')).toMatchObject({
      signInRequired: true,
      credential: 'Hub access token',
    });

    // Only API paths, each method+path once, and no catch-alls.
    expect(routes.every((r) => r.path.startsWith('/api/') && r.method !== 'ALL')).toBe(true);
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('agrees with the server: every listed sign-in-required GET answers 401 when signed out', async () => {
    const client = new Client(agent.url);
    const routes = (await client.get('/api/docs/routes')).json.routes as Route[];
    const guarded = routes.filter((r) => r.method === 'GET' && r.signInRequired && !r.path.includes(':'));
    expect(guarded.length).toBeGreaterThan(2);
    for (const route of guarded) {
      const res = await client.get(route.path);
      expect({ path: route.path, status: res.status }).toEqual({ path: route.path, status: 401 });
    }
  });
});
