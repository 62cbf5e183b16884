import { describe, expect, it } from 'vitest';
import {
  backfillPercent,
  busiestCell,
  clockIn,
  dateIn,
  durationWords,
  entityMatches,
  heatCellWords,
  heatLevel,
  historyStage,
  liftWords,
  parseRetention,
  sectionForPath,
  spreadWords,
  supportWords,
  timelineEnd,
  timelineSegments,
} from './analytics-logic';

describe('sectionForPath', () => {
  it('opens each of the three paths on its own section', () => {
    expect(sectionForPath('/behavioral-analytics', false)).toBe('routines');
    expect(sectionForPath('/pattern-analysis', false)).toBe('patterns');
    expect(sectionForPath('/ha-pattern-predictor', false)).toBe('predictions');
  });
  it('opens settings from #settings for admins only', () => {
    expect(sectionForPath('/behavioral-analytics', true, '#settings')).toBe('settings');
    expect(sectionForPath('/pattern-analysis', false, '#settings')).toBe('patterns');
  });
});

describe('wording', () => {
  it('says support as days seen of days observed', () => {
    expect(supportWords({ daysSeen: 38, daysObserved: 40, days: 'all' })).toBe('seen on 38 of 40 days');
    expect(supportWords({ daysSeen: 7, daysObserved: 8, days: 'weekend' })).toBe(
      'seen on 7 of 8 weekend days',
    );
    expect(supportWords({ daysSeen: 20, daysObserved: 28, days: 'weekday' })).toBe(
      'seen on 20 of 28 weekdays',
    );
  });
  it('reads durations like people do', () => {
    expect(durationWords(45)).toBe('45 s');
    expect(durationWords(180)).toBe('3 min');
    expect(durationWords(3900)).toBe('1 h 5 min');
    expect(durationWords(7200)).toBe('2 h');
    expect(spreadWords(12.4)).toBe('± 12 min');
  });
  it('writes lift as a factor', () => {
    expect(liftWords(3.24)).toBe('×3.2');
    expect(liftWords(14.6)).toBe('×15');
  });
  it('tells times in Home Assistant’s zone, not the browser’s', () => {
    expect(clockIn('2030-01-01T06:05:00Z', 'Europe/Berlin')).toBe('07:05');
    expect(clockIn('2030-01-01T06:05:00Z', 'America/New_York')).toBe('01:05');
    expect(dateIn(Date.parse('2030-01-01T23:30:00Z'), 'Europe/Berlin')).toBe('2030-01-02');
  });
  it('does not throw on a zone it does not know', () => {
    expect(() => clockIn('2030-01-01T06:05:00Z', 'Not/AZone')).not.toThrow();
  });
});

describe('historyStage', () => {
  const day = 86_400_000;
  const base = Date.parse('2030-01-01T00:00:00Z');
  const at = (d: number) => new Date(base + d * day).toISOString();
  it('is empty with no events', () => {
    expect(historyStage({ events: 0, oldest: null, newest: null })).toEqual({ kind: 'empty' });
  });
  it('says how many days are still needed', () => {
    expect(historyStage({ events: 50, oldest: at(0), newest: at(3) })).toEqual({
      kind: 'collecting',
      days: 3,
      needed: 7,
    });
  });
  it('is ready from a week on', () => {
    expect(historyStage({ events: 500, oldest: at(0), newest: at(40) })).toEqual({ kind: 'ready', days: 40 });
  });
});

describe('backfill', () => {
  it('shows progress while it runs', () => {
    expect(backfillPercent({ backfill: null })).toBeNull();
    expect(backfillPercent({ backfill: { done: 10, total: 40 } })).toBe(25);
    expect(backfillPercent({ backfill: { done: 0, total: 0 } })).toBe(0);
  });
});

describe('heatmap', () => {
  it('shades cells in quartiles of the busiest', () => {
    expect(heatLevel(0, 10)).toBe(0);
    expect(heatLevel(1, 10)).toBe(1);
    expect(heatLevel(3, 10)).toBe(2);
    expect(heatLevel(6, 10)).toBe(3);
    expect(heatLevel(10, 10)).toBe(4);
    expect(heatLevel(3, 0)).toBe(0);
  });
  it('labels cells and finds the busiest', () => {
    expect(heatCellWords(0, 7, 12)).toBe('Monday 07:00–08:00: 12 changes');
    expect(heatCellWords(6, 23, 1)).toBe('Sunday 23:00–00:00: 1 change');
    const counts = Array.from({ length: 7 }, () => Array<number>(24).fill(0));
    counts[2]![18] = 9;
    counts[4]![7] = 3;
    expect(busiestCell({ counts })).toEqual({ weekday: 2, hour: 18, count: 9 });
    expect(busiestCell({ counts: Array.from({ length: 7 }, () => Array<number>(24).fill(0)) })).toBeNull();
  });
});

describe('timelineSegments', () => {
  it('holds each state until the next change, the last until the day ends', () => {
    const changes = [
      { at: '2030-01-01T00:00:00Z', state: 'off' },
      { at: '2030-01-01T07:00:00Z', state: 'on' },
      { at: '2030-01-01T08:30:00Z', state: 'off' },
    ];
    expect(timelineSegments(changes, 'UTC')).toEqual([
      { state: 'off', start: 0, end: 420 },
      { state: 'on', start: 420, end: 510 },
      { state: 'off', start: 510, end: 1440 },
    ]);
  });
  it('stops at now for today', () => {
    const now = Date.parse('2030-01-01T10:00:00Z');
    const end = timelineEnd('2030-01-01', now, 'UTC');
    expect(end).toBe(600);
    expect(timelineEnd('2029-12-31', now, 'UTC')).toBe(1440);
    expect(timelineSegments([{ at: '2030-01-01T07:00:00Z', state: 'on' }], 'UTC', end)).toEqual([
      { state: 'on', start: 420, end: 600 },
    ]);
  });
});

describe('settings', () => {
  it('checks the retention', () => {
    expect(parseRetention(' 90 ')).toEqual({ ok: true, days: 90 });
    expect(parseRetention('0').ok).toBe(false);
    expect(parseRetention('4000').ok).toBe(false);
    expect(parseRetention('9.5').ok).toBe(false);
  });
  it('offers entities not yet excluded that match the filter', () => {
    const entities = [
      { entityId: 'light.hallway', name: 'Hallway light' },
      { entityId: 'light.kitchen', name: 'Kitchen light' },
      { entityId: 'binary_sensor.front_door', name: 'Front door' },
    ];
    expect(entityMatches(entities, 'light', ['light.kitchen']).map((e) => e.entityId)).toEqual([
      'light.hallway',
    ]);
    expect(entityMatches(entities, 'DOOR', []).map((e) => e.entityId)).toEqual(['binary_sensor.front_door']);
    expect(entityMatches(entities, '', [], 2)).toHaveLength(2);
  });
});
