import type {
  HaDeviceRegistryEntry,
  HaEntityRegistryEntry,
  HaEntityRegistryExtendedEntry,
  HaEntityState,
  HaSession,
} from '../../adapters/home-assistant.js';
import type { HaConnectionState } from '../../contract/home-assistant.js';
import type { SatelliteControlInput, SatelliteControls } from '../../contract/satellites.js';
import { inBackground } from '../../lib/background.js';
import { HttpError, badRequest } from '../../lib/http-error.js';
import type { Logger } from '../../lib/logger.js';
import type { HaCacheChange } from '../home-assistant/index.js';
import type { HaSatelliteSource, SatelliteLiveView, SourceAvailability } from './sources.js';

/**
 * Voice satellites adopted by Home Assistant (Home Assistant Voice PE, FutureProofHomes Satellite1,
 * any ESPHome or other device with an `assist_satellite.*` entity), read from the one HA
 * connection's cache and controlled through service calls on the device's own entities.
 */

// Feature bits of HA's MediaPlayerEntityFeature and AssistSatelliteEntityFeature.
const MEDIA_PLAYER_VOLUME_SET = 4;
const ASSIST_SATELLITE_ANNOUNCE = 1;
/** ESPHome's wake word select offers this raw option to turn the wake word off. */
export const NO_WAKE_WORD = 'no_wake_word';

const UNAVAILABLE = 'unavailable';

/** One entity of a satellite device: its registry entry (extended once get_entries answered) and state. */
export interface SatelliteEntity {
  entry: HaEntityRegistryEntry & Partial<HaEntityRegistryExtendedEntry>;
  state: HaEntityState | undefined;
}

/** What the mapping needs of one device; built from the cache, or by hand in tests. */
export interface SatelliteDeviceSnapshot {
  device: HaDeviceRegistryEntry;
  entities: SatelliteEntity[];
  areaName: (areaId: string | null | undefined) => string | null;
}

/** The entity ids that carry each control; null when the device has none. */
export interface SatelliteTargets {
  satellite: string;
  mediaPlayer: string | null;
  muteSwitch: string | null;
  wakeWordSelect: string | null;
  led: string | null;
  restartButton: string | null;
  signalSensor: string | null;
}

const domainOf = (entityId: string) => entityId.slice(0, entityId.indexOf('.'));

function entityName(e: SatelliteEntity): string {
  const friendly = e.state?.attributes.friendly_name;
  return (
    e.entry.name ??
    e.entry.original_name ??
    (typeof friendly === 'string' ? friendly : null) ??
    e.entry.entity_id.slice(e.entry.entity_id.indexOf('.') + 1).replace(/_/g, ' ')
  );
}

/** The device class as HA applies it: the user's override, the integration's, or the state's attribute. */
function deviceClass(e: SatelliteEntity): string | null {
  const fromState = e.state?.attributes.device_class;
  return (
    e.entry.device_class ??
    e.entry.original_device_class ??
    (typeof fromState === 'string' ? fromState : null)
  );
}

function features(e: SatelliteEntity | undefined): number | null {
  const value = e?.state?.attributes.supported_features;
  return typeof value === 'number' ? value : null;
}

function selectOptions(e: SatelliteEntity): string[] {
  const fromState = e.state?.attributes.options;
  const fromRegistry = e.entry.capabilities?.options;
  const options = Array.isArray(fromState) ? fromState : Array.isArray(fromRegistry) ? fromRegistry : [];
  return options.filter((o): o is string => typeof o === 'string');
}

const byDomain = (entities: SatelliteEntity[], domain: string) =>
  entities.filter((e) => domainOf(e.entry.entity_id) === domain);

/** Picks the entity of each control among a device's entities. */
export function findSatelliteTargets(entities: SatelliteEntity[]): SatelliteTargets | null {
  const usable = entities.filter((e) => !e.entry.disabled_by);
  const satellite = byDomain(usable, 'assist_satellite')[0];
  if (!satellite) return null;

  const players = byDomain(usable, 'media_player');
  const mediaPlayer =
    players.find((e) => ((features(e) ?? 0) & MEDIA_PLAYER_VOLUME_SET) !== 0) ?? players[0] ?? null;

  const switches = byDomain(usable, 'switch');
  const muteSwitch =
    switches.find((e) => e.entry.translation_key === 'mute') ??
    switches.find((e) => /(^|\s)mute(d)?(\s|$)/i.test(entityName(e)) || /_mute$/.test(e.entry.entity_id)) ??
    null;

  // HA's ESPHome integration names its wake word select with translation key wake_word; firmware
  // selects like "Wake word sensitivity" also say wake word but are not it.
  const selects = byDomain(usable, 'select');
  const wakeWordSelect =
    selects.find((e) => e.entry.translation_key === 'wake_word') ??
    selects.find((e) => /wake\s*_?word/i.test(entityName(e)) && !/sensitiv/i.test(entityName(e))) ??
    null;

  const lights = byDomain(usable, 'light');
  const led = lights.find((e) => /\b(led|ring)\b/i.test(entityName(e))) ?? lights[0] ?? null;

  const restartButton = byDomain(usable, 'button').find((e) => deviceClass(e) === 'restart') ?? null;

  const signalSensor =
    byDomain(usable, 'sensor').find((e) => {
      if (deviceClass(e) !== 'signal_strength') return false;
      const unit = e.state?.attributes.unit_of_measurement;
      return unit === undefined || unit === 'dBm' || unit === 'dB';
    }) ?? null;

  return {
    satellite: satellite.entry.entity_id,
    mediaPlayer: mediaPlayer?.entry.entity_id ?? null,
    muteSwitch: muteSwitch?.entry.entity_id ?? null,
    wakeWordSelect: wakeWordSelect?.entry.entity_id ?? null,
    led: led?.entry.entity_id ?? null,
    restartButton: restartButton?.entry.entity_id ?? null,
    signalSensor: signalSensor?.entry.entity_id ?? null,
  };
}

const live = (s: HaEntityState | undefined) =>
  s !== undefined && s.state !== UNAVAILABLE && s.state !== 'unknown';

function hex(rgb: unknown): string | null {
  if (!Array.isArray(rgb) || rgb.length !== 3) return null;
  if (!rgb.every((c) => typeof c === 'number' && c >= 0 && c <= 255)) return null;
  return `#${rgb.map((c: number) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

function newestSeen(entities: SatelliteEntity[]): string | null {
  let newest = -Infinity;
  for (const { state } of entities) {
    if (!state) continue;
    const reported = (state as { last_reported?: string }).last_reported;
    for (const at of [state.last_changed, state.last_updated, reported]) {
      const ms = at ? Date.parse(at) : NaN;
      if (ms > newest) newest = ms;
    }
  }
  return Number.isFinite(newest) ? new Date(newest).toISOString() : null;
}

/** Maps one device with an assist_satellite entity to the satellite item; null for other devices. */
export function haSatelliteView(
  snapshot: SatelliteDeviceSnapshot,
): { view: SatelliteLiveView; targets: SatelliteTargets } | null {
  const { device, entities } = snapshot;
  const targets = findSatelliteTargets(entities);
  if (!targets) return null;
  const byId = new Map(entities.map((e) => [e.entry.entity_id, e]));
  const get = (id: string | null) => (id ? byId.get(id) : undefined);
  const satellite = get(targets.satellite)!;
  const name = device.name_by_user ?? device.name ?? device.id;

  const satelliteState = satellite.state?.state;
  const offline = satelliteState === undefined || satelliteState === UNAVAILABLE;

  const signal = get(targets.signalSensor)?.state;
  const dbm = live(signal) ? Number.parseFloat(signal!.state) : NaN;

  const wake = get(targets.wakeWordSelect);
  const wakeOptions = wake ? selectOptions(wake) : [];
  const wakeValue =
    wake && live(wake.state) && wakeOptions.includes(wake.state!.state) ? wake.state!.state : null;

  const player = get(targets.mediaPlayer);
  const volumeLevel = player?.state?.attributes.volume_level;
  const canSetVolume = player !== undefined && ((features(player) ?? 0) & MEDIA_PLAYER_VOLUME_SET) !== 0;

  const mute = get(targets.muteSwitch)?.state;
  const light = get(targets.led)?.state;
  const brightness = light?.attributes.brightness;
  const satFeatures = features(satellite);

  const controls: SatelliteControls = {
    volume: canSetVolume
      ? { value: typeof volumeLevel === 'number' ? Math.round(volumeLevel * 100) : null }
      : null,
    mute: targets.muteSwitch
      ? { value: mute?.state === 'on' ? true : mute?.state === 'off' ? false : null }
      : null,
    wakeWord: wake ? { value: wakeValue, options: wakeOptions } : null,
    led: targets.led
      ? {
          on: light?.state === 'on' ? true : light?.state === 'off' ? false : null,
          brightness: typeof brightness === 'number' ? Math.round((brightness / 255) * 100) : null,
          color: hex(light?.attributes.rgb_color),
        }
      : null,
    restart: targets.restartButton !== null,
    // The feature bit is kept while unavailable; an entity that never said counts as able.
    announce: satFeatures === null || (satFeatures & ASSIST_SATELLITE_ANNOUNCE) !== 0,
  };

  return {
    targets,
    view: {
      name,
      status: offline ? 'offline' : 'online',
      statusReason: offline
        ? satelliteState === undefined
          ? `Home Assistant has no state for ${targets.satellite}`
          : `${targets.satellite} is unavailable in Home Assistant: the device is offline or not reachable`
        : null,
      signalStrength: Number.isFinite(dbm) ? Math.round(dbm) : null,
      activeWakeWord: wakeValue === NO_WAKE_WORD ? null : wakeValue,
      lastSeen: newestSeen(entities),
      // The satellite entity's own area overrides its device's, as everywhere in HA.
      room: snapshot.areaName(satellite.entry.area_id ?? device.area_id),
      ipAddress: null,
      firmwareVersion: device.sw_version ?? null,
      model: device.model ?? null,
      manufacturer: device.manufacturer ?? null,
      controls,
      homeAssistant: { deviceId: device.id, satelliteEntityId: targets.satellite },
      wyoming: null,
    },
  };
}

// ---- the service call of each action ----------------------------------------------------------

export interface HaServiceCall {
  domain: string;
  service: string;
  data: Record<string, unknown>;
  entityId: string;
}

const conflict = (message: string) => new HttpError(409, message);

/**
 * The service call for an action on a satellite. Calls always name the entity: HA skips config
 * entities (the restart button, the wake word select) when a call targets the device.
 */
export function satelliteServiceCall(
  mapped: { view: SatelliteLiveView; targets: SatelliteTargets },
  input: SatelliteControlInput,
  stateOf: (entityId: string) => HaEntityState | undefined,
): HaServiceCall {
  const { view, targets } = mapped;
  const need = (entityId: string | null, what: string): string => {
    if (!entityId) throw conflict(`${view.name} has no ${what}`);
    // HA skips unavailable entities and still answers success: say so instead of pretending.
    if (stateOf(entityId)?.state === UNAVAILABLE) {
      throw conflict(`${view.name} is offline: ${entityId} is unavailable in Home Assistant`);
    }
    return entityId;
  };
  switch (input.action) {
    case 'volume': {
      if (!view.controls.volume) {
        throw conflict(`${view.name} has no volume control (no media player that can set its volume)`);
      }
      const entityId = need(targets.mediaPlayer, 'media player');
      return {
        domain: 'media_player',
        service: 'volume_set',
        data: { volume_level: input.value / 100 },
        entityId,
      };
    }
    case 'mute': {
      const entityId = need(targets.muteSwitch, 'microphone mute switch');
      return { domain: 'switch', service: input.value ? 'turn_on' : 'turn_off', data: {}, entityId };
    }
    case 'wake-word': {
      const entityId = need(targets.wakeWordSelect, 'wake word setting');
      const options = view.controls.wakeWord?.options ?? [];
      const option =
        options.find((o) => o === input.value) ??
        options.find((o) => o.toLowerCase() === input.value.toLowerCase());
      if (!option) {
        throw badRequest(
          `${input.value} is not a wake word of ${view.name}; choose one of: ${options.join(', ')}`,
        );
      }
      return { domain: 'select', service: 'select_option', data: { option }, entityId };
    }
    case 'led': {
      const entityId = need(targets.led, 'LED light');
      const { on, brightness, color } = input.value;
      if (on === false) return { domain: 'light', service: 'turn_off', data: {}, entityId };
      const data: Record<string, unknown> = {};
      if (brightness !== undefined) data.brightness_pct = brightness;
      if (color !== undefined) {
        const n = Number.parseInt(color.slice(1), 16);
        data.rgb_color = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
      }
      return { domain: 'light', service: 'turn_on', data, entityId };
    }
    case 'restart':
      return {
        domain: 'button',
        service: 'press',
        data: {},
        entityId: need(targets.restartButton, 'restart button'),
      };
    case 'announce': {
      if (!view.controls.announce) throw conflict(`${view.name} cannot make announcements`);
      const entityId = need(targets.satellite, 'assist satellite');
      return { domain: 'assist_satellite', service: 'announce', data: { message: input.value }, entityId };
    }
  }
}

// ---- the source over the live connection ------------------------------------------------------

/** What the source needs of the HA connection (ha-connection.ts). */
export interface HaSatelliteConnection {
  readonly state: HaConnectionState;
  readonly message: string | null;
  readonly registryProblem: string | null;
  readonly cache: {
    raw(entityId: string): HaEntityState | undefined;
    registryEntries(): Iterable<HaEntityRegistryEntry>;
    registryEntry(entityId: string): HaEntityRegistryEntry | undefined;
    device(deviceId: string): HaDeviceRegistryEntry | undefined;
    areaName(areaId: string | null | undefined): string | null;
  };
  currentSession(): HaSession | null;
  requireSession(): HaSession;
  onChange(listener: (change: HaCacheChange) => void): void;
}

export function createHaSatelliteSource(deps: {
  connection: HaSatelliteConnection;
  log: Logger;
}): HaSatelliteSource {
  const { connection } = deps;
  const log = deps.log.child({ feature: 'satellites' });
  /** Satellite device id → its entity ids; only satellite devices are indexed, however big the home. */
  let devices = new Map<string, string[]>();
  /** Entity id → satellite device id, to tell in O(1) whether a state change concerns a satellite. */
  let entityDevice = new Map<string, string>();
  /** get_entries answers, per registry load. */
  let extended = new Map<string, HaEntityRegistryExtendedEntry>();
  const views = new Map<string, ReturnType<typeof haSatelliteView>>();
  const dirty = new Set<string>();
  const listeners = new Set<() => void>();
  let loadGeneration = 0;

  const notify = () => {
    for (const listener of listeners) listener();
  };

  function reindex() {
    const satelliteDevices = new Set<string>();
    for (const entry of connection.cache.registryEntries()) {
      if (entry.device_id && !entry.disabled_by && entry.entity_id.startsWith('assist_satellite.')) {
        const device = connection.cache.device(entry.device_id);
        if (device && !device.disabled_by) satelliteDevices.add(entry.device_id);
      }
    }
    const nextDevices = new Map<string, string[]>();
    const nextEntityDevice = new Map<string, string>();
    if (satelliteDevices.size) {
      for (const entry of connection.cache.registryEntries()) {
        if (!entry.device_id || !satelliteDevices.has(entry.device_id)) continue;
        let ids = nextDevices.get(entry.device_id);
        if (!ids) nextDevices.set(entry.device_id, (ids = []));
        ids.push(entry.entity_id);
        nextEntityDevice.set(entry.entity_id, entry.device_id);
      }
    }
    devices = nextDevices;
    entityDevice = nextEntityDevice;
    views.clear();
    dirty.clear();
    for (const id of devices.keys()) dirty.add(id);
    loadExtended();
  }

  /** Device classes and a select's options come only with get_entries; states cover the gap meanwhile. */
  function loadExtended() {
    const generation = ++loadGeneration;
    const session = connection.currentSession();
    const ids = [...entityDevice.keys()];
    if (!session || !ids.length) {
      extended = new Map();
      return;
    }
    inBackground(log, 'Home Assistant satellites: reading registry entries', async () => {
      try {
        const found = await session.getEntityEntries(ids);
        if (generation !== loadGeneration) return;
        extended = found;
        for (const id of devices.keys()) dirty.add(id);
        notify();
      } catch (err) {
        log.warn({ err }, 'reading the satellites’ entity registry entries failed; using states only');
      }
    });
  }

  connection.onChange((change) => {
    if (change.kind === 'state') {
      const deviceId = entityDevice.get(change.entityId);
      if (deviceId === undefined) return;
      dirty.add(deviceId);
      notify();
      return;
    }
    if (change.kind === 'registries') reindex();
    else for (const id of devices.keys()) dirty.add(id);
    notify();
  });

  function snapshot(deviceId: string): SatelliteDeviceSnapshot | null {
    const device = connection.cache.device(deviceId);
    if (!device) return null;
    const entities: SatelliteEntity[] = [];
    for (const entityId of devices.get(deviceId) ?? []) {
      const entry = extended.get(entityId) ?? connection.cache.registryEntry(entityId);
      if (!entry) continue;
      entities.push({ entry, state: connection.cache.raw(entityId) });
    }
    return { device, entities, areaName: (id) => connection.cache.areaName(id) };
  }

  function mapped(deviceId: string) {
    if (dirty.has(deviceId) || !views.has(deviceId)) {
      const snap = snapshot(deviceId);
      views.set(deviceId, snap ? haSatelliteView(snap) : null);
      dirty.delete(deviceId);
    }
    return views.get(deviceId) ?? null;
  }

  /** Whether the cache holds something worth listing: connected, or reconnecting with the last known home. */
  const readable = () => connection.state === 'connected' || connection.state === 'reconnecting';

  return {
    availability(): SourceAvailability {
      // Satellites are found through the registries; without them there are none to show.
      if (connection.state === 'connected' && connection.registryProblem) {
        return { available: false, message: connection.registryProblem };
      }
      if (connection.state === 'connected') return { available: true, message: null };
      return { available: false, message: connection.message ?? 'Home Assistant is not connected' };
    },

    list() {
      if (!readable()) return [];
      const connected = connection.state === 'connected';
      const out: Array<{ deviceId: string; view: SatelliteLiveView }> = [];
      for (const deviceId of devices.keys()) {
        const found = mapped(deviceId);
        if (!found) continue;
        out.push({
          deviceId,
          view: connected
            ? found.view
            : {
                ...found.view,
                status: 'offline',
                statusReason: 'Home Assistant is not reachable; showing what it last reported',
              },
        });
      }
      return out;
    },

    async control(deviceId: string, input: SatelliteControlInput): Promise<void> {
      const session = connection.requireSession();
      const found = devices.has(deviceId) ? mapped(deviceId) : null;
      if (!found) throw new HttpError(404, 'Home Assistant no longer has this satellite');
      const call = satelliteServiceCall(found, input, (id) => connection.cache.raw(id));
      await session.callService(call.domain, call.service, call.data, { entity_id: call.entityId });
    },

    onChange(listener: () => void) {
      listeners.add(listener);
    },
  };
}
