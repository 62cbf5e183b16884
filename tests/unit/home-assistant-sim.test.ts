import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HomeAssistantSim, startHomeAssistantSim } from '../fixtures/home-assistant-sim.js';

/**
 * The simulator's voice satellites and service rules, checked against what Home Assistant does
 * (upstream-behaviour.md): a simulator kinder than HA would hide the product's bugs.
 */

const P = 'home_assistant_voice_0a1b2c';
const S1 = 'satellite1_4f5e6d';

let sim: HomeAssistantSim;
let socket: WebSocket;
let nextId = 1;
const pending = new Map<number, (message: any) => void>();
const events: Array<{ event_type: string; data: any }> = [];

function command(message: Record<string, unknown>): Promise<any> {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    socket.send(JSON.stringify({ ...message, id }));
  });
}

const call = (domain: string, service: string, serviceData: object, target: object) =>
  command({ type: 'call_service', domain, service, service_data: serviceData, target });

beforeAll(async () => {
  sim = await startHomeAssistantSim({ voiceSatellites: true });
  socket = new WebSocket(`${sim.url.replace('http', 'ws')}/api/websocket`);
  await new Promise<void>((resolve, reject) => {
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString());
      if (message.type === 'auth_required')
        socket.send(JSON.stringify({ type: 'auth', access_token: sim.token }));
      else if (message.type === 'auth_ok') resolve();
      else if (message.type === 'event') events.push(message.event);
      else pending.get(message.id)?.(message);
    });
    socket.once('error', reject);
  });
  expect((await command({ type: 'subscribe_events' })).success).toBe(true);
});

afterAll(async () => {
  socket?.close();
  await sim?.stop();
});

describe('voice satellites in the registries', () => {
  it('lists short entity entries and gives device classes and options only through get/get_entries', async () => {
    const list = (await command({ type: 'config/entity_registry/list' })).result as any[];
    const signal = list.find((e) => e.entity_id === `sensor.${P}_wifi_signal`);
    expect(signal).toMatchObject({ entity_category: 'diagnostic', device_id: 'dev_voice_pe_living' });
    expect(signal).not.toHaveProperty('original_device_class');
    expect(signal).not.toHaveProperty('capabilities');

    const entries = (
      await command({
        type: 'config/entity_registry/get_entries',
        entity_ids: [`sensor.${P}_wifi_signal`, `select.${P}_wake_word`, 'sensor.nope'],
      })
    ).result;
    expect(entries[`sensor.${P}_wifi_signal`]).toMatchObject({ original_device_class: 'signal_strength' });
    expect(entries[`select.${P}_wake_word`]).toMatchObject({
      translation_key: 'wake_word',
      entity_category: 'config',
      capabilities: { options: ['no_wake_word', 'Hey Jarvis', 'Hey Mycroft', 'Okay Nabu'] },
    });
    expect(entries['sensor.nope']).toBeNull();
    const one = await command({ type: 'config/entity_registry/get', entity_id: `button.${S1}_restart` });
    expect(one.result).toMatchObject({ original_device_class: 'restart', entity_category: 'config' });
    expect((await command({ type: 'config/entity_registry/get', entity_id: 'button.nope' })).error.code).toBe(
      'not_found',
    );
  });

  it('gives devices their firmware and the owner’s name; the Voice PE has no restart button; Bedroom is offline', async () => {
    const devices = (await command({ type: 'config/device_registry/list' })).result as any[];
    expect(devices.find((d) => d.id === 'dev_voice_pe_living')).toMatchObject({
      name: 'Home Assistant Voice 0a1b2c',
      name_by_user: 'Living Room Voice',
      sw_version: '25.10.0',
      manufacturer: 'Nabu Casa',
      model: 'Home Assistant Voice PE',
      area_id: 'living_room',
    });
    expect(sim.getState(`button.${P}_restart`)).toBeUndefined();
    const states = (await command({ type: 'get_states' })).result as any[];
    const bedroom = states.filter((s) => s.entity_id.includes('home_assistant_voice_9f8e7d'));
    expect(bedroom.length).toBeGreaterThan(5);
    expect(bedroom.every((s) => s.state === 'unavailable')).toBe(true);
    expect(sim.getState(`sensor.${P}_wifi_signal`)).toMatchObject({
      state: '-48',
      attributes: { unit_of_measurement: 'dBm', device_class: 'signal_strength' },
    });
  });
});

describe('service calls as Home Assistant validates them', () => {
  it('skips config entities when the target is the device, and reaches them by entity id', async () => {
    const before = sim.getState(`select.${P}_wake_word`)!.state;
    const viaDevice = await call(
      'select',
      'select_option',
      { option: 'Hey Jarvis' },
      { device_id: 'dev_voice_pe_living' },
    );
    expect(viaDevice.success).toBe(true);
    expect(sim.getState(`select.${P}_wake_word`)!.state).toBe(before);
    const viaEntity = await call(
      'select',
      'select_option',
      { option: 'Hey Jarvis' },
      { entity_id: `select.${P}_wake_word` },
    );
    expect(viaEntity.success).toBe(true);
    expect(sim.getState(`select.${P}_wake_word`)!.state).toBe('Hey Jarvis');
    const pressedBefore = sim.getState(`button.${S1}_restart`)!.state;
    await call('button', 'press', {}, { device_id: 'dev_satellite1_office' });
    expect(sim.getState(`button.${S1}_restart`)!.state).toBe(pressedBefore);
    await call('button', 'press', {}, { entity_id: `button.${S1}_restart` });
    expect(Date.parse(sim.getState(`button.${S1}_restart`)!.state)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses extra keys, options that are not offered, and named entities without the feature', async () => {
    const extra = await call(
      'media_player',
      'volume_set',
      { volume_level: 0.2, loud: true },
      { entity_id: `media_player.${P}_media_player` },
    );
    expect(extra.error).toEqual({ code: 'invalid_format', message: "extra keys not allowed @ data['loud']" });
    const option = await call(
      'select',
      'select_option',
      { option: 'Computer' },
      { entity_id: `select.${P}_wake_word` },
    );
    expect(option.error.code).toBe('service_validation_error');
    expect(option.error.message).toMatch(/^Validation error: Option Computer is not valid/);
    const feature = await call(
      'assist_satellite',
      'announce',
      { message: 'hi' },
      { entity_id: 'media_player.living_room_speaker' },
    );
    expect(feature.success).toBe(true); // another domain's entity is not a target of this service
    sim.setState(`assist_satellite.${P}_assist_satellite`, 'idle', { supported_features: 2 });
    const unsupported = await call(
      'assist_satellite',
      'announce',
      { message: 'hi' },
      { entity_id: `assist_satellite.${P}_assist_satellite` },
    );
    expect(unsupported.error).toEqual({
      code: 'service_validation_error',
      message: `Validation error: Entity assist_satellite.${P}_assist_satellite does not support action assist_satellite.announce`,
    });
    sim.setState(`assist_satellite.${P}_assist_satellite`, 'idle', { supported_features: 3 });
    const empty = await call(
      'assist_satellite',
      'announce',
      {},
      { entity_id: `assist_satellite.${P}_assist_satellite` },
    );
    expect(empty.error.code).toBe('invalid_format');
  });

  it('skips unavailable entities and still succeeds', async () => {
    const calls = sim.serviceCalls.length;
    const res = await call(
      'media_player',
      'volume_set',
      { volume_level: 0.9 },
      { entity_id: 'media_player.home_assistant_voice_9f8e7d_media_player' },
    );
    expect(res.success).toBe(true);
    expect(sim.serviceCalls.length).toBe(calls + 1);
    expect(sim.getState('media_player.home_assistant_voice_9f8e7d_media_player')!.state).toBe('unavailable');
  });

  it('sets volume, the LED ring colour and records announcements', async () => {
    await call(
      'media_player',
      'volume_set',
      { volume_level: 0.25 },
      { entity_id: `media_player.${P}_media_player` },
    );
    expect(sim.getState(`media_player.${P}_media_player`)!.attributes.volume_level).toBe(0.25);
    await call(
      'light',
      'turn_on',
      { brightness_pct: 100, rgb_color: [255, 0, 0] },
      { entity_id: `light.${P}_led_ring` },
    );
    expect(sim.getState(`light.${P}_led_ring`)!.attributes).toMatchObject({
      brightness: 255,
      rgb_color: [255, 0, 0],
      color_mode: 'rgb',
    });
    await call(
      'assist_satellite',
      'announce',
      { message: 'Dinner', preannounce: false },
      { entity_id: `assist_satellite.${P}_assist_satellite` },
    );
    expect(sim.serviceCalls.at(-1)).toMatchObject({ serviceData: { message: 'Dinner', preannounce: false } });
  });
});

describe('adopting and removing a satellite at runtime', () => {
  it('fires the device registry event, then the entity registry events, then the states', async () => {
    events.length = 0;
    sim.addVoiceSatellite({
      deviceId: 'dev_new',
      name: 'Home Assistant Voice abcdef',
      areaId: 'kitchen',
      manufacturer: 'Nabu Casa',
      model: 'Home Assistant Voice PE',
      swVersion: '25.10.0',
      prefix: 'home_assistant_voice_abcdef',
    });
    await expect.poll(() => events.some((e) => e.event_type === 'state_changed')).toBe(true);
    const kinds = events.map((e) => e.event_type);
    expect(kinds[0]).toBe('device_registry_updated');
    expect(events[0]!.data).toEqual({ action: 'create', device_id: 'dev_new' });
    expect(kinds).toContain('entity_registry_updated');
    expect(kinds.indexOf('entity_registry_updated')).toBeLessThan(kinds.indexOf('state_changed'));

    events.length = 0;
    sim.removeDevice('dev_new');
    await expect.poll(() => events.some((e) => e.event_type === 'device_registry_updated')).toBe(true);
    expect(events.find((e) => e.event_type === 'state_changed')!.data.new_state).toBeNull();
    expect(sim.getState('assist_satellite.home_assistant_voice_abcdef_assist_satellite')).toBeUndefined();
  });
});

describe('the default seed', () => {
  it('has no voice satellites unless asked', async () => {
    const plain = new HomeAssistantSim();
    expect(plain.entityIds().some((id) => id.startsWith('assist_satellite.'))).toBe(false);
    expect(plain.entityCount).toBe(17);
  });
});
