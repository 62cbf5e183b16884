import { describe, expect, it } from 'vitest';
import type { HaEntity } from '@nexus/agent/contract';
import { applyLiveMessage, predictEntity } from './home-assistant';

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

describe('applyLiveMessage', () => {
  const list = { entities: [lamp, fan], areas: [kitchen] };
  it('replaces changed entities, appends new ones and drops removed ones', () => {
    const on = { ...lamp, state: 'on' };
    const next = applyLiveMessage(list, { type: 'changed', entities: [on, temp] });
    expect(next.entities).toEqual([on, fan, temp]);
    expect(applyLiveMessage(next, { type: 'removed', entityIds: ['switch.fan'] }).entities).toEqual([
      on,
      temp,
    ]);
    expect(applyLiveMessage(list, { type: 'resync' })).toBe(list);
  });
});

describe('predictEntity', () => {
  it('guesses the result of the common calls', () => {
    expect(predictEntity(lamp, 'turn_on', { brightness_pct: 50 })).toMatchObject({
      state: 'on',
      attributes: { brightness: 128 },
    });
    expect(predictEntity(fan, 'toggle', {})?.state).toBe('off');
    const cover = entity('cover.door', 'closed', { attributes: { current_position: 0 } });
    expect(predictEntity(cover, 'set_cover_position', { position: 40 })).toMatchObject({
      state: 'open',
      attributes: { current_position: 40 },
    });
    const climate = entity('climate.t', 'heat', { attributes: { temperature: 20 } });
    expect(predictEntity(climate, 'set_temperature', { temperature: 21.5 })?.attributes.temperature).toBe(
      21.5,
    );
    const player = entity('media_player.p', 'paused');
    expect(predictEntity(player, 'media_play_pause', {})?.state).toBe('playing');
    expect(predictEntity(entity('scene.x', 'unknown'), 'turn_on', {})).toBeNull();
  });
});
