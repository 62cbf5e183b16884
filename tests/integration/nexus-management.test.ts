import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createdAccessTokenSchema,
  hubDebugSchema,
  hubOverviewSchema,
  peerStatusSchema,
  remoteHubListSchema,
  remoteHubSchema,
  selfTestSchema,
} from '../../agent/src/contract/index.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';

/**
 * Nexus management against two real agents: "home" watches "cabin" by URL and an access token
 * cabin issued; the token opens cabin's peer status and nothing else.
 */

let home: RunningAgent;
let cabin: RunningAgent;
let homeAdmin: Client;
let cabinAdmin: Client;

beforeAll(async () => {
  [home, cabin] = await Promise.all([startAgent(), startAgent()]);
  homeAdmin = new Client(home.url);
  cabinAdmin = new Client(cabin.url);
  await Promise.all([
    homeAdmin.post('/api/setup', {
      hubName: 'Home',
      timeZone: 'Europe/Berlin',
      owner: { name: 'Owner', email: 'owner@home.example', password: 'correct horse battery' },
    }),
    cabinAdmin.post('/api/setup', {
      hubName: 'Cabin',
      timeZone: 'UTC',
      owner: { name: 'Owner', email: 'owner@cabin.example', password: 'correct horse battery' },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([home?.stop(), cabin?.stop()]);
});

describe("this hub's overview, self-test and debug facts", () => {
  it('shows the identity, the version and every service with its health', async () => {
    const res = await homeAdmin.get('/api/nexus/overview');
    expect(res.status).toBe(200);
    const overview = hubOverviewSchema.parse(res.json);
    expect(overview.identity).toMatchObject({
      hubName: 'Home',
      timeZone: 'Europe/Berlin',
      version: expect.any(String),
    });
    const ids = overview.services.map((s) => s.id);
    expect(ids.slice(0, 5)).toEqual(['agent', 'database', 'docker', 'ollama', 'home-assistant']);
    expect(overview.services.find((s) => s.id === 'agent')?.status).toBe('healthy');
    expect(overview.services.find((s) => s.id === 'database')?.status).toBe('healthy');
    // No Ollama listens at the default address in the test environment, and no HA is connected.
    expect(overview.services.find((s) => s.id === 'ollama')?.status).toBe('down');
    expect(overview.services.find((s) => s.id === 'home-assistant')?.status).toBe('not_configured');
    expect(overview.setup).toEqual({ finished: false, currentStep: 'network' });
  });

  it('renames the hub', async () => {
    const res = await homeAdmin.put('/api/nexus/identity', { hubName: 'Home Hub', timeZone: 'Europe/Paris' });
    expect(res.status).toBe(200);
    expect(hubOverviewSchema.parse(res.json).identity).toMatchObject({
      hubName: 'Home Hub',
      timeZone: 'Europe/Paris',
    });
    expect((await homeAdmin.put('/api/nexus/identity', { hubName: '', timeZone: 'UTC' })).status).toBe(400);
  });

  it('runs a self-test of services, network and hardware, each finding with a fix when it is not a pass', async () => {
    const res = await homeAdmin.post('/api/nexus/self-test');
    expect(res.status).toBe(200);
    const test = selfTestSchema.parse(res.json);
    expect(test.groups.map((g) => g.id)).toEqual(['services', 'network', 'hardware']);
    const checks = test.groups.flatMap((g) => g.checks);
    expect(test.summary.pass + test.summary.warn + test.summary.fail).toBe(checks.length);
    for (const c of checks.filter((c) => c.status !== 'pass')) expect(c.fix, c.id).toBeTruthy();
  });

  it('gives debug facts without secrets', async () => {
    const res = await homeAdmin.get('/api/nexus/debug');
    const debug = hubDebugSchema.parse(res.json);
    expect(debug.agent.dataDir).toBe(home.dataDir);
    expect(debug.database.sizeBytes).toBeGreaterThan(0);
    expect(debug.config.find((c) => c.name === 'HA_TOKEN')?.value).toBe('not set');
  });

  it('keeps management for admins', async () => {
    const user = new Client(home.url);
    await signUp(user, { invitedBy: homeAdmin });
    expect((await user.get('/api/nexus/overview')).status).toBe(200);
    for (const [method, path] of [
      ['POST', '/api/nexus/self-test'],
      ['GET', '/api/nexus/debug'],
      ['GET', '/api/nexus/access-tokens'],
      ['POST', '/api/nexus/hubs'],
    ] as const) {
      expect((await user.request(method, path, method === 'POST' ? {} : undefined)).status, path).toBe(403);
      expect((await new Client(home.url).request(method, path)).status, path).toBe(401);
    }
  });
});

describe('watching another hub', () => {
  let token: string;
  let tokenId: number;
  let hubId: number;

  it('issues an access token once, stored hashed, which opens the peer status only', async () => {
    const created = await cabinAdmin.post('/api/nexus/access-tokens', { name: 'Home hub' });
    expect(created.status).toBe(201);
    const parsed = createdAccessTokenSchema.parse(created.json);
    token = parsed.token;
    tokenId = parsed.id;
    expect(token).toMatch(/^nxh_[A-Za-z0-9_-]{43}$/);
    const list = await cabinAdmin.get('/api/nexus/access-tokens');
    expect(list.text).not.toContain(token);
    expect(list.json.tokens[0]).toMatchObject({ name: 'Home hub', prefix: token.slice(0, 12) });

    const robot = new Client(cabin.url, { authorization: `Bearer ${token}` });
    const peer = await robot.get('/api/nexus/peer');
    expect(peer.status).toBe(200);
    expect(peerStatusSchema.parse(peer.json)).toMatchObject({ hubName: 'Cabin', timeZone: 'UTC' });
    // The token is not a session: everything else stays closed.
    expect((await robot.get('/api/nexus/overview')).status).toBe(401);
    expect((await robot.get('/api/auth/user')).status).toBe(401);
    expect(
      (await new Client(cabin.url, { authorization: 'Bearer nxh_wrong' }).get('/api/nexus/peer')).status,
    ).toBe(401);
    expect((await new Client(cabin.url).get('/api/nexus/peer')).status).toBe(401);
  });

  it('adds the hub by URL and token and shows its status', async () => {
    const wrong = await homeAdmin.post('/api/nexus/hubs', {
      name: 'Cabin',
      url: cabin.url,
      token: 'nxh_not-the-right-token-at-all',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toContain('rejected the access token');
    expect(
      (await homeAdmin.post('/api/nexus/hubs', { name: 'Cabin', url: 'ftp://cabin', token })).status,
    ).toBe(400);

    const added = await homeAdmin.post('/api/nexus/hubs', { name: 'Cabin', url: `${cabin.url}/`, token });
    expect(added.status, added.text).toBe(201);
    const hub = remoteHubSchema.parse(added.json);
    hubId = hub.id;
    expect(hub).toMatchObject({ name: 'Cabin', url: cabin.url, version: expect.any(String) });
    expect(['online', 'degraded']).toContain(hub.state);
    expect(hub.remote?.hubName).toBe('Cabin');
    expect(added.text).not.toContain(token);
    expect((await homeAdmin.post('/api/nexus/hubs', { name: 'Again', url: cabin.url, token })).status).toBe(
      409,
    );

    const list = remoteHubListSchema.parse((await homeAdmin.get('/api/nexus/hubs')).json);
    expect(list.hubs.map((h) => h.name)).toEqual(['Cabin']);
    expect(list.hubs[0]?.lastSeenAt).not.toBeNull();
  });

  it('shows a revoked token as unauthorized and a stopped hub as offline', async () => {
    expect((await cabinAdmin.delete(`/api/nexus/access-tokens/${tokenId}`)).status).toBe(200);
    const refused = remoteHubSchema.parse((await homeAdmin.post(`/api/nexus/hubs/${hubId}/refresh`)).json);
    expect(refused).toMatchObject({ state: 'unauthorized', message: 'The hub rejected the access token' });

    await cabin.stop();
    const gone = remoteHubSchema.parse((await homeAdmin.post(`/api/nexus/hubs/${hubId}/refresh`)).json);
    expect(gone.state).toBe('offline');
    expect(gone.message).toContain('Cannot reach');
    // The last time it answered is kept.
    expect(gone.lastSeenAt).not.toBeNull();
  });

  it('removes the hub', async () => {
    expect((await homeAdmin.delete(`/api/nexus/hubs/${hubId}`)).status).toBe(200);
    expect((await homeAdmin.delete(`/api/nexus/hubs/${hubId}`)).status).toBe(404);
    expect(remoteHubListSchema.parse((await homeAdmin.get('/api/nexus/hubs')).json).hubs).toEqual([]);
  });
});
