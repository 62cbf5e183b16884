import { describe, expect, it } from 'vitest';
import type { HaEntityState } from '../../adapters/home-assistant.js';
import { EntityCache } from './entity-cache.js';

const state = (
  entity_id: string,
  value: string,
  at: string,
  attributes: Record<string, unknown> = {},
): HaEntityState => ({
  entity_id,
  state: value,
  attributes,
  last_changed: at,
  last_updated: at,
  context: { id: 'c', parent_id: null, user_id: null },
});

const T1 = '2025-01-01T00:00:01.000000+00:00';
const T2 = '2025-01-01T00:00:02.000000+00:00';
const T3 = '2025-01-01T00:00:03.000000+00:00';

function seeded() {
  const cache = new EntityCache();
  cache.setRegistries({
    entities: [
      {
        entity_id: 'light.lamp',
        device_id: 'd1',
        area_id: null,
        name: null,
        platform: 'hue',
        disabled_by: null,
        hidden_by: null,
        entity_category: null,
      },
      {
        entity_id: 'switch.fan',
        device_id: 'd1',
        area_id: 'office',
        name: 'Desk Fan',
        platform: 'hue',
        disabled_by: null,
        hidden_by: null,
        entity_category: null,
      },
      {
        entity_id: 'sensor.off',
        device_id: null,
        area_id: null,
        name: null,
        platform: 'x',
        disabled_by: 'user',
        hidden_by: null,
        entity_category: null,
      },
    ],
    devices: [
      {
        id: 'd1',
        name: 'Lamp',
        name_by_user: 'Reading Lamp',
        area_id: 'living',
        manufacturer: 'Signify',
        model: 'Hue',
        disabled_by: null,
      },
    ],
    areas: [
      { area_id: 'living', name: 'Living Room' },
      { area_id: 'office', name: 'Office' },
    ],
  });
  cache.replaceStates([
    state('light.lamp', 'off', T1, { friendly_name: 'Lamp' }),
    state('switch.fan', 'on', T1),
  ]);
  return cache;
}

describe('EntityCache', () => {
  it('joins states with the registry: the entity area wins over the device area', () => {
    const cache = seeded();
    expect(cache.view('light.lamp')).toMatchObject({
      domain: 'light',
      name: 'Lamp',
      area: { id: 'living', name: 'Living Room' },
      device: { id: 'd1', name: 'Reading Lamp', manufacturer: 'Signify', model: 'Hue' },
    });
    expect(cache.view('switch.fan')).toMatchObject({ name: 'Desk Fan', area: { name: 'Office' } });
    expect(cache.counts()).toEqual({ states: 2, entities: 2, devices: 1, areas: 2 });
  });

  it('follows state_changed, ignores stale events and removes entities whose new state is null', () => {
    const cache = seeded();
    expect(cache.applyStateChanged('light.lamp', state('light.lamp', 'on', T3))).toBe('changed');
    expect(cache.applyStateChanged('light.lamp', state('light.lamp', 'off', T2))).toBe('ignored');
    expect(cache.view('light.lamp')?.state).toBe('on');
    expect(cache.applyStateChanged('switch.fan', null)).toBe('removed');
    expect(cache.has('switch.fan')).toBe(false);
    expect(cache.applyStateChanged('switch.fan', null)).toBe('ignored');
  });

  it('reports what a fresh get_states changed and removed', () => {
    const cache = seeded();
    const { changed, removed } = cache.replaceStates([
      state('light.lamp', 'off', T1, { friendly_name: 'Lamp' }),
      state('cover.door', 'open', T2),
    ]);
    expect(changed).toEqual(['cover.door']);
    expect(removed).toEqual(['switch.fan']);
    expect(cache.domains()).toEqual([
      { domain: 'cover', count: 1 },
      { domain: 'light', count: 1 },
    ]);
  });
});
