import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { satelliteListSchema, type Satellite } from '../../agent/src/contract/satellites.js';
import { startAgent, type RunningAgent } from '../support/agent.js';
import { signUp } from '../support/auth.js';
import { Client } from '../support/http.js';
import type { HomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { startHomeAssistantSim } from '../fixtures/home-assistant-sim.js';
import { waitFor } from '../support/wait-for.js';

/**
 * Satellites adopted by Home Assistant, end to end: the real agent connected to the HA simulator
 * seeded with a Voice PE, a Satellite1 and an offline Voice PE, as HA's registries describe them.
 */

const LIVING = 'home_assistant_voice_0a1b2c';
const OFFICE = 'satellite1_4f5e6d';
const LIST = '/api/devices/satellite';

let sim: HomeAssistantSim;
let agent: RunningAgent;
let owner: Client;
let member: Client;

const list = async (c: Client = owner): Promise<Satellite[]> => {
  const res = await c.get(LIST);
  expect(res.status, res.text).toBe(200);
  return satelliteListSchema.parse(res.json);
};
const byName = async (name: string) => (await list()).find((s) => s.name === name);
/** Waits (no sleeps) until the merged list satisfies `accept`; the budget is the 2 s plus slack for a busy test machine. */
const listUntil = (accept: (items: Satellite[]) => boolean, what: string, timeoutMs = 4_000) =>
  waitFor(() => list(), accept, { what, timeoutMs });

const control = (c: Client, id: number, body: unknown) => c.post(`${LIST}/${id}/control`, body);
/** The service calls the sim received since `from`. */
const callsSince = (from: number) => sim.serviceCalls.slice(from);

beforeAll(async () => {
  sim = await startHomeAssistantSim({ voiceSatellites: true });
  agent = await startAgent({ env: { HA_URL: sim.url, HA_TOKEN: sim.token } });
  owner = new Client(agent.url);
  await signUp(owner, { name: 'Owner' });
  member = new Client(agent.url);
  expect((await signUp(member, { name: 'Member' })).role).toBe('user');
  await listUntil(
    (items) => items.filter((s) => s.source === 'home-assistant').length === 3,
    'three HA satellites',
  );
});

afterAll(async () => {
  await agent?.stop();
  await sim?.stop();
});

describe('Home Assistant satellites in the merged list', () => {
  it('lists every device with an assist_satellite entity with the fields from its registries and states', async () => {
    const items = await listUntil(
      (all) => all.find((s) => s.name === 'Office Satellite')?.controls.wakeWord?.options.length === 4,
      'the registry entries read',
    );
    const living = items.find((s) => s.name === 'Living Room Voice')!;
    expect(living).toMatchObject({
      source: 'home-assistant',
      status: 'online',
      statusReason: null,
      signalStrength: -48,
      activeWakeWord: 'Okay Nabu',
      room: 'Living Room',
      firmwareVersion: '25.10.0',
      model: 'Home Assistant Voice PE',
      manufacturer: 'Nabu Casa',
      ipAddress: null,
      homeAssistant: {
        deviceId: 'dev_voice_pe_living',
        satelliteEntityId: `assist_satellite.${LIVING}_assist_satellite`,
      },
      wyoming: null,
      controls: {
        volume: { value: 50 },
        mute: { value: false },
        wakeWord: { value: 'Okay Nabu', options: ['no_wake_word', 'Hey Jarvis', 'Hey Mycroft', 'Okay Nabu'] },
        led: { on: true, brightness: 50, color: '#0078ff' },
        restart: false,
        announce: true,
      },
    });
    expect(Date.parse(living.lastSeen!)).toBeGreaterThan(Date.now() - 2 * 3_600_000);

    const office = items.find((s) => s.name === 'Office Satellite')!;
    expect(office).toMatchObject({
      status: 'online',
      signalStrength: -67,
      activeWakeWord: 'Hey Jarvis',
      room: 'Office',
      firmwareVersion: '1.0.0',
      model: 'Satellite1',
      manufacturer: 'FutureProofHomes',
      controls: { volume: { value: 35 }, restart: true, announce: true },
    });

    const bedroom = items.find((s) => s.name === 'Bedroom Voice')!;
    expect(bedroom).toMatchObject({
      status: 'offline',
      signalStrength: null,
      activeWakeWord: null,
      room: 'Bedroom',
    });
    expect(bedroom.statusReason).toMatch(/unavailable/);

    // Ordinary devices (lamps, plugs, the Sonos speaker) are not satellites.
    expect(items.filter((s) => s.source === 'home-assistant')).toHaveLength(3);
    // The extended entries come from HA's own get_entries, for the satellites' entities only.
    const getEntries = sim.commands.filter((c) => c.type === 'config/entity_registry/get_entries');
    expect(getEntries.length).toBeGreaterThan(0);
    const asked = getEntries.at(-1)!.entity_ids as string[];
    expect(asked).toContain(`sensor.${LIVING}_wifi_signal`);
    expect(asked).not.toContain('light.living_room_lamp');
  });

  it('answers one satellite by id and 404 for an unknown id', async () => {
    const living = (await byName('Living Room Voice'))!;
    const one = await member.get(`${LIST}/${living.id}`);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ name: 'Living Room Voice', source: 'home-assistant' });
    const missing = await owner.get(`${LIST}/987654`);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toEqual(expect.any(String));
    expect((await owner.post(`${LIST}/987654/control`, { action: 'restart' })).status).toBe(404);
  });

  it('shows a state change (signal, wake word, going offline) within 2 s', async () => {
    const signal = `sensor.${OFFICE}_wifi_signal`;
    sim.setState(signal, '-71');
    sim.setState(`select.${OFFICE}_wake_word`, 'no_wake_word');
    const started = Date.now();
    const items = await listUntil((all) => {
      const o = all.find((s) => s.name === 'Office Satellite');
      return o?.signalStrength === -71 && o.activeWakeWord === null;
    }, 'the new signal and wake word');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(items.find((s) => s.name === 'Office Satellite')!.controls.wakeWord!.value).toBe('no_wake_word');

    sim.setState(`assist_satellite.${OFFICE}_assist_satellite`, 'unavailable');
    await listUntil((all) => all.find((s) => s.name === 'Office Satellite')?.status === 'offline', 'offline');
    sim.setState(`assist_satellite.${OFFICE}_assist_satellite`, 'idle');
    sim.setState(`select.${OFFICE}_wake_word`, 'Hey Jarvis');
    await listUntil(
      (all) => all.find((s) => s.name === 'Office Satellite')?.status === 'online',
      'online again',
    );
  });

  it('shows a satellite adopted in Home Assistant, a rename and a removal within 2 s', async () => {
    let started = Date.now();
    sim.addVoiceSatellite({
      deviceId: 'dev_voice_pe_kitchen',
      name: 'Home Assistant Voice 123abc',
      nameByUser: null,
      areaId: 'kitchen',
      manufacturer: 'Nabu Casa',
      model: 'Home Assistant Voice PE',
      swVersion: '25.11.0',
      prefix: 'home_assistant_voice_123abc',
      volume: 0.2,
      wakeWord: 'Hey Mycroft',
      signal: -52,
    });
    const added = await listUntil(
      (all) => all.some((s) => s.name === 'Home Assistant Voice 123abc' && s.controls.wakeWord !== null),
      'the new satellite',
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(added.find((s) => s.name === 'Home Assistant Voice 123abc')).toMatchObject({
      status: 'online',
      room: 'Kitchen',
      firmwareVersion: '25.11.0',
      signalStrength: -52,
      activeWakeWord: 'Hey Mycroft',
    });

    started = Date.now();
    sim.updateDevice('dev_voice_pe_kitchen', { name_by_user: 'Kitchen Voice', area_id: 'garage' });
    await listUntil(
      (all) => all.some((s) => s.name === 'Kitchen Voice' && s.room === 'Garage'),
      'the renamed satellite',
    );
    expect(Date.now() - started).toBeLessThan(2_000);

    sim.removeDevice('dev_voice_pe_kitchen');
    await listUntil((all) => !all.some((s) => s.name === 'Kitchen Voice'), 'the removed satellite gone');
  });

  it('records signal readings, so the 24 h chart has points', async () => {
    const living = (await byName('Living Room Voice'))!;
    const history = await waitFor(
      async () => (await member.get(`${LIST}/${living.id}/signal`)).json,
      (h: { points: Array<{ dbm: number }> }) => h.points.some((p) => p.dbm === -48),
      { what: 'a signal point' },
    );
    expect(history.points.length).toBeGreaterThan(0);
  });

  it('/sources says Home Assistant is read', async () => {
    const res = await member.get(`${LIST}/sources`);
    expect(res.status).toBe(200);
    expect(res.json.find((s: { source: string }) => s.source === 'home-assistant')).toMatchObject({
      available: true,
      message: null,
      count: 3,
    });
  });
});

describe('controls reach Home Assistant as service calls on the device’s own entities', () => {
  it('volume, mute, wake word, LED, restart and announce', async () => {
    const living = (await byName('Living Room Voice'))!;
    const office = (await byName('Office Satellite'))!;
    const cases: Array<{ id: number; body: unknown; call: object }> = [
      {
        id: living.id,
        body: { action: 'volume', value: 30 },
        call: {
          domain: 'media_player',
          service: 'volume_set',
          serviceData: { volume_level: 0.3 },
          target: { entity_id: [`media_player.${LIVING}_media_player`] },
        },
      },
      {
        id: living.id,
        body: { action: 'mute', value: true },
        call: {
          domain: 'switch',
          service: 'turn_on',
          serviceData: {},
          target: { entity_id: [`switch.${LIVING}_mute`] },
        },
      },
      {
        id: living.id,
        body: { action: 'mute', value: false },
        call: { domain: 'switch', service: 'turn_off', target: { entity_id: [`switch.${LIVING}_mute`] } },
      },
      {
        id: living.id,
        body: { action: 'wake-word', value: 'Hey Mycroft' },
        call: {
          domain: 'select',
          service: 'select_option',
          serviceData: { option: 'Hey Mycroft' },
          target: { entity_id: [`select.${LIVING}_wake_word`] },
        },
      },
      {
        id: living.id,
        body: { action: 'led', value: { brightness: 80, color: '#ff8000' } },
        call: {
          domain: 'light',
          service: 'turn_on',
          serviceData: { brightness_pct: 80, rgb_color: [255, 128, 0] },
          target: { entity_id: [`light.${LIVING}_led_ring`] },
        },
      },
      {
        id: living.id,
        body: { action: 'led', value: { on: false } },
        call: { domain: 'light', service: 'turn_off', target: { entity_id: [`light.${LIVING}_led_ring`] } },
      },
      {
        id: office.id,
        body: { action: 'restart' },
        call: {
          domain: 'button',
          service: 'press',
          serviceData: {},
          target: { entity_id: [`button.${OFFICE}_restart`] },
        },
      },
      {
        id: living.id,
        body: { action: 'announce', value: 'Dinner is ready' },
        call: {
          domain: 'assist_satellite',
          service: 'announce',
          serviceData: { message: 'Dinner is ready' },
          target: { entity_id: [`assist_satellite.${LIVING}_assist_satellite`] },
        },
      },
    ];
    for (const { id, body, call } of cases) {
      const from = sim.serviceCalls.length;
      const res = await control(owner, id, body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(200);
      expect(callsSince(from), JSON.stringify(body)).toEqual([
        expect.objectContaining({ ...call, via: 'websocket' }),
      ]);
    }
    // HA applied them, and the list shows it.
    await listUntil((all) => {
      const c = all.find((s) => s.name === 'Living Room Voice')?.controls;
      return (
        c?.volume?.value === 30 &&
        c.wakeWord?.value === 'Hey Mycroft' &&
        c.led?.on === false &&
        c.mute?.value === false
      );
    }, 'the controls applied');
    expect(sim.getState(`button.${OFFICE}_restart`)!.state).not.toBe('unknown');
  });

  it('answers 409 for an action the device lacks and for an offline device, without calling HA', async () => {
    const living = (await byName('Living Room Voice'))!;
    const bedroom = (await byName('Bedroom Voice'))!;
    const from = sim.serviceCalls.length;
    const restart = await control(owner, living.id, { action: 'restart' });
    expect(restart.status).toBe(409);
    expect(restart.json.message).toBe('Living Room Voice has no restart button');
    const offline = await control(owner, bedroom.id, { action: 'volume', value: 10 });
    expect(offline.status).toBe(409);
    expect(offline.json.message).toMatch(/Bedroom Voice is offline/);
    expect(callsSince(from)).toEqual([]);
  });

  it('answers 400 naming the options for a wake word the device does not have', async () => {
    const living = (await byName('Living Room Voice'))!;
    const from = sim.serviceCalls.length;
    const res = await control(owner, living.id, { action: 'wake-word', value: 'Computer' });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(
      'Computer is not a wake word of Living Room Voice; choose one of: no_wake_word, Hey Jarvis, Hey Mycroft, Okay Nabu',
    );
    expect(callsSince(from)).toEqual([]);
    expect((await control(owner, living.id, { action: 'volume', value: 101 })).status).toBe(400);
    expect((await control(owner, living.id, { action: 'led', value: { color: 'red' } })).status).toBe(400);
  });

  it('lets a member use volume, mute and announce, and refuses led, restart and wake word with 403', async () => {
    const living = (await byName('Living Room Voice'))!;
    const office = (await byName('Office Satellite'))!;
    for (const body of [
      { action: 'volume', value: 40 },
      { action: 'mute', value: false },
      { action: 'announce', value: 'Hello from a member' },
    ]) {
      const res = await control(member, living.id, body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(200);
    }
    const from = sim.serviceCalls.length;
    for (const [id, body] of [
      [living.id, { action: 'led', value: { on: true } }],
      [office.id, { action: 'restart' }],
      [living.id, { action: 'wake-word', value: 'Hey Jarvis' }],
      // Casing and extra keys do not slip past the role check.
      [office.id, { action: 'restart', value: 'please' }],
    ] as const) {
      const res = await control(member, id, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
    }
    expect(callsSince(from)).toEqual([]);
    // A stranger gets nothing.
    expect((await new Client(agent.url).get(LIST)).status).toBe(401);
    expect((await control(new Client(agent.url), living.id, { action: 'volume', value: 1 })).status).toBe(
      401,
    );
  });
});

describe('when Home Assistant goes away', () => {
  it('shows its satellites offline with the reason, /sources says why, and controls answer 503', async () => {
    await sim.stop();
    const items = await listUntil(
      (all) => all.filter((s) => s.source === 'home-assistant').every((s) => s.status === 'offline'),
      'the HA satellites offline',
    );
    expect(items.find((s) => s.name === 'Living Room Voice')!.statusReason).toBe(
      'Home Assistant is not reachable; showing what it last reported',
    );
    const ha = (await member.get(`${LIST}/sources`)).json.find(
      (s: { source: string }) => s.source === 'home-assistant',
    );
    expect(ha.available).toBe(false);
    expect(ha.message).toEqual(expect.any(String));
    const living = items.find((s) => s.name === 'Living Room Voice')!;
    const res = await control(member, living.id, { action: 'volume', value: 20 });
    expect(res.status).toBe(503);
    expect(res.json.message).toMatch(/Home Assistant/);
  });
});

describe('benchmark: 50 Home Assistant satellites in a home of 5,000 entities', () => {
  it('answers the merged list in under 20 ms p95', { timeout: 60_000 }, async () => {
    const big = await startHomeAssistantSim({ extraVoiceSatellites: 50, extraEntities: 5_000 });
    const hub = await startAgent({ env: { HA_URL: big.url, HA_TOKEN: big.token } });
    try {
      const admin = new Client(hub.url);
      await signUp(admin, { name: 'Owner' });
      await waitFor(
        async () => satelliteListSchema.parse((await admin.get(LIST)).json),
        (all) => all.length === 50 && all.every((s) => s.controls.wakeWord !== null),
        { what: '50 satellites', timeoutMs: 15_000 },
      );
      // Sensors of other devices keep changing meanwhile; none of that may cost a list.
      const noise = setInterval(() => {
        for (let i = 0; i < 50; i++) big.setState(`sensor.sim_${i}_0`, (Math.random() * 30).toFixed(1));
      }, 20);
      const times: number[] = [];
      try {
        for (let i = 0; i < 220; i++) {
          const started = performance.now();
          const res = await admin.get(LIST);
          const ms = performance.now() - started;
          expect(res.status).toBe(200);
          if (i >= 20) times.push(ms);
        }
      } finally {
        clearInterval(noise);
      }
      times.sort((a, b) => a - b);
      const p50 = times[Math.floor(times.length * 0.5)]!;
      const p95 = times[Math.floor(times.length * 0.95)]!;
      console.log(`GET ${LIST} with 50 HA satellites: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
      expect(p95).toBeLessThan(20);
    } finally {
      await hub.stop();
      await big.stop();
    }
  });
});

describe('without Home Assistant', () => {
  it('lists no HA satellites and /sources says why', async () => {
    const bare = await startAgent();
    try {
      const admin = new Client(bare.url);
      await signUp(admin, { name: 'Owner' });
      const items = satelliteListSchema.parse((await admin.get(LIST)).json);
      expect(items.filter((s) => s.source === 'home-assistant')).toEqual([]);
      const sources = (await admin.get(`${LIST}/sources`)).json;
      const ha = sources.find((s: { source: string }) => s.source === 'home-assistant');
      expect(ha).toMatchObject({ available: false, count: 0 });
      expect(ha.message).toMatch(/Home Assistant is not connected yet/);
    } finally {
      await bare.stop();
    }
  });
});
