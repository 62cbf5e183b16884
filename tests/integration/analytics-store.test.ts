import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import { startHomeAssistantSim, type HomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { waitFor } from '../support/wait-for.js';

/**
 * Issue 16's event store against the real agent and the HA simulator: backfill from HA's history
 * (the first row of each series is the state at the start, not a change), live ingest, resuming
 * after a restart and after a gap with no duplicates, retention, opt-out, deletion, member scoping,
 * and suggestions turned into HA automations.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
let sim: HomeAssistantSim;
let agent: RunningAgent;
let owner: Client;
let member: Client;
let ownerLogin: { email: string; password: string };
let memberLogin: { email: string; password: string };
/** Suggestions: one created, one dismissed (which can still be created: 409 while HA is down). */
const picked: { created?: string; dismissed?: string } = {};
const t0 = Date.now();
/** Midnight UTC a number of days ago, plus an offset. */
const daysAgo = (days: number, offsetMs = 0) => Math.floor(t0 / DAY) * DAY - days * DAY + offsetMs;

/** Stored rows per entity, read straight from the agent's database. */
function storedRows(): Map<string, { at: number; state: string }[]> {
  const db = new Database(path.join(agent.dataDir, 'nexus.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `SELECT e.entity_id AS entityId, v.at AS at, s.value AS state FROM analytics_events v
         JOIN analytics_entities e ON e.id = v.entity JOIN analytics_states s ON s.id = v.state ORDER BY v.at`,
      )
      .all() as { entityId: string; at: number; state: string }[];
    const map = new Map<string, { at: number; state: string }[]>();
    for (const row of rows) {
      const list = map.get(row.entityId) ?? [];
      list.push({ at: row.at, state: row.state });
      map.set(row.entityId, list);
    }
    return map;
  } finally {
    db.close();
  }
}
const total = (rows: Map<string, unknown[]>) => [...rows.values()].reduce((n, list) => n + list.length, 0);
const statesOf = (entityId: string) => (storedRows().get(entityId) ?? []).map((r) => r.state);

function seed(sim: HomeAssistantSim) {
  // A person appears first (live state now), then their past.
  sim.setState('person.alice', 'home', { friendly_name: 'Alice' });
  sim.seedHistory('person.alice', [
    { state: 'not_home', at: daysAgo(3, 8 * HOUR) },
    { state: 'home', at: daysAgo(3, 18 * HOUR) },
    { state: 'not_home', at: daysAgo(2, 8 * HOUR) },
    { state: 'home', at: daysAgo(2, 18 * HOUR) },
  ]);
  // A strong routine: on around 06:30 UTC, off around 07:00, 28 days (the sim's current state,
  // 'on' an hour ago, follows the last 'off': one more change).
  const lamp: { state: string; at: number }[] = [];
  for (let d = 28; d >= 1; d--) {
    const jitter = ((d * 7) % 11) * 60_000;
    lamp.push({ state: 'on', at: daysAgo(d, 6.5 * HOUR + jitter) });
    lamp.push({ state: 'off', at: daysAgo(d, 7 * HOUR + jitter) });
  }
  sim.seedHistory('light.living_room_lamp', lamp);
  // 'unavailable' is not behaviour, and coming back to the same state is no change.
  sim.seedHistory('binary_sensor.office_motion', [
    { state: 'off', at: daysAgo(10, 9 * HOUR) },
    { state: 'on', at: daysAgo(9, 9 * HOUR) },
    { state: 'unavailable', at: daysAgo(8, 9 * HOUR) },
    { state: 'on', at: daysAgo(7, 9 * HOUR) },
    { state: 'off', at: daysAgo(6, 9 * HOUR) },
  ]);
  // A measurement: never stored.
  sim.seedHistory(
    'sensor.outdoor_temperature',
    [1, 2, 3].map((d) => ({ state: `${d}.5`, at: daysAgo(d, 12 * HOUR) })),
  );
  // Older than the retention: only its state at the start is known, and that is not a change.
  sim.seedHistory('light.bedroom_lamp', [{ state: 'on', at: daysAgo(100) }]);
  sim.seedHistory('lock.front_door', [
    { state: 'unlocked', at: daysAgo(5, 8 * HOUR) },
    { state: 'locked', at: daysAgo(5, 9 * HOUR) },
  ]);
}

async function signIn() {
  owner = new Client(agent.url);
  member = new Client(agent.url);
  expect((await owner.post('/api/auth/login', ownerLogin)).status).toBe(200);
  expect((await member.post('/api/auth/login', memberLogin)).status).toBe(200);
}

const suggestionStatus = async (id: string) =>
  ((await owner.get('/api/analytics/suggestions')).json.suggestions as { id: string; status: string }[]).find(
    (s) => s.id === id,
  )?.status;

async function waitBackfilled(after = 0) {
  return waitFor(
    async () => (await owner.get('/api/analytics/status')).json,
    (s) => s.lastBackfill !== null && Date.parse(s.lastBackfill.at) > after && s.backfill === null,
    { what: 'a backfill', timeoutMs: 20_000 },
  );
}

beforeAll(async () => {
  sim = await startHomeAssistantSim();
  seed(sim);
  agent = await startAgent({ env: { HA_URL: sim.url, HA_TOKEN: sim.token } });
  owner = new Client(agent.url);
  ownerLogin = await signUp(owner, { name: 'Owner' });
  member = new Client(agent.url);
  memberLogin = await signUp(member, { name: 'Member' });
  expect(memberLogin).toMatchObject({ role: 'user' });
}, 30_000);

afterAll(async () => {
  await agent?.stop();
  await sim?.stop();
});

describe('analytics event store', () => {
  it('backfills HA history: the first row of a series is not a change, measurements and unavailable are left out', async () => {
    const status = await waitBackfilled();
    expect(status.live).toBe(true);
    const rows = storedRows();
    expect(rows.get('light.living_room_lamp')).toHaveLength(57);
    expect(statesOf('binary_sensor.office_motion')).toEqual(['off', 'on', 'off']);
    expect(statesOf('person.alice')).toEqual(['not_home', 'home', 'not_home', 'home']);
    expect(rows.has('sensor.outdoor_temperature')).toBe(false);
    // 'on' since 100 days ago is the state at the start, dated to it: only the later 'off' is a change.
    expect(statesOf('light.bedroom_lamp')).toEqual(['off']);
    expect(statesOf('lock.front_door')).toEqual(['unlocked', 'locked']);
    for (const list of rows.values()) for (const r of list) expect(r.at).toBeGreaterThan(t0 - 90 * DAY);
    expect(status.events).toBe(total(rows));
    expect(status.oldest).toBe(new Date(rows.get('light.living_room_lamp')![0]!.at).toISOString());
  });

  it('stores live state changes, but not attribute updates, measurements or unavailable', async () => {
    sim.setState('light.kitchen_ceiling', 'on');
    sim.setState('light.kitchen_ceiling', 'on', { brightness: 20, friendly_name: 'Kitchen ceiling' });
    sim.setState('sensor.outdoor_temperature', '9.5');
    sim.setState('binary_sensor.office_motion', 'unavailable');
    sim.setState('binary_sensor.office_motion', 'on');
    await waitFor(
      () => statesOf('binary_sensor.office_motion'),
      (s) => s.length === 4,
      { what: 'the live change stored' },
    );
    expect(statesOf('light.kitchen_ceiling')).toEqual(['off', 'on']);
    expect(statesOf('binary_sensor.office_motion')).toEqual(['off', 'on', 'off', 'on']);
    expect(storedRows().has('sensor.outdoor_temperature')).toBe(false);
  });

  it('turns a suggestion into a marked HA automation; a dismissed one stays dismissed when re-mined', async () => {
    const mined = await owner.post('/api/analytics/mine');
    expect(mined.status, mined.text).toBe(200);
    expect(mined.json.minedAt).not.toBeNull();
    const list = (await owner.get('/api/analytics/suggestions')).json.suggestions as {
      id: string;
      status: string;
    }[];
    expect(list.length).toBeGreaterThanOrEqual(2);
    [picked.created, picked.dismissed] = list.map((s) => s.id);
    const created = await owner.post(
      `/api/analytics/suggestions/${encodeURIComponent(picked.created!)}/automation`,
    );
    expect(created.status, created.text).toBe(201);
    const automationId: string = created.json.automationId;
    expect(created.json.suggestion).toMatchObject({ id: picked.created, status: 'created', automationId });
    expect(sim.automationConfigs.has(automationId)).toBe(true);
    const automations = (await owner.get('/api/ha/automations')).json.automations;
    expect(automations.find((a: { id: string }) => a.id === automationId)).toMatchObject({
      createdBy: 'analytics',
    });
    const again = await owner.post(
      `/api/analytics/suggestions/${encodeURIComponent(picked.created!)}/automation`,
    );
    expect(again.status).toBe(409);
    const dismissed = await owner.post(
      `/api/analytics/suggestions/${encodeURIComponent(picked.dismissed!)}/dismiss`,
    );
    expect(dismissed.status, dismissed.text).toBe(200);
    expect(dismissed.json.status).toBe('dismissed');
    await owner.post('/api/analytics/mine');
    expect(await suggestionStatus(picked.created!)).toBe('created');
    expect(await suggestionStatus(picked.dismissed!)).toBe('dismissed');
  });

  it('resumes after a restart without duplicates; decisions survive it', async () => {
    const last = Date.parse((await owner.get('/api/analytics/status')).json.lastBackfill.at);
    await agent.stop();
    // Counted once the agent stopped: it writes what it buffered on the way out.
    const before = total(storedRows());
    agent = await startAgent({ dataDir: agent.dataDir, env: { HA_URL: sim.url, HA_TOKEN: sim.token } });
    await signIn();
    const status = await waitBackfilled(last);
    // From the cursor the last run left, not from 90 days back.
    expect(Date.parse(status.lastBackfill.from)).toBeGreaterThan(t0 - DAY);
    expect(total(storedRows())).toBe(before);
    await waitFor(
      async () => (await owner.get('/api/analytics/suggestions')).json.minedAt,
      (at) => at !== null,
      { what: 'mining after the restart' },
    );
    expect(await suggestionStatus(picked.created!)).toBe('created');
    expect(await suggestionStatus(picked.dismissed!)).toBe('dismissed');
  });

  it('fills a gap while HA was down', async () => {
    const last = Date.parse((await owner.get('/api/analytics/status')).json.lastBackfill.at);
    await sim.stop();
    await waitFor(
      async () => (await owner.get('/api/analytics/status')).json.live,
      (live) => live === false,
      { what: 'the agent to notice HA is down' },
    );
    // Creating an automation needs HA: 409 while it is down.
    const refused = await owner.post(
      `/api/analytics/suggestions/${encodeURIComponent(picked.dismissed!)}/automation`,
    );
    expect(refused.status, refused.text).toBe(409);
    sim.setState('light.kitchen_ceiling', 'off');
    sim.setState('lock.front_door', 'unlocked');
    await sim.start();
    await waitBackfilled(last);
    expect(statesOf('light.kitchen_ceiling')).toEqual(['off', 'on', 'off']);
    expect(statesOf('lock.front_door')).toEqual(['unlocked', 'locked', 'unlocked']);
  });

  it('prunes by the retention setting', async () => {
    const res = await owner.put('/api/analytics/settings', { retentionDays: 8, excludedEntities: [] });
    expect(res.status, res.text).toBe(200);
    const rows = storedRows();
    for (const list of rows.values())
      for (const r of list) expect(r.at).toBeGreaterThanOrEqual(t0 - 8 * DAY - 60_000);
    expect(rows.get('light.living_room_lamp')!.length).toBeLessThan(20);
    expect((await owner.get('/api/analytics/settings')).json).toEqual({
      retentionDays: 8,
      excludedEntities: [],
    });
  });

  it('an excluded entity loses its history and is no longer recorded', async () => {
    expect(statesOf('lock.front_door').length).toBeGreaterThan(0);
    const res = await owner.put('/api/analytics/settings', {
      retentionDays: 8,
      excludedEntities: ['lock.front_door'],
    });
    expect(res.status, res.text).toBe(200);
    expect(storedRows().has('lock.front_door')).toBe(false);
    sim.setState('lock.front_door', 'locked');
    sim.setState('light.kitchen_ceiling', 'on');
    await waitFor(
      () => statesOf('light.kitchen_ceiling').length,
      (n) => n === 4,
      { what: 'a live change' },
    );
    expect(storedRows().has('lock.front_door')).toBe(false);
  });

  it('DELETE history removes one entity’s or all of it (admin)', async () => {
    const one = await owner.delete('/api/analytics/history?entity=light.bedroom_lamp');
    expect(one.status, one.text).toBe(200);
    expect(one.json).toEqual({ deleted: 1 });
    expect(storedRows().has('light.bedroom_lamp')).toBe(false);
  });

  it('members see only entities the admin allows, and never a person’s whereabouts', async () => {
    // Lights allowed: no person, lock or motion sensor (member access cannot list the person
    // domain at all; the service also refuses it unless listed by entity id).
    const access = await owner.put('/api/settings/home-assistant/member-access', {
      domains: ['light'],
      entities: [],
    });
    expect(access.status, access.text).toBe(200);
    const date = new Date(daysAgo(2)).toISOString().slice(0, 10);
    const adminDay = (await owner.get(`/api/analytics/timeline?date=${date}`)).json;
    expect(adminDay.entities.map((e: { entityId: string }) => e.entityId)).toContain('person.alice');
    const memberDay = await member.get(`/api/analytics/timeline?date=${date}`);
    expect(memberDay.status).toBe(200);
    for (const e of memberDay.json.entities) expect(e.entityId).toMatch(/^light\./);
    for (const url of [
      '/api/analytics/heatmap?entity=person.alice',
      '/api/analytics/heatmap?entity=binary_sensor.office_motion',
      `/api/analytics/timeline?date=${date}&entity=person.alice`,
    ]) {
      const res = await member.get(url);
      expect(res.status, url).toBe(404);
      expect(res.json.message).toBeTypeOf('string');
    }
    expect((await owner.get('/api/analytics/heatmap?entity=person.alice')).status).toBe(200);
    expect((await member.get('/api/analytics/heatmap?entity=light.living_room_lamp')).status).toBe(200);
    for (const list of ['routines', 'sequences', 'predictions', 'anomalies', 'suggestions']) {
      const res = await member.get(`/api/analytics/${list}`);
      expect(res.status, list).toBe(200);
      const items: { entityId?: string; from?: { entityId: string } }[] = res.json[list];
      for (const item of items) {
        if (item.entityId) expect(item.entityId).toMatch(/^light\./);
        if (item.from) expect(item.from.entityId).toMatch(/^light\./);
      }
    }
  });

  it('refuses members the admin routes (403) and strangers everything (401)', async () => {
    const attempts: [string, string, unknown?][] = [
      ['GET', '/api/analytics/settings'],
      ['PUT', '/api/analytics/settings', { retentionDays: 1, excludedEntities: [] }],
      ['DELETE', '/api/analytics/history'],
      ['DELETE', '/api/analytics/history?entity=light.living_room_lamp'],
      ['POST', '/api/analytics/mine'],
      ['POST', '/api/analytics/suggestions/x/automation'],
      ['POST', '/api/analytics/suggestions/x/dismiss'],
    ];
    const before = total(storedRows());
    for (const [method, url, body] of attempts) {
      const res = await member.request(method, url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
    }
    expect(total(storedRows())).toBe(before);
    const stranger = new Client(agent.url);
    expect((await stranger.get('/api/analytics/routines')).status).toBe(401);
    expect((await stranger.get('/api/analytics/status')).status).toBe(401);
  });

  it('answers bad queries and bodies with 400', async () => {
    for (const url of [
      '/api/analytics/heatmap',
      '/api/analytics/heatmap?entity=not-an-entity',
      '/api/analytics/timeline',
      '/api/analytics/timeline?date=yesterday',
      '/api/analytics/timeline?date=2026-13-40',
    ]) {
      const res = await owner.get(url);
      expect(res.status, url).toBe(400);
      expect(res.json.message).toBeTypeOf('string');
    }
    for (const body of [
      { retentionDays: 0, excludedEntities: [] },
      { retentionDays: 10, excludedEntities: ['../etc'] },
      { retentionDays: 10 },
      'not json',
    ]) {
      const res = await owner.put('/api/analytics/settings', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await owner.delete('/api/analytics/history?entity=DROP TABLE')).status).toBe(400);
    expect((await owner.post('/api/analytics/suggestions/unknown/automation')).status).toBe(404);
    expect((await owner.post('/api/analytics/suggestions/unknown/dismiss')).status).toBe(404);
  });
});
