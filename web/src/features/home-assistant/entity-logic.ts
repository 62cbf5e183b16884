import {
  HA_RESPONSE_GOOD_MS,
  HA_RESPONSE_OK_MS,
  USER_SERVICE_DOMAINS,
  type HaEntity,
  type HaMyAccess,
} from '@nexus/agent/contract';

/** How the console names Home Assistant's domains in headings. */
const DOMAIN_LABELS: Record<string, string> = {
  light: 'Lights',
  switch: 'Switches',
  cover: 'Covers',
  climate: 'Climate',
  media_player: 'Media players',
  scene: 'Scenes',
  script: 'Scripts',
  sensor: 'Sensors',
  binary_sensor: 'Binary sensors',
  lock: 'Locks',
  fan: 'Fans',
  sun: 'Sun',
  person: 'People',
  device_tracker: 'Device trackers',
  automation: 'Automations',
  input_boolean: 'Toggles',
  camera: 'Cameras',
  weather: 'Weather',
  zone: 'Zones',
};

export function domainLabel(domain: string): string {
  return DOMAIN_LABELS[domain] ?? domain.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/** Domains the control screens show a control for; locks are for admins only. */
export const CONTROLLABLE_DOMAINS = [...USER_SERVICE_DOMAINS, 'lock', 'alarm_control_panel'] as const;

/**
 * Whether to offer a control for an entity: admins every controllable domain; members the everyday
 * domains, and of those only what an admin listed for them (`access`, from GET /api/ha/my-access;
 * nothing while it loads), so a member is never offered a control the agent would refuse.
 */
export function mayControl(
  entity: Pick<HaEntity, 'domain' | 'entity_id'>,
  isAdmin: boolean,
  access?: Pick<HaMyAccess, 'all' | 'domains' | 'entities'>,
): boolean {
  if (isAdmin || access?.all) return (CONTROLLABLE_DOMAINS as readonly string[]).includes(entity.domain);
  if (!(USER_SERVICE_DOMAINS as readonly string[]).includes(entity.domain) || !access) return false;
  return access.domains.includes(entity.domain) || access.entities.includes(entity.entity_id);
}

/** Every word of the query must appear in the name, id, area, device or state. */
export function filterEntities(entities: readonly HaEntity[], query: string): HaEntity[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [...entities];
  return entities.filter((e) => {
    const haystack = [e.name, e.entity_id, e.area?.name, e.device?.name, e.state].join(' ').toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

export interface EntityGroup {
  key: string;
  label: string;
  entities: HaEntity[];
}

export const NO_AREA_LABEL = 'No area';

/** Groups by domain or area (entities without an area last), each sorted by name. */
export function groupEntities(
  entities: readonly HaEntity[],
  by: 'domain' | 'area' | 'device',
): EntityGroup[] {
  const groups = new Map<string, EntityGroup>();
  for (const e of entities) {
    const key = by === 'domain' ? e.domain : by === 'area' ? (e.area?.id ?? '') : (e.device?.id ?? '');
    const label =
      by === 'domain'
        ? domainLabel(e.domain)
        : by === 'area'
          ? (e.area?.name ?? NO_AREA_LABEL)
          : e.device
            ? e.device.name
            : 'Not part of a device';
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, label, entities: [] }));
    group.entities.push(e);
  }
  for (const g of groups.values()) g.entities.sort((a, b) => a.name.localeCompare(b.name));
  return [...groups.values()].sort((a, b) => {
    if (!a.key !== !b.key) return a.key ? -1 : 1;
    return a.label.localeCompare(b.label);
  });
}

/** The state as people read it: units added, on/off capitalised. */
export function formatState(entity: HaEntity): string {
  const unit = entity.attributes.unit_of_measurement;
  if (typeof unit === 'string' && unit) return `${entity.state} ${unit}`;
  if (entity.domain === 'scene' || entity.domain === 'script') {
    return entity.domain === 'script' && entity.state === 'on' ? 'Running' : 'Ready';
  }
  return entity.state.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

export type StateTone = 'good' | 'bad' | 'warning' | 'neutral';

export function stateTone(entity: HaEntity): StateTone {
  const s = entity.state;
  if (s === 'unavailable') return 'bad';
  if (s === 'unknown') return 'warning';
  if (['on', 'open', 'playing', 'heat', 'cool', 'heat_cool', 'home', 'unlocked'].includes(s)) return 'good';
  return 'neutral';
}

/** "just now", "5 min ago", "3 h ago", "2 days ago". */
export function relativeTime(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

/** Spec §9: under 200 ms good, under 500 ms secondary, otherwise bad. */
export function responseTimeTone(ms: number): 'good' | 'neutral' | 'bad' {
  if (ms < HA_RESPONSE_GOOD_MS) return 'good';
  if (ms < HA_RESPONSE_OK_MS) return 'neutral';
  return 'bad';
}
