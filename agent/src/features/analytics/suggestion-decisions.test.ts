import { describe, expect, it } from 'vitest';
import { actedOnEntities, decisionFor, type Decision } from './suggestion-decisions.js';

const dismissed: Decision = { status: 'dismissed', automationId: null };

describe('decisionFor', () => {
  it('keeps a dismissal when the routine’s usual time drifts into the next hour', () => {
    const decided = new Map([['suggestion:routine:light.porch:on:all:0600', dismissed]]);
    const now = 'suggestion:routine:light.porch:on:all:0700';
    expect(decisionFor(now, decided, new Set([now]))).toEqual(dismissed);
    // …and across midnight.
    const late = new Map([['suggestion:routine:light.porch:off:all:2300', dismissed]]);
    const after = 'suggestion:routine:light.porch:off:all:0000';
    expect(decisionFor(after, late, new Set([after]))).toEqual(dismissed);
  });

  it('keeps two real routines an hour apart apart', () => {
    const decided = new Map([['suggestion:routine:light.porch:on:all:0600', dismissed]]);
    const both = new Set([
      'suggestion:routine:light.porch:on:all:0600',
      'suggestion:routine:light.porch:on:all:0700',
    ]);
    expect(decisionFor('suggestion:routine:light.porch:on:all:0700', decided, both)).toBeUndefined();
  });

  it('never borrows across entities, states, kinds of day or two hours', () => {
    const decided = new Map([['suggestion:routine:light.porch:on:all:0600', dismissed]]);
    for (const id of [
      'suggestion:routine:light.hall:on:all:0700',
      'suggestion:routine:light.porch:off:all:0700',
      'suggestion:routine:light.porch:on:weekday:0700',
      'suggestion:routine:light.porch:on:all:0800',
      'suggestion:sequence:binary_sensor.door:on:light.porch:on',
    ]) {
      expect(decisionFor(id, decided, new Set([id]))).toBeUndefined();
    }
  });
});

describe('actedOnEntities', () => {
  it('reads the targets of the actions, modern and legacy keys', () => {
    expect(
      actedOnEntities({
        actions: [
          { action: 'light.turn_on', target: { entity_id: ['light.a', 'light.b'] } },
          { action: 'lock.lock', target: { entity_id: 'lock.front' } },
          { delay: '00:00:05' },
        ],
      }),
    ).toEqual(['light.a', 'light.b', 'lock.front']);
    expect(
      actedOnEntities({ action: { service: 'switch.turn_off', data: { entity_id: 'switch.fan' } } }),
    ).toEqual(['switch.fan']);
  });
});
