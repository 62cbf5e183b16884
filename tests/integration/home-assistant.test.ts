import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { HomeAssistantSim, startHomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { waitFor } from '../support/wait-for.js';

/** A browser whose every answer is kept, to prove the token never appears in one. */
class RecordingClient extends Client {
  static answers: string[] = [];
  override async request(method: string, p: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await super.request(method, p, body, headers);
    const lines: string[] = [];
    res.headers.forEach((v, k) => lines.push(`${k}: ${v}`));
    RecordingClient.answers.push(`${lines.join('\n')}\n${res.text}`);
    return res;
  }
}

const MEMBER_ACCESS = '/api/settings/home-assistant/member-access';
const DEFAULT_ACCESS = { domains: ['light'], entities: [] };
async function setMemberAccess(access: { domains: string[]; entities: string[] }) {
  const res = await owner.put(MEMBER_ACCESS, access);
  expect(res.status, res.text).toBe(200);
}

let sim: HomeAssistantSim;
let agent: RunningAgent;
let owner: RecordingClient;
let user: RecordingClient;

const status = async (c: Client = owner) => (await c.get('/api/ha/status')).json;
const health = async (c: Client = user) => (await c.get('/api/ha-patterns/health')).json;
const connected = () =>
  waitFor(
    () => status(),
    (s) => s.state === 'connected' && s.health === 'healthy',
    { what: 'connected' },
  );

/** A live channel subscribed to ha.entities, collecting its events. */
async function liveEntities(c: Client) {
  const socket = new WebSocket(`${agent.url.replace('http', 'ws')}/api/live`, {
    headers: { cookie: `nexus_session=${c.cookie('nexus_session')}` },
  });
  const events: any[] = [];
  socket.on('message', (raw) => {
    const message = JSON.parse(raw.toString());
    if (message.type === 'event' && message.topic === 'ha.entities') events.push(message.data);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const subscribed = new Promise<void>((resolve) =>
    socket.on('message', (raw) => {
      if (JSON.parse(raw.toString()).type === 'subscribed') resolve();
    }),
  );
  socket.send(JSON.stringify({ type: 'subscribe', topic: 'ha.entities' }));
  await subscribed;
  return { socket, events };
}

beforeAll(async () => {
  sim = await startHomeAssistantSim();
  agent = await startAgent({ env: { HA_URL: sim.url, HA_TOKEN: sim.token } });
  owner = new RecordingClient(agent.url);
  await signUp(owner, { name: 'Owner' });
  user = new RecordingClient(agent.url);
  const account = await signUp(user, { name: 'Plain User' });
  expect(account.role).toBe('user');
});

afterAll(async () => {
  await agent?.stop();
  await sim?.stop();
});

describe('connecting with HA_URL and HA_TOKEN at first start', () => {
  it('authenticates over the WebSocket API and reports healthy with registry counts and a measured round trip', async () => {
    await connected();
    expect(sim.connectedClients).toBe(1);
    const h = await waitFor(
      () => health(),
      (v) => v.responseTime !== null,
      { what: 'a ping' },
    );
    expect(h).toMatchObject({
      status: 'online',
      connectionHealth: 'healthy',
      devicesCount: sim.devices.length,
      entitiesCount: sim.entityCount,
    });
    expect(h.responseTime).toBeGreaterThan(0);
    expect(h.responseTime).toBeLessThan(1000);
    const s = await status();
    expect(s).toMatchObject({
      haVersion: sim.haVersion,
      locationName: 'Simulated Home',
      counts: { areas: 5 },
    });
    expect(sim.commands.map((c) => c.type)).toEqual(
      expect.arrayContaining([
        'supported_features',
        'subscribe_events',
        'get_states',
        'get_config',
        'config/entity_registry/list',
        'config/device_registry/list',
        'config/area_registry/list',
        'ping',
      ]),
    );
  });

  it('stores the configuration with the token sealed, and never shows the token', async () => {
    const res = await owner.get('/api/settings/home-assistant');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      configured: true,
      url: sim.url,
      tokenSet: true,
      source: 'environment',
      state: 'connected',
    });
    expect(JSON.stringify(res.json)).not.toContain(sim.token);
    const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true });
    try {
      const dump = db
        .prepare("select value from settings where key = 'home-assistant.connection'")
        .pluck()
        .get() as string;
      expect(dump).toContain('tokenSealed');
      expect(dump).not.toContain(sim.token);
    } finally {
      db.close();
    }
  });

  it('lets only admins read or change the settings', async () => {
    expect((await user.get('/api/settings/home-assistant')).status).toBe(403);
    expect((await user.put('/api/settings/home-assistant', { url: sim.url, token: sim.token })).status).toBe(
      403,
    );
    expect((await new Client(agent.url).get('/api/ha/entities')).status).toBe(401);
    const bad = await owner.put('/api/settings/home-assistant', { url: 'ftp://example.com' });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/http/);
  });
});

describe('entities', () => {
  it('lists states joined with their area and device', async () => {
    const res = await user.get('/api/ha/entities');
    expect(res.status).toBe(200);
    expect(res.json.entities).toHaveLength(sim.entityCount);
    const lamp = res.json.entities.find((e: any) => e.entity_id === 'light.living_room_lamp');
    expect(lamp).toMatchObject({
      domain: 'light',
      name: 'Living Room Lamp',
      state: 'on',
      attributes: { brightness: 180 },
      area: { id: 'living_room', name: 'Living Room' },
      device: { id: 'dev_living_lamp', name: 'Living Room Lamp', manufacturer: 'Signify' },
    });
    expect(res.json.areas).toContainEqual({ id: 'garage', name: 'Garage' });
  });

  it('answers one entity, 404 for an unknown one and 400 for a malformed id', async () => {
    const one = await user.get('/api/ha/entities/cover.garage_door');
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ state: 'closed', area: { name: 'Garage' } });
    expect((await user.get('/api/ha/entities/light.nope')).status).toBe(404);
    expect((await user.get('/api/ha/entities/not-an-entity')).status).toBe(400);
  });

  it('follows state_changed events and pushes them to browsers on ha.entities', async () => {
    const live = await liveEntities(user);
    try {
      sim.setState('sensor.outdoor_temperature', '9.3');
      await waitFor(
        async () => (await user.get('/api/ha/entities/sensor.outdoor_temperature')).json.state,
        (s) => s === '9.3',
        { what: 'the cache to follow the event' },
      );
      const pushed = await waitFor(
        () => live.events.filter((e) => e.type === 'changed').flatMap((e) => e.entities),
        (list) => list.some((e: any) => e.entity_id === 'sensor.outdoor_temperature' && e.state === '9.3'),
        { what: 'a live push' },
      );
      const entity = pushed.find((e: any) => e.entity_id === 'sensor.outdoor_temperature');
      expect(entity).toMatchObject({ area: null, device: { name: 'Weather Station' } });
    } finally {
      live.socket.close();
    }
  });
});

describe('service calls', () => {
  it('reach Home Assistant with the target, and the cache follows the result', async () => {
    const res = await user.post('/api/ha/services/light/turn_on', {
      entity_id: 'light.kitchen_ceiling',
      service_data: { brightness_pct: 50 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      domain: 'light',
      service: 'turn_on',
      entityIds: ['light.kitchen_ceiling'],
    });
    expect(res.json.contextId).toEqual(expect.any(String));
    expect(sim.serviceCalls.at(-1)).toEqual({
      domain: 'light',
      service: 'turn_on',
      serviceData: { brightness_pct: 50 },
      target: { entity_id: ['light.kitchen_ceiling'] },
      via: 'websocket',
    });
    const after = await waitFor(
      async () => (await user.get('/api/ha/entities/light.kitchen_ceiling')).json,
      (e) => e.state === 'on',
      { what: 'the light to be on' },
    );
    expect(after.attributes.brightness).toBe(128);
  });

  it('keep users to the everyday domains; admins may call any', async () => {
    const before = sim.serviceCalls.length;
    const denied = await user.post('/api/ha/services/lock/unlock', { entity_id: 'lock.front_door' });
    expect(denied.status).toBe(403);
    expect(denied.json.message).toContain('Only administrators');
    const sneaky = await user.post('/api/ha/services/light/turn_on', { entity_id: 'lock.front_door' });
    expect(sneaky.status).toBe(403);
    const generic = await user.post('/api/ha/services/homeassistant/turn_off', {
      entity_id: 'switch.office_fan',
    });
    expect(generic.status).toBe(403);
    expect(sim.serviceCalls.length).toBe(before);

    // Services of an everyday domain that reach beyond it are the admins' even when the domain is
    // allowed: scene.apply sets any entity it names (here the lock), scene.create makes such a
    // scene, reload rereads config.
    await setMemberAccess({ domains: ['light', 'scene', 'script'], entities: [] });
    for (const [domain, service, data] of [
      ['scene', 'apply', { entities: { 'lock.front_door': 'unlocked' } }],
      ['scene', 'create', { scene_id: 'open_up', entities: { 'lock.front_door': 'unlocked' } }],
      ['script', 'reload', {}],
      ['light', 'reload', {}],
    ] as const) {
      const refused = await user.post(`/api/ha/services/${domain}/${service}`, { service_data: data });
      expect(refused.status, `${domain}.${service}`).toBe(403);
      expect(refused.json.message).toContain(`Only administrators may call ${domain}.${service}`);
    }
    expect(sim.serviceCalls.filter((c) => c.domain === 'scene' && c.service !== 'turn_on')).toEqual([]);
    await setMemberAccess(DEFAULT_ACCESS);

    const admin = await owner.post('/api/ha/services/lock/unlock', { entity_id: 'lock.front_door' });
    expect(admin.status).toBe(200);
    await waitFor(
      () => sim.getState('lock.front_door')?.state,
      (s) => s === 'unlocked',
    );
  });

  it('let members control lights only until an admin allows more, entity by entity or domain by domain', async () => {
    expect((await owner.get(MEMBER_ACCESS)).json).toEqual(DEFAULT_ACCESS);
    const before = sim.serviceCalls.length;
    const refusedCalls = [
      ['switch', 'turn_on', { entity_id: 'switch.coffee_maker' }],
      ['switch', 'toggle', { entity_id: 'switch.office_fan' }],
      ['cover', 'open_cover', { entity_id: 'cover.garage_door' }],
      [
        'climate',
        'set_hvac_mode',
        { entity_id: 'climate.hallway_thermostat', service_data: { hvac_mode: 'off' } },
      ],
      ['media_player', 'media_play', { entity_id: 'media_player.living_room_speaker' }],
      ['scene', 'turn_on', { entity_id: 'scene.movie_night' }],
      ['script', 'turn_on', { entity_id: 'script.good_night' }],
      ['script', 'good_night', {}],
      // A light call that also names a switch is refused whole.
      ['light', 'turn_on', { entity_id: ['light.kitchen_ceiling', 'switch.coffee_maker'] }],
      // No target: the call acts on the domain, which is not allowed.
      ['switch', 'turn_off', {}],
    ] as const;
    for (const [domain, service, body] of refusedCalls) {
      const res = await user.post(`/api/ha/services/${domain}/${service}`, body);
      expect(res.status, `${domain}.${service} ${JSON.stringify(body)}`).toBe(403);
      expect(res.json.message).toMatch(/an admin can allow it/);
    }
    expect(sim.serviceCalls.length).toBe(before);

    // The admin allows one switch, the cover domain and one script.
    await setMemberAccess({
      domains: ['cover', 'light'],
      entities: ['switch.coffee_maker', 'script.good_night'],
    });
    expect((await owner.get(MEMBER_ACCESS)).json).toEqual({
      domains: ['cover', 'light'],
      entities: ['script.good_night', 'switch.coffee_maker'],
    });
    const on = await user.post('/api/ha/services/switch/turn_on', { entity_id: 'switch.coffee_maker' });
    expect(on.status, on.text).toBe(200);
    await waitFor(
      () => sim.getState('switch.coffee_maker')?.state,
      (s) => s === 'on',
    );
    expect(
      (await user.post('/api/ha/services/cover/open_cover', { entity_id: 'cover.bedroom_blind' })).status,
    ).toBe(200);
    expect(
      (await user.post('/api/ha/services/script/turn_on', { entity_id: 'script.good_night' })).status,
    ).toBe(200);
    expect((await user.post('/api/ha/services/script/good_night', {})).status).toBe(200);
    // The other switch stays the admins'.
    const fan = await user.post('/api/ha/services/switch/turn_off', { entity_id: 'switch.office_fan' });
    expect(fan.status).toBe(403);
    expect(fan.json.message).toBe(
      'Members may not control switch.office_fan; an admin can allow it under Home Assistant → Connection setup → Member access',
    );
    await setMemberAccess(DEFAULT_ACCESS);
  });

  it('refuse members area, device, floor and label targets, which reach entities nobody listed', async () => {
    const before = sim.serviceCalls.length;
    for (const key of ['area_id', 'device_id', 'floor_id', 'label_id']) {
      const res = await user.post('/api/ha/services/light/turn_off', {
        entity_id: 'light.kitchen_ceiling',
        service_data: { [key]: key === 'device_id' ? 'dev_coffee_plug' : 'kitchen' },
      });
      expect(res.status, key).toBe(403);
      expect(res.json.message).toContain(`not by ${key}`);
    }
    const bare = await user.post('/api/ha/services/switch/turn_off', { service_data: { area_id: 'office' } });
    expect(bare.status).toBe(403);
    expect(sim.serviceCalls.length).toBe(before);
    // Admins target areas as they like.
    const admin = await owner.post('/api/ha/services/light/turn_off', {
      service_data: { area_id: 'kitchen' },
    });
    expect(admin.status, admin.text).toBe(200);
    expect(sim.serviceCalls.at(-1)?.target).toEqual({ area_id: ['kitchen'] });
  });

  it('let only admins read and set the member list, and validate it', async () => {
    expect((await user.get(MEMBER_ACCESS)).status).toBe(403);
    expect((await user.put(MEMBER_ACCESS, { domains: ['switch'], entities: [] })).status).toBe(403);
    expect((await new Client(agent.url).get(MEMBER_ACCESS)).status).toBe(401);
    for (const body of [
      { domains: ['Light'], entities: [] },
      { domains: ['lock'], entities: [] },
      { domains: ['homeassistant'], entities: [] },
      { domains: [], entities: ['lock.front_door'] },
      { domains: [], entities: ['switch'] },
      { domains: [], entities: ['switch.Coffee'] },
      { domains: ['light'] },
      { domains: ['light'], entities: [], extra: true },
    ]) {
      const res = await owner.put(MEMBER_ACCESS, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.message).toEqual(expect.any(String));
    }
    expect((await owner.get(MEMBER_ACCESS)).json).toEqual(DEFAULT_ACCESS);
  });

  it('tell each person what they may control: admins everything, members the list an admin set', async () => {
    expect((await new Client(agent.url).get('/api/ha/my-access')).status).toBe(401);
    expect((await owner.get('/api/ha/my-access')).json).toEqual({ all: true, domains: [], entities: [] });
    expect((await user.get('/api/ha/my-access')).json).toEqual({ all: false, ...DEFAULT_ACCESS });
    const widened = await owner.put(MEMBER_ACCESS, { domains: ['light'], entities: ['switch.coffee_maker'] });
    expect(widened.status, widened.text).toBe(200);
    try {
      expect((await user.get('/api/ha/my-access')).json).toEqual({
        all: false,
        domains: ['light'],
        entities: ['switch.coffee_maker'],
      });
    } finally {
      expect((await owner.put(MEMBER_ACCESS, DEFAULT_ACCESS)).status).toBe(200);
    }
  });

  it('validate the body', async () => {
    const cases: unknown[] = [
      { entity_id: 'Light.Kitchen' },
      { entity_id: [] },
      { entity_id: 42 },
      { service_data: 'bright' },
      { entity_id: 'light.kitchen_ceiling', brightness: 3 },
    ];
    for (const body of cases) {
      const res = await user.post('/api/ha/services/light/turn_on', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.message).toEqual(expect.any(String));
    }
    expect((await user.post('/api/ha/services/Light/turn_on', {})).status).toBe(400);
  });

  it("pass Home Assistant's own error message through", async () => {
    const tooHot = await owner.post('/api/ha/services/climate/set_temperature', {
      entity_id: 'climate.hallway_thermostat',
      service_data: { temperature: 40 },
    });
    expect(tooHot.status).toBe(400);
    expect(tooHot.json.message).toBe(
      'Validation error: Provided temperature 40.0 is not valid. Accepted range is 7 to 35.',
    );
    expect(tooHot.json.details).toEqual({ code: 'service_validation_error' });

    // A user's call of a service outside the list stops at the hub; an admin's reaches HA.
    const listed = await user.post('/api/ha/services/light/sparkle', { entity_id: 'light.kitchen_ceiling' });
    expect(listed.status).toBe(403);
    const unknown = await owner.post('/api/ha/services/light/sparkle', {
      entity_id: 'light.kitchen_ceiling',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe('Service light.sparkle not found.');
  });
});

describe('logbook and history', () => {
  it('reads the logbook over REST with filters', async () => {
    const res = await user.get('/api/ha/logbook?entity=light.kitchen_ceiling');
    expect(res.status, res.text).toBe(200);
    // Newest first: the movie-night scene turned it off after the user turned it on.
    expect(res.json.entries.slice(0, 2)).toMatchObject([
      { entity_id: 'light.kitchen_ceiling', message: 'turned off', byUser: false },
      {
        entity_id: 'light.kitchen_ceiling',
        name: 'Kitchen Ceiling',
        message: 'turned on',
        domain: 'light',
        byUser: true,
      },
    ]);
    expect(res.json.entries.every((e: any) => e.entity_id === 'light.kitchen_ceiling')).toBe(true);

    const all = await user.get('/api/ha/logbook');
    expect(all.json.entries.map((e: any) => e.entity_id)).toEqual(
      expect.arrayContaining(['lock.front_door', 'cover.garage_door']),
    );
    // Continuous sensors stay out of the logbook, as in Home Assistant.
    expect(all.json.entries.some((e: any) => e.entity_id === 'sensor.outdoor_temperature')).toBe(false);

    const now = Date.now();
    const backwards = await user.get(
      `/api/ha/logbook?start=${new Date(now).toISOString()}&end=${new Date(now - 1000).toISOString()}`,
    );
    expect(backwards.status).toBe(400);
    expect((await user.get('/api/ha/logbook?start=yesterday')).status).toBe(400);
  });

  it('reads history for named entities', async () => {
    const res = await user.get('/api/ha/history?entity=light.kitchen_ceiling,sensor.outdoor_temperature');
    expect(res.status, res.text).toBe(200);
    const kitchen = res.json.series.find((s: any) => s.entity_id === 'light.kitchen_ceiling');
    expect(kitchen.name).toBe('Kitchen Ceiling');
    expect(kitchen.points.map((p: any) => p.state)).toEqual(['off', 'on', 'off']);
    expect((await user.get('/api/ha/history')).status).toBe(400);
  });
});

describe('connection test', () => {
  it('runs every step against the stored connection, each timed', async () => {
    const res = await owner.post('/api/ha/connection-test', {});
    expect(res.status, res.text).toBe(200);
    expect(res.json.ok).toBe(true);
    expect(res.json.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['dns', 'ok'],
      ['tcp', 'ok'],
      ['http', 'ok'],
      ['auth', 'ok'],
      ['websocket', 'ok'],
      ['registry', 'ok'],
    ]);
    for (const step of res.json.steps) expect(step.durationMs).toEqual(expect.any(Number));
    expect(res.json.steps[5].detail).toBe(
      `${sim.entityCount} entities, ${sim.devices.length} devices, 5 areas`,
    );
    expect(res.json.haVersion).toBe(sim.haVersion);
  });

  it('explains a rejected token and a closed port; only admins run it, and a new address needs the token', async () => {
    // The steps name HA's host, addresses and port: members get a 403, not the network's layout.
    expect((await user.post('/api/ha/connection-test', {})).status).toBe(403);
    expect((await user.post('/api/ha/connection-test', { token: 'x'.repeat(20) })).status).toBe(403);
    // The stored token is not sent to another server on an admin's say-so alone.
    const elsewhere = await owner.post('/api/ha/connection-test', { url: 'http://127.0.0.1:9' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.json.message).toContain(
      'the stored token is only sent to the Home Assistant it was saved for',
    );

    const badToken = await owner.post('/api/ha/connection-test', { token: 'not-the-token-at-all' });
    expect(badToken.json.ok).toBe(false);
    const auth = badToken.json.steps.find((s: any) => s.id === 'auth');
    expect(auth).toMatchObject({ status: 'failed', problem: 'Home Assistant rejected the token.' });
    expect(auth.fix).toContain('Long-lived access tokens');
    expect(badToken.json.steps.slice(4).every((s: any) => s.status === 'skipped')).toBe(true);

    const closed = new HomeAssistantSim();
    await closed.start();
    const closedUrl = closed.url;
    await closed.stop();
    const refused = await owner.post('/api/ha/connection-test', { url: closedUrl, token: sim.token });
    const tcp = refused.json.steps.find((s: any) => s.id === 'tcp');
    expect(tcp.status).toBe('failed');
    expect(tcp.problem).toContain('refused the connection');
  });
});

describe('faults', () => {
  it('notices Home Assistant going away within 10 s, answers 503, reconnects and refills the gap from history', async () => {
    await connected();
    const stoppedAt = Date.now();
    await sim.stop();
    const down = await waitFor(
      () => health(),
      (h) => h.connectionHealth !== 'healthy',
      { what: 'non-healthy' },
    );
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    expect(down).toMatchObject({ status: 'offline', connectionHealth: 'disconnected', responseTime: null });

    const call = await user.post('/api/ha/services/light/turn_off', { entity_id: 'light.kitchen_ceiling' });
    expect(call.status).toBe(503);
    expect(call.json.message).toMatch(/Home Assistant is not reachable/);
    // What every signed-in user sees of the connection never says where Home Assistant is.
    const where = new URL(sim.url);
    for (const seen of [
      call.json.message,
      (await user.get('/api/ha/status')).text,
      (await health()).message,
    ]) {
      expect(seen ?? '').not.toContain(where.host);
      expect(seen ?? '').not.toContain(`:${where.port}`);
    }
    const list = await user.get('/api/ha/entities');
    expect(list.status).toBe(503);

    // Changes while the agent cannot see them: HA records them, the refill finds them.
    sim.setState('binary_sensor.office_motion', 'on');
    sim.setState('binary_sensor.office_motion', 'off');
    sim.setState('switch.office_fan', 'off');
    await sim.start();
    const back = await waitFor(
      () => status(),
      (s) => s.state === 'connected' && s.lastRefill !== null,
      {
        timeoutMs: 15_000,
        what: 'reconnect and refill',
      },
    );
    expect(back.lastRefill.transitions).toBeGreaterThanOrEqual(3);
    expect(back.events.map((e: any) => e.kind)).toEqual(
      expect.arrayContaining(['disconnected', 'reconnected', 'refill']),
    );
    expect((await user.get('/api/ha/entities/switch.office_fan')).json.state).toBe('off');
    const activity = (await user.get('/api/ha/activity')).json;
    expect(
      activity.filter((a: any) => a.refilled && a.entity_id === 'binary_sensor.office_motion'),
    ).toHaveLength(2);
    // The subscription was renewed: new events reach the cache again.
    sim.setState('switch.office_fan', 'on');
    await waitFor(
      async () => (await user.get('/api/ha/entities/switch.office_fan')).json.state,
      (s) => s === 'on',
    );
  }, 40_000);

  it('turns degraded when Home Assistant hangs and stops answering pings', async () => {
    await connected();
    const frozenAt = Date.now();
    sim.freeze();
    try {
      await waitFor(
        () => health(),
        (h) => h.connectionHealth !== 'healthy',
        { timeoutMs: 12_000, what: 'a missed ping' },
      );
      expect(Date.now() - frozenAt).toBeLessThan(10_000);
    } finally {
      sim.resume();
    }
    await waitFor(
      () => health(),
      (h) => h.connectionHealth === 'healthy',
      { timeoutMs: 20_000, what: 'recovery' },
    );
  }, 40_000);

  it('says clearly when Home Assistant rejects the token, and does not retry', async () => {
    const failuresBefore = sim.authFailures;
    const res = await owner.put('/api/settings/home-assistant', {
      url: sim.url,
      token: 'a-wrong-long-lived-token',
    });
    expect(res.status).toBe(200);
    expect(res.json.state).toBe('auth_invalid');
    expect(res.json.message).toContain('Home Assistant rejected the token');
    expect(await health()).toMatchObject({ status: 'offline', connectionHealth: 'disconnected' });
    const s = await status();
    expect(s.nextRetryAt).toBeNull();
    const call = await user.get('/api/ha/logbook');
    expect(call.status).toBe(503);
    expect(call.json.message).toContain('Home Assistant rejected the token');
    expect(sim.authFailures - failuresBefore).toBe(1);

    // The right token, entered again, connects.
    const fixed = await owner.put('/api/settings/home-assistant', { url: sim.url, token: sim.token });
    expect(fixed.json).toMatchObject({ state: 'connected', source: 'settings', tokenSet: true });
    expect(sim.authFailures - failuresBefore).toBe(1);
  });

  it('keeps the stored token when only the address is saved on the same origin, and asks for it for another', async () => {
    const res = await owner.put('/api/settings/home-assistant', { url: `${sim.url}/` });
    expect(res.json).toMatchObject({ state: 'connected', url: sim.url });
    const moved = await owner.put('/api/settings/home-assistant', { url: 'http://127.0.0.1:9' });
    expect(moved.status).toBe(400);
    expect(moved.json.message).toContain('a new address needs the token again');
    expect((await owner.get('/api/settings/home-assistant')).json).toMatchObject({ url: sim.url });
  });
});

// After the connection test and the faults: the camera is not in the simulator's registry.
describe('camera tokens', () => {
  it("never pass a camera's access token to browsers, in states or history", async () => {
    const token = 'camtoken0123456789abcdef';
    sim.setState('camera.porch', 'idle', {
      friendly_name: 'Porch',
      access_token: token,
      entity_picture: `/api/camera_proxy/camera.porch?token=${token}`,
    });
    const porch = await waitFor(
      async () => await user.get('/api/ha/entities/camera.porch'),
      (res) => res.status === 200,
      { what: 'the camera in the cache' },
    );
    expect(porch.text).not.toContain(token);
    expect(porch.json.attributes).toEqual({
      friendly_name: 'Porch',
      entity_picture: '/api/camera_proxy/camera.porch?token=redacted',
    });
    expect((await user.get('/api/ha/entities')).text).not.toContain(token);
    const history = await user.get('/api/ha/history?entity=camera.porch&minimal=false');
    expect(history.status).toBe(200);
    expect(history.text).not.toContain(token);
  });
});

describe('secrets', () => {
  it('never puts the token in a response or a log line', () => {
    expect(RecordingClient.answers.length).toBeGreaterThan(20);
    for (const answer of RecordingClient.answers) expect(answer).not.toContain(sim.token);
    for (const line of agent.logs) expect(line).not.toContain(sim.token);
    expect(fs.readFileSync(path.join(agent.dataDir, 'secret.key'), 'utf8')).not.toContain(sim.token);
  });
});

describe('without Home Assistant configured', () => {
  it('reports not_configured and answers 503 with what to do', async () => {
    const bare = await startAgent();
    try {
      const c = new Client(bare.url);
      await signUp(c);
      expect((await c.get('/api/ha-patterns/health')).json).toMatchObject({
        status: 'not_configured',
        connectionHealth: 'not_configured',
        devicesCount: 0,
        entitiesCount: 0,
        responseTime: null,
      });
      const res = await c.get('/api/ha/entities');
      expect(res.status).toBe(503);
      expect(res.json.message).toContain('not connected yet');
      expect((await c.post('/api/ha/connection-test', {})).status).toBe(400);
    } finally {
      await bare.stop();
    }
  });
});
