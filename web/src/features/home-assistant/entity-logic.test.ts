import { describe, expect, it } from 'vitest';
import type { HaEntity } from '@nexus/agent/contract';
import {
  filterEntities,
  formatState,
  groupEntities,
  mayControl,
  relativeTime,
  responseTimeTone,
} from './entity-logic';

const entity = (id: string, state: string, extra: Partial<HaEntity> = {}): HaEntity => ({
  entity_id: id,
  domain: id.split('.')[0]!,
  name: id,
  state,
  attributes: {},
  last_changed: '2025-01-01T00:00:00+00:00',
  last_updated: '2025-01-01T00:00:00+00:00',
  area: null,
  device: null,
  ...extra,
});

const kitchen = { id: 'kitchen', name: 'Kitchen' };
const lamp = entity('light.lamp', 'off', {
  name: 'Reading Lamp',
  area: kitchen,
  attributes: { brightness: null },
});
const fan = entity('switch.fan', 'on', { name: 'Fan' });
const temp = entity('sensor.temp', '21.5', {
  name: 'Temperature',
  attributes: { unit_of_measurement: '°C' },
});

describe('filterEntities', () => {
  it('needs every word somewhere in the name, id, area, device or state', () => {
    expect(filterEntities([lamp, fan, temp], 'kitchen lamp')).toEqual([lamp]);
    expect(filterEntities([lamp, fan, temp], 'SWITCH')).toEqual([fan]);
    expect(filterEntities([lamp, fan, temp], '  ')).toHaveLength(3);
    expect(filterEntities([lamp, fan, temp], 'garage')).toEqual([]);
  });
});

describe('groupEntities', () => {
  it('groups by area with entities without an area last, and by domain with readable labels', () => {
    const byArea = groupEntities([fan, lamp, temp], 'area');
    expect(byArea.map((g) => g.label)).toEqual(['Kitchen', 'No area']);
    expect(byArea[1]!.entities.map((e) => e.name)).toEqual(['Fan', 'Temperature']);
    expect(groupEntities([fan, lamp, temp], 'domain').map((g) => g.label)).toEqual([
      'Lights',
      'Sensors',
      'Switches',
    ]);
  });
});

describe('formatting', () => {
  it('adds units and capitalises states', () => {
    expect(formatState(temp)).toBe('21.5 °C');
    expect(formatState(fan)).toBe('On');
    expect(formatState(entity('climate.t', 'heat_cool'))).toBe('Heat cool');
  });

  it('says how long ago', () => {
    const now = Date.parse('2025-01-01T03:00:00Z');
    expect(relativeTime('2025-01-01T02:59:50Z', now)).toBe('just now');
    expect(relativeTime('2025-01-01T02:55:00Z', now)).toBe('5 min ago');
    expect(relativeTime('2025-01-01T00:00:00Z', now)).toBe('3 h ago');
  });

  it('grades response times by spec §9', () => {
    expect(responseTimeTone(199)).toBe('good');
    expect(responseTimeTone(200)).toBe('neutral');
    expect(responseTimeTone(499)).toBe('neutral');
    expect(responseTimeTone(500)).toBe('bad');
  });
});

describe('mayControl', () => {
  const entity = (entity_id: string) => ({ entity_id, domain: entity_id.split('.')[0]! });
  const lightsAndOneSwitch = { all: false, domains: ['light'], entities: ['switch.kettle'] };

  it('gives admins the everyday domains and locks as well', () => {
    expect(mayControl(entity('switch.heater'), true)).toBe(true);
    expect(mayControl(entity('lock.front_door'), true)).toBe(true);
    expect(mayControl(entity('sensor.temperature'), true)).toBe(false);
  });

  it('gives members what an admin listed for them, and nothing while the list loads', () => {
    expect(mayControl(entity('light.kitchen'), false, lightsAndOneSwitch)).toBe(true);
    expect(mayControl(entity('switch.kettle'), false, lightsAndOneSwitch)).toBe(true);
    expect(mayControl(entity('switch.heater'), false, lightsAndOneSwitch)).toBe(false);
    expect(mayControl(entity('light.kitchen'), false)).toBe(false);
  });

  it('never offers members a lock, even when listed by hand', () => {
    expect(
      mayControl(entity('lock.front_door'), false, { all: false, domains: ['lock'], entities: [] }),
    ).toBe(false);
  });
});
