import type {
  HaAreaRegistryEntry,
  HaDeviceRegistryEntry,
  HaEntityRegistryEntry,
  HaEntityState,
} from '../../adapters/home-assistant.js';
import type { HaEntity } from '../../contract/home-assistant.js';

export interface RegistrySnapshot {
  entities: HaEntityRegistryEntry[];
  devices: HaDeviceRegistryEntry[];
  areas: HaAreaRegistryEntry[];
}

/**
 * The agent's copy of Home Assistant's states joined with its registries: fed by get_states and
 * the registry lists on (re)connect, kept current by state_changed events. Pure, so it is cheap
 * to test and to benchmark.
 */
export class EntityCache {
  private readonly states = new Map<string, HaEntityState>();
  private registry = new Map<string, HaEntityRegistryEntry>();
  private devices = new Map<string, HaDeviceRegistryEntry>();
  private areas = new Map<string, HaAreaRegistryEntry>();

  get size(): number {
    return this.states.size;
  }

  has(entityId: string): boolean {
    return this.states.has(entityId);
  }

  raw(entityId: string): HaEntityState | undefined {
    return this.states.get(entityId);
  }

  entityIds(): string[] {
    return [...this.states.keys()];
  }

  /** Registry lookups for features that read devices (e.g. voice satellites). */
  registryEntry(entityId: string): HaEntityRegistryEntry | undefined {
    return this.registry.get(entityId);
  }

  registryEntries(): Iterable<HaEntityRegistryEntry> {
    return this.registry.values();
  }

  device(deviceId: string): HaDeviceRegistryEntry | undefined {
    return this.devices.get(deviceId);
  }

  /** The device registry as last loaded (devices by area on /smart-home-devices). */
  deviceEntries(): Iterable<HaDeviceRegistryEntry> {
    return this.devices.values();
  }

  areaName(areaId: string | null | undefined): string | null {
    return areaId ? (this.areas.get(areaId)?.name ?? null) : null;
  }

  setRegistries(snapshot: RegistrySnapshot): void {
    this.registry = new Map(snapshot.entities.map((e) => [e.entity_id, e]));
    this.devices = new Map(snapshot.devices.map((d) => [d.id, d]));
    this.areas = new Map(snapshot.areas.map((a) => [a.area_id, a]));
  }

  /**
   * Replaces every state with a fresh get_states answer. Returns the ids that are new or whose
   * state or attributes differ from what the cache held, and the ids that disappeared.
   */
  replaceStates(states: HaEntityState[]): { changed: string[]; removed: string[] } {
    const seen = new Set<string>();
    const changed: string[] = [];
    for (const next of states) {
      seen.add(next.entity_id);
      const previous = this.states.get(next.entity_id);
      if (!previous || previous.last_updated !== next.last_updated || previous.state !== next.state) {
        changed.push(next.entity_id);
      }
      this.states.set(next.entity_id, next);
    }
    const removed: string[] = [];
    for (const id of this.states.keys()) {
      if (!seen.has(id)) removed.push(id);
    }
    for (const id of removed) this.states.delete(id);
    return { changed, removed };
  }

  /**
   * Applies one state_changed event. A null new state means the entity was removed. An event
   * older than what the cache holds (it raced a get_states answer) is ignored.
   */
  applyStateChanged(entityId: string, newState: HaEntityState | null): 'changed' | 'removed' | 'ignored' {
    if (!newState) return this.states.delete(entityId) ? 'removed' : 'ignored';
    const current = this.states.get(entityId);
    if (current && current.last_updated > newState.last_updated) return 'ignored';
    this.states.set(entityId, newState);
    return 'changed';
  }

  /** The entity as the console shows it: state joined with registry name, area and device. */
  view(entityId: string): HaEntity | undefined {
    const s = this.states.get(entityId);
    if (!s) return undefined;
    const entry = this.registry.get(entityId);
    const device = entry?.device_id ? this.devices.get(entry.device_id) : undefined;
    const areaId = entry?.area_id ?? device?.area_id ?? null;
    const area = areaId ? this.areas.get(areaId) : undefined;
    const friendly = s.attributes.friendly_name;
    return {
      entity_id: s.entity_id,
      domain: s.entity_id.slice(0, s.entity_id.indexOf('.')),
      name:
        entry?.name ??
        (typeof friendly === 'string' && friendly ? friendly : null) ??
        entry?.original_name ??
        s.entity_id,
      state: s.state,
      attributes: withoutCredentials(s.attributes),
      last_changed: s.last_changed,
      last_updated: s.last_updated,
      area: area ? { id: area.area_id, name: area.name } : null,
      device: device
        ? {
            id: device.id,
            name: device.name_by_user ?? device.name ?? device.id,
            manufacturer: device.manufacturer ?? null,
            model: device.model ?? null,
          }
        : null,
    };
  }

  list(): HaEntity[] {
    const out: HaEntity[] = [];
    for (const id of this.states.keys()) out.push(this.view(id)!);
    return out;
  }

  areaList(): { id: string; name: string }[] {
    return [...this.areas.values()]
      .map((a) => ({ id: a.area_id, name: a.name }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Registry counts leave out what the owner disabled; `states` is what HA reports right now. */
  counts(): { states: number; entities: number; devices: number; areas: number } {
    let entities = 0;
    for (const e of this.registry.values()) if (!e.disabled_by) entities++;
    let devices = 0;
    for (const d of this.devices.values()) if (!d.disabled_by) devices++;
    return { states: this.states.size, entities, devices, areas: this.areas.size };
  }

  domains(): { domain: string; count: number }[] {
    const counts = new Map<string, number>();
    for (const id of this.states.keys()) {
      const domain = id.slice(0, id.indexOf('.'));
      counts.set(domain, (counts.get(domain) ?? 0) + 1);
    }
    return [...counts]
      .map(([domain, count]) => ({ domain, count }))
      .sort((a, b) => b.count - a.count || a.domain.localeCompare(b.domain));
  }

  clear(): void {
    this.states.clear();
    this.registry.clear();
    this.devices.clear();
    this.areas.clear();
  }
}

/**
 * Attributes as browsers get them: a camera's `access_token` (and the same token in its
 * `entity_picture` URL) lets anyone who reaches Home Assistant watch the camera, and browsers never
 * talk to Home Assistant, so it is of no use to them and is left out for everyone.
 */
export function withoutCredentials(attributes: Record<string, unknown>): Record<string, unknown> {
  if (!('access_token' in attributes) && typeof attributes.entity_picture !== 'string') return attributes;
  const { access_token: _token, ...rest } = attributes;
  if (typeof rest.entity_picture === 'string') {
    rest.entity_picture = rest.entity_picture.replace(/([?&])token=[^&]*/g, '$1token=redacted');
  }
  return rest;
}
