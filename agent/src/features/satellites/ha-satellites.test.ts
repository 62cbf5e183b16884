import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type {
  HaDeviceRegistryEntry,
  HaEntityRegistryEntry,
  HaEntityRegistryExtendedEntry,
  HaEntityState,
  HaSession,
} from '../../adapters/home-assistant.js';
import type { HaConnectionState } from '../../contract/home-assistant.js';
import type { HaCacheChange } from '../home-assistant/ha-connection.js';
import {
  createHaSatelliteSource,
  findSatelliteTargets,
  haSatelliteView,
  satelliteServiceCall,
  type SatelliteDeviceSnapshot,
  type SatelliteEntity,
} from './ha-satellites.js';

const P = 'home_assistant_voice_0a1b2c';
const OLD = '2025-01-01T10:00:00.000Z';

function entity(
  entityId: string,
  state: string | undefined,
  attributes: Record<string, unknown> = {},
  entry: Partial<HaEntityRegistryExtendedEntry> = {},
  times: { last_changed?: string; last_updated?: string; last_reported?: string } = {},
): SatelliteEntity {
  return {
    entry: {
      entity_id: entityId,
      device_id: 'dev1',
      area_id: null,
      name: null,
      original_name: null,
      platform: 'esphome',
      disabled_by: null,
      hidden_by: null,
      entity_category: null,
      translation_key: null,
      ...entry,
    },
    state:
      state === undefined
        ? undefined
        : ({
            entity_id: entityId,
            state,
            attributes,
            last_changed: times.last_changed ?? OLD,
            last_updated: times.last_updated ?? OLD,
            last_reported: times.last_reported ?? OLD,
            context: { id: 'c', parent_id: null, user_id: null },
          } as HaEntityState),
  };
}

const device: HaDeviceRegistryEntry = {
  id: 'dev1',
  name: 'Home Assistant Voice 0a1b2c',
  name_by_user: 'Living Room Voice',
  area_id: 'living_room',
  manufacturer: 'Nabu Casa',
  model: 'Home Assistant Voice PE',
  disabled_by: null,
  sw_version: '25.10.0',
};

const OPTIONS = ['no_wake_word', 'Hey Jarvis', 'Hey Mycroft', 'Okay Nabu'];

/** A Voice PE as HA describes it, with get_entries' extended entries. */
function voicePe(over: { wakeWord?: string; satellite?: string } = {}): SatelliteEntity[] {
  return [
    entity(`assist_satellite.${P}_assist_satellite`, over.satellite ?? 'idle', { supported_features: 3 }),
    entity(`media_player.${P}_media_player`, 'idle', {
      volume_level: 0.5,
      is_volume_muted: false,
      supported_features: 1200653,
    }),
    entity(`switch.${P}_mute`, 'off', { friendly_name: 'Living Room Voice Mute' }, { original_name: 'Mute' }),
    entity(
      `select.${P}_wake_word_sensitivity`,
      'Moderately sensitive',
      { options: ['Slightly sensitive', 'Moderately sensitive'] },
      { original_name: 'Wake word sensitivity', entity_category: 'config' },
    ),
    entity(
      `select.${P}_wake_word`,
      over.wakeWord ?? 'Okay Nabu',
      { options: OPTIONS },
      { original_name: 'Wake word', translation_key: 'wake_word', entity_category: 'config' },
    ),
    entity(
      `light.${P}_led_ring`,
      'on',
      { brightness: 255, rgb_color: [255, 0, 16], supported_color_modes: ['rgb'] },
      { original_name: 'LED Ring' },
    ),
    // The state carries no device class here: only get_entries says what the sensor is.
    entity(
      `sensor.${P}_wifi_signal_percent`,
      '80',
      { unit_of_measurement: '%' },
      { original_name: 'WiFi signal percent', entity_category: 'diagnostic' },
    ),
    entity(
      `sensor.${P}_wifi_signal`,
      '-48.4',
      { unit_of_measurement: 'dBm' },
      {
        original_name: 'WiFi signal',
        original_device_class: 'signal_strength',
        entity_category: 'diagnostic',
      },
      { last_changed: '2025-01-01T11:00:00.000Z', last_reported: '2025-01-01T11:30:00.000Z' },
    ),
  ];
}

const areas: Record<string, string> = { living_room: 'Living Room', kitchen: 'Kitchen' };
const snapshot = (entities: SatelliteEntity[], d = device): SatelliteDeviceSnapshot => ({
  device: d,
  entities,
  areaName: (id) => (id ? (areas[id] ?? null) : null),
});

describe('finding a satellite’s entities', () => {
  it('is not a satellite without an assist_satellite entity', () => {
    expect(findSatelliteTargets(voicePe().slice(1))).toBeNull();
  });

  it('takes the wake word select by translation key, not the sensitivity select that also says wake word', () => {
    const targets = findSatelliteTargets(voicePe())!;
    expect(targets).toEqual({
      satellite: `assist_satellite.${P}_assist_satellite`,
      mediaPlayer: `media_player.${P}_media_player`,
      muteSwitch: `switch.${P}_mute`,
      wakeWordSelect: `select.${P}_wake_word`,
      led: `light.${P}_led_ring`,
      restartButton: null,
      signalSensor: `sensor.${P}_wifi_signal`,
    });
  });

  it('falls back to the name when the integration gives no translation key', () => {
    const entities = voicePe().map((e) =>
      e.entry.translation_key === 'wake_word'
        ? { ...e, entry: { ...e.entry, translation_key: null, original_name: 'Wake Word' } }
        : e,
    );
    expect(findSatelliteTargets(entities)!.wakeWordSelect).toBe(`select.${P}_wake_word`);
    const onlySensitivity = entities.filter((e) => e.entry.entity_id !== `select.${P}_wake_word`);
    expect(findSatelliteTargets(onlySensitivity)!.wakeWordSelect).toBeNull();
  });

  it('reads the signal sensor’s device class from the state when get_entries has not answered', () => {
    const entities = voicePe().map((e) =>
      e.entry.entity_id.endsWith('_wifi_signal')
        ? entity(e.entry.entity_id, '-60', { unit_of_measurement: 'dBm', device_class: 'signal_strength' })
        : e,
    );
    expect(findSatelliteTargets(entities)!.signalSensor).toBe(`sensor.${P}_wifi_signal`);
  });

  it('finds a restart button by its device class, and skips disabled entities', () => {
    const entities = [
      ...voicePe(),
      entity(
        'button.sat_restart',
        'unknown',
        {},
        { original_device_class: 'restart', entity_category: 'config' },
      ),
      entity('button.sat_identify', 'unknown', {}, { original_device_class: 'identify' }),
    ];
    expect(findSatelliteTargets(entities)!.restartButton).toBe('button.sat_restart');
    const disabled = entities.map((e) =>
      e.entry.entity_id === 'button.sat_restart' ? { ...e, entry: { ...e.entry, disabled_by: 'user' } } : e,
    );
    expect(findSatelliteTargets(disabled)!.restartButton).toBeNull();
  });
});

describe('mapping a satellite device to the list item', () => {
  it('maps an online Voice PE', () => {
    const { view } = haSatelliteView(snapshot(voicePe()))!;
    expect(view).toEqual({
      name: 'Living Room Voice',
      status: 'online',
      statusReason: null,
      signalStrength: -48,
      activeWakeWord: 'Okay Nabu',
      lastSeen: '2025-01-01T11:30:00.000Z',
      room: 'Living Room',
      ipAddress: null,
      firmwareVersion: '25.10.0',
      model: 'Home Assistant Voice PE',
      manufacturer: 'Nabu Casa',
      controls: {
        volume: { value: 50 },
        mute: { value: false },
        wakeWord: { value: 'Okay Nabu', options: OPTIONS },
        led: { on: true, brightness: 100, color: '#ff0010' },
        restart: false,
        announce: true,
      },
      homeAssistant: { deviceId: 'dev1', satelliteEntityId: `assist_satellite.${P}_assist_satellite` },
      wyoming: null,
    });
  });

  it('uses the device name when the owner gave none, and the satellite entity’s own area', () => {
    const entities = voicePe().map((e) =>
      e.entry.entity_id.startsWith('assist_satellite.')
        ? { ...e, entry: { ...e.entry, area_id: 'kitchen' } }
        : e,
    );
    const { view } = haSatelliteView(snapshot(entities, { ...device, name_by_user: null }))!;
    expect(view.name).toBe('Home Assistant Voice 0a1b2c');
    expect(view.room).toBe('Kitchen');
  });

  it('is offline, with the reason, when the satellite entity is unavailable', () => {
    const entities = voicePe({ satellite: 'unavailable' }).map((e) =>
      e.state ? { ...e, state: { ...e.state, state: 'unavailable', attributes: { options: OPTIONS } } } : e,
    );
    const { view } = haSatelliteView(snapshot(entities))!;
    expect(view.status).toBe('offline');
    expect(view.statusReason).toBe(
      `assist_satellite.${P}_assist_satellite is unavailable in Home Assistant: the device is offline or not reachable`,
    );
    expect(view.signalStrength).toBeNull();
    expect(view.activeWakeWord).toBeNull();
    expect(view.controls.volume).toBeNull();
    expect(view.controls.wakeWord).toEqual({ value: null, options: OPTIONS });
  });

  it('reports no active wake word for no_wake_word, while the control keeps the raw option', () => {
    const { view } = haSatelliteView(snapshot(voicePe({ wakeWord: 'no_wake_word' })))!;
    expect(view.activeWakeWord).toBeNull();
    expect(view.controls.wakeWord!.value).toBe('no_wake_word');
  });

  it('reads the wake word options from get_entries’ capabilities when the state has none', () => {
    const entities = voicePe().map((e) =>
      e.entry.translation_key === 'wake_word'
        ? {
            entry: { ...e.entry, capabilities: { options: OPTIONS } },
            state: { ...e.state!, attributes: {} },
          }
        : e,
    );
    expect(haSatelliteView(snapshot(entities))!.view.controls.wakeWord!.options).toEqual(OPTIONS);
  });
});

describe('the service call of each action', () => {
  const mapped = haSatelliteView(
    snapshot([
      ...voicePe(),
      entity(`button.${P}_restart`, 'unknown', {}, { original_device_class: 'restart' }),
    ]),
  )!;
  const states = new Map<string, HaEntityState>();
  const call = (input: Parameters<typeof satelliteServiceCall>[1], m = mapped) =>
    satelliteServiceCall(m, input, (id) => states.get(id));

  it('names the entity for every action', () => {
    expect(call({ action: 'volume', value: 35 })).toEqual({
      domain: 'media_player',
      service: 'volume_set',
      data: { volume_level: 0.35 },
      entityId: `media_player.${P}_media_player`,
    });
    expect(call({ action: 'mute', value: true })).toMatchObject({ domain: 'switch', service: 'turn_on' });
    expect(call({ action: 'mute', value: false })).toMatchObject({ service: 'turn_off', data: {} });
    expect(call({ action: 'wake-word', value: 'hey jarvis' })).toEqual({
      domain: 'select',
      service: 'select_option',
      data: { option: 'Hey Jarvis' },
      entityId: `select.${P}_wake_word`,
    });
    expect(call({ action: 'led', value: { brightness: 20, color: '#10ff00' } })).toEqual({
      domain: 'light',
      service: 'turn_on',
      data: { brightness_pct: 20, rgb_color: [16, 255, 0] },
      entityId: `light.${P}_led_ring`,
    });
    expect(call({ action: 'led', value: { on: false, brightness: 20 } })).toMatchObject({
      service: 'turn_off',
      data: {},
    });
    expect(call({ action: 'restart' })).toEqual({
      domain: 'button',
      service: 'press',
      data: {},
      entityId: `button.${P}_restart`,
    });
    expect(call({ action: 'announce', value: 'Hello' })).toEqual({
      domain: 'assist_satellite',
      service: 'announce',
      data: { message: 'Hello' },
      entityId: `assist_satellite.${P}_assist_satellite`,
    });
  });

  it('refuses a wake word the device does not offer with 400, naming the options', () => {
    expect(() => call({ action: 'wake-word', value: 'Computer' })).toThrow(
      expect.objectContaining({
        status: 400,
        message: `Computer is not a wake word of Living Room Voice; choose one of: ${OPTIONS.join(', ')}`,
      }),
    );
  });

  it('answers 409 naming what the device lacks', () => {
    const bare = haSatelliteView(snapshot(voicePe().slice(0, 1)))!;
    for (const [input, message] of [
      [{ action: 'restart' }, 'Living Room Voice has no restart button'],
      [{ action: 'mute', value: true }, 'Living Room Voice has no microphone mute switch'],
      [{ action: 'wake-word', value: 'x' }, 'Living Room Voice has no wake word setting'],
      [{ action: 'led', value: { on: true } }, 'Living Room Voice has no LED light'],
      [{ action: 'volume', value: 3 }, expect.stringContaining('Living Room Voice has no volume control')],
    ] as const) {
      expect(() => call(input, bare)).toThrow(expect.objectContaining({ status: 409, message }));
    }
  });

  it('answers 409 instead of a silent no-op when the entity is unavailable (HA skips it and reports success)', () => {
    states.set(`media_player.${P}_media_player`, { state: 'unavailable' } as HaEntityState);
    expect(() => call({ action: 'volume', value: 3 })).toThrow(
      expect.objectContaining({
        status: 409,
        message: expect.stringContaining('Living Room Voice is offline'),
      }),
    );
    states.clear();
  });
});

describe('the source over the connection’s cache', () => {
  function fakeConnection(state: HaConnectionState = 'connected') {
    const satellite = voicePe();
    const lamp = entity('light.lamp', 'on', {}, { device_id: 'lamp' });
    const all = [...satellite, lamp];
    const raw = new Map(all.map((e) => [e.entry.entity_id, e.state!]));
    const registry = new Map<string, HaEntityRegistryEntry>(all.map((e) => [e.entry.entity_id, e.entry]));
    let listener: (change: HaCacheChange) => void = () => {};
    const session = {
      getEntityEntries: vi.fn(async (ids: string[]) => new Map(ids.map((id) => [id, registry.get(id)!]))),
      callService: vi.fn(async () => ({ context: null })),
    };
    const cache = {
      raw: vi.fn((id: string) => raw.get(id)),
      registryEntries: () => registry.values(),
      registryEntry: (id: string) => registry.get(id),
      device: (id: string) => (id === 'dev1' ? device : undefined),
      areaName: (id: string | null | undefined) => (id ? (areas[id] ?? null) : null),
    };
    const connection = {
      state,
      message: state === 'connected' ? null : 'Home Assistant is not connected yet.',
      registryProblem: null as string | null,
      cache,
      currentSession: () => session as unknown as HaSession,
      requireSession: () => session as unknown as HaSession,
      onChange: (l: (change: HaCacheChange) => void) => (listener = l),
    };
    return { connection, session, cache, raw, emit: (c: HaCacheChange) => listener(c) };
  }
  const log = pino({ level: 'silent' });

  it('lists the satellite devices only, and asks get_entries for their entities only', async () => {
    const fake = fakeConnection();
    const source = createHaSatelliteSource({ connection: fake.connection, log });
    const changed = vi.fn();
    source.onChange(changed);
    fake.emit({ kind: 'registries' });
    await vi.waitFor(() => expect(fake.session.getEntityEntries).toHaveBeenCalled());
    expect(fake.session.getEntityEntries.mock.calls[0]![0]).not.toContain('light.lamp');
    const items = source.list();
    expect(items.map((i) => i.deviceId)).toEqual(['dev1']);
    expect(items[0]!.view.signalStrength).toBe(-48);
    expect(source.availability()).toEqual({ available: true, message: null });
  });

  it('ignores changes of other entities, and maps a device again only when one of its entities changed', async () => {
    const fake = fakeConnection();
    const source = createHaSatelliteSource({ connection: fake.connection, log });
    fake.emit({ kind: 'registries' });
    await vi.waitFor(() => expect(fake.session.getEntityEntries).toHaveBeenCalled());
    source.list();
    const changed = vi.fn();
    source.onChange(changed);
    const reads = fake.cache.raw.mock.calls.length;
    fake.emit({ kind: 'state', entityId: 'light.lamp' });
    expect(changed).not.toHaveBeenCalled();
    source.list();
    expect(fake.cache.raw.mock.calls.length).toBe(reads);

    const signal = `sensor.${P}_wifi_signal`;
    fake.raw.set(signal, { ...fake.raw.get(signal)!, state: '-70' });
    fake.emit({ kind: 'state', entityId: signal });
    expect(changed).toHaveBeenCalledTimes(1);
    expect(source.list()[0]!.view.signalStrength).toBe(-70);
  });

  it('sends the service call on the session', async () => {
    const fake = fakeConnection();
    const source = createHaSatelliteSource({ connection: fake.connection, log });
    fake.emit({ kind: 'registries' });
    await source.control('dev1', { action: 'volume', value: 10 });
    expect(fake.session.callService).toHaveBeenCalledWith(
      'media_player',
      'volume_set',
      { volume_level: 0.1 },
      { entity_id: `media_player.${P}_media_player` },
    );
    await expect(source.control('nope', { action: 'volume', value: 10 })).rejects.toMatchObject({
      status: 404,
    });
  });

  it('is unavailable with the reason when HA refuses its registries (a non-admin token)', () => {
    const fake = fakeConnection();
    fake.connection.registryProblem = 'Home Assistant refused to share its registries (Unauthorized)';
    const source = createHaSatelliteSource({ connection: fake.connection, log });
    expect(source.availability()).toEqual({
      available: false,
      message: 'Home Assistant refused to share its registries (Unauthorized)',
    });
  });

  it('is unavailable with the connection’s reason, and lists nothing, when Home Assistant is not connected', () => {
    const fake = fakeConnection('not_configured');
    const source = createHaSatelliteSource({ connection: fake.connection, log });
    fake.emit({ kind: 'registries' });
    expect(source.availability()).toEqual({
      available: false,
      message: 'Home Assistant is not connected yet.',
    });
    expect(source.list()).toEqual([]);
  });
});
