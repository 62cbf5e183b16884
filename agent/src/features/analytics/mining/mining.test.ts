import { describe, expect, it } from 'vitest';
import { automationConfigSchema } from '../../../contract/ha-automations.js';
import {
  anomalySchema,
  predictionSchema,
  routineSchema,
  sequenceSchema,
  suggestionSchema,
} from '../../../contract/analytics.js';
import { checkAutomationConfig, parseAutomationYaml } from '../../home-assistant/automation-config.js';
import { eventLogFrom, type StateChange } from '../event-log.js';
import { heatmapOf, mine } from './index.js';
import { circularStats, createClock, formatMinute, weekdayOf } from './local-time.js';
import { routineSuggestion } from './suggestions.js';

const TZ = 'Europe/Berlin';
const clock = createClock(TZ);
const DAY = 86_400_000;
/** Local day number of a date. */
const dayOf = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY);
/** The instant of a local wall time in Berlin. */
const at = (day: number, hhmm: string, seconds = 0) => {
  const [h, m] = hhmm.split(':').map(Number);
  return clock.utcOf(day, h! * 60 + m! + seconds / 60);
};
const minutes = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
};
/** A small deterministic jitter, −8…+8 minutes. */
const jitter = (k: number) => ((k * 7) % 17) - 8;

/** `days` days from `start`, with `each(day, k)` adding the day's changes; a heartbeat keeps every day observed. */
function history(start: string, days: number, each: (day: number, k: number, out: StateChange[]) => void) {
  const out: StateChange[] = [];
  const first = dayOf(start);
  for (let k = 0; k < days; k++) {
    const day = first + k;
    out.push({ entityId: 'binary_sensor.heartbeat', state: k % 2 ? 'on' : 'off', at: at(day, '12:00') });
    each(day, k, out);
  }
  // Each entity's state when recording began (its first record is that, not a change).
  const seen = new Set<string>();
  for (const change of [...out].sort((a, b) => a.at - b.at)) {
    if (seen.has(change.entityId)) continue;
    seen.add(change.entityId);
    out.push({
      entityId: change.entityId,
      state: change.state === 'off' ? 'on' : 'off',
      at: at(first, '00:00'),
    });
  }
  return { changes: out, first, end: clock.utcOf(first + days, 0) };
}

/** On at `time` (± jitter), off two to five hours later. */
function daily(entityId: string, time: string, on = 'on', off = 'off') {
  return (day: number, k: number, out: StateChange[]) => {
    out.push({ entityId, state: on, at: at(day, time) + jitter(k) * 60_000 });
    out.push({ entityId, state: off, at: at(day, time) + (120 + ((k * 37) % 180)) * 60_000 });
  };
}

describe('local time', () => {
  it('follows DST in the zone (Berlin, spring and autumn)', () => {
    expect(clock.offsetAt(Date.UTC(2025, 2, 30, 0, 59))).toBe(3_600_000);
    expect(clock.offsetAt(Date.UTC(2025, 2, 30, 1, 0))).toBe(7_200_000);
    expect(clock.offsetAt(Date.UTC(2025, 9, 26, 0, 59))).toBe(7_200_000);
    expect(clock.offsetAt(Date.UTC(2025, 9, 26, 1, 0))).toBe(3_600_000);
    expect(clock.minuteOf(Date.UTC(2025, 2, 30, 5, 0))).toBe(7 * 60);
    expect(clock.minuteOf(Date.UTC(2025, 2, 29, 6, 0))).toBe(7 * 60);
    expect(clock.utcOf(dayOf('2025-03-30'), 7 * 60)).toBe(Date.UTC(2025, 2, 30, 5, 0));
    expect(clock.utcOf(dayOf('2025-03-29'), 7 * 60)).toBe(Date.UTC(2025, 2, 29, 6, 0));
    // The local day, not the UTC day: 23:30 UTC on the 29th is already the 30th in Berlin.
    expect(clock.dayOf(Date.UTC(2025, 2, 29, 23, 30))).toBe(dayOf('2025-03-30'));
    const ny = createClock('America/New_York');
    expect(ny.minuteOf(Date.UTC(2025, 2, 9, 12, 0))).toBe(8 * 60);
    expect(ny.minuteOf(Date.UTC(2025, 2, 8, 12, 0))).toBe(7 * 60);
  });

  it('numbers weekdays Monday = 0', () => {
    expect(weekdayOf(dayOf('2025-03-03'))).toBe(0);
    expect(weekdayOf(dayOf('2025-03-09'))).toBe(6);
  });

  it('takes the circular mean across midnight', () => {
    const stats = circularStats([minutes('23:50'), minutes('00:10')]);
    expect(formatMinute(stats.mean)).toBe('00:00');
    expect(stats.spread).toBeGreaterThan(9);
    expect(stats.spread).toBeLessThan(11);
    expect(formatMinute(circularStats([minutes('23:40'), minutes('23:50'), minutes('00:00')]).mean)).toBe(
      '23:50',
    );
  });

  it('refuses an unknown zone', () => {
    expect(() => createClock('Mars/Olympus')).toThrow(RangeError);
  });
});

describe('routines', () => {
  it('finds a daily routine with its mean, spread and support, through the DST change', () => {
    // 2025-03-17 … 2025-04-13 crosses Berlin's spring change on 30 March.
    const h = history('2025-03-17', 28, daily('light.kitchen', '07:00'));
    const result = mine(eventLogFrom(h.changes), { now: h.end, timeZone: TZ, nameOf: () => 'Kitchen' });
    const routines = result.routines.filter((r) => r.entityId === 'light.kitchen');
    expect(routines).toHaveLength(1);
    const [routine] = routines;
    expect(routineSchema.parse(routine)).toEqual(routine);
    expect(routine).toMatchObject({
      state: 'on',
      days: 'all',
      daysSeen: 28,
      daysObserved: 28,
      support: 1,
      name: 'Kitchen',
    });
    expect(Math.abs(minutes(routine!.meanTime) - minutes('07:00'))).toBeLessThanOrEqual(1);
    expect(routine!.spreadMinutes).toBeGreaterThan(3);
    expect(routine!.spreadMinutes).toBeLessThan(8);
    expect(routine!.confidence).toBeGreaterThan(0.9);
    expect(routine!.id).toBe('routine:light.kitchen:on:all:0700');
    // Local time: an exact 07:00 every day stays 07:00 with no spread on both sides of the change.
    const exact = history('2025-03-17', 28, (day, _k, out) => {
      out.push({ entityId: 'switch.kettle', state: 'on', at: at(day, '07:00') });
      out.push({ entityId: 'switch.kettle', state: 'off', at: at(day, '07:05') });
    });
    const kettle = mine(eventLogFrom(exact.changes), { now: exact.end, timeZone: TZ }).routines.find(
      (r) => r.entityId === 'switch.kettle' && r.state === 'on',
    );
    expect(kettle).toMatchObject({ meanTime: '07:00', spreadMinutes: 0, support: 1 });
  });

  it('splits weekday and weekend routines, and finds two times a day for one entity', () => {
    const h = history('2025-03-03', 28, (day, k, out) => {
      const weekend = weekdayOf(day) >= 5;
      daily('light.bedroom', weekend ? '09:00' : '06:45')(day, k, out);
      daily('light.living_room', '07:30')(day, k, out);
      out.push({ entityId: 'light.living_room', state: 'on', at: at(day, '19:00') + jitter(k + 3) * 60_000 });
      out.push({ entityId: 'light.living_room', state: 'off', at: at(day, '23:00') + jitter(k) * 60_000 });
    });
    const routines = mine(eventLogFrom(h.changes), { now: h.end, timeZone: TZ }).routines;
    const bedroom = routines.filter((r) => r.entityId === 'light.bedroom' && r.state === 'on');
    expect(bedroom.map((r) => [r.days, r.daysSeen, r.daysObserved])).toEqual([
      ['weekday', 20, 20],
      ['weekend', 8, 8],
    ]);
    expect(Math.abs(minutes(bedroom[0]!.meanTime) - minutes('06:45'))).toBeLessThanOrEqual(2);
    expect(Math.abs(minutes(bedroom[1]!.meanTime) - minutes('09:00'))).toBeLessThanOrEqual(2);
    const living = routines.filter((r) => r.entityId === 'light.living_room' && r.state === 'on');
    expect(living.map((r) => [r.days, r.meanTime.slice(0, 2)])).toEqual([
      ['all', '07'],
      ['all', '19'],
    ]);
  });

  it('keeps a routine across midnight on the evening it belongs to', () => {
    const h = history('2025-03-03', 21, (day, k, out) => {
      out.push({ entityId: 'light.landing', state: 'on', at: at(day, '23:55') + jitter(k) * 60_000 });
      out.push({ entityId: 'light.landing', state: 'off', at: at(day, '23:55') + (90 + k) * 60_000 });
    });
    const routine = mine(eventLogFrom(h.changes), { now: h.end, timeZone: TZ }).routines.find(
      (r) => r.entityId === 'light.landing' && r.state === 'on',
    );
    expect(routine).toBeDefined();
    expect(Math.abs(minutes(routine!.meanTime) - minutes('23:55'))).toBeLessThanOrEqual(2);
    expect(routine!.spreadMinutes).toBeLessThan(8);
    expect(routine!.daysSeen).toBe(21);
    expect(routine!.support).toBe(1);
  });

  it('does not count days the hub recorded nothing against a routine', () => {
    const h = history('2025-03-03', 28, daily('light.kitchen', '07:00'));
    const off = new Set([5, 6, 7, 8, 9, 10, 11].map((k) => h.first + k));
    const changes = h.changes.filter((c) => !off.has(clock.dayOf(c.at)));
    const routine = mine(eventLogFrom(changes), { now: h.end, timeZone: TZ }).routines.find(
      (r) => r.entityId === 'light.kitchen',
    );
    expect(routine).toMatchObject({ daysSeen: 21, daysObserved: 21, support: 1 });
  });

  it('ignores unavailable and unknown, and a device coming back', () => {
    const h = history('2025-03-03', 21, (day, _k, out) => {
      out.push({ entityId: 'light.flaky', state: 'unavailable', at: at(day, '06:58') });
      out.push({ entityId: 'light.flaky', state: 'on', at: at(day, '07:00') });
      out.push({ entityId: 'light.flaky', state: 'unknown', at: at(day, '09:00') });
      out.push({ entityId: 'light.flaky', state: 'off', at: at(day, '09:01') });
    });
    const result = mine(eventLogFrom(h.changes), { now: h.end, timeZone: TZ });
    expect(result.routines.filter((r) => r.entityId === 'light.flaky')).toEqual([]);
  });

  it('does not take a busy entity for a routine (chance puts it near any time)', () => {
    const h = history('2025-03-03', 28, (day, k, out) => {
      for (let n = 0; n < 24; n++) {
        const minute = (n * 60 + ((k * 13 + n * 29) % 60)) % 1440;
        out.push({ entityId: 'binary_sensor.motion', state: 'on', at: clock.utcOf(day, minute) });
        out.push({ entityId: 'binary_sensor.motion', state: 'off', at: clock.utcOf(day, minute + 1) });
      }
    });
    const result = mine(eventLogFrom(h.changes), { now: h.end, timeZone: TZ });
    expect(result.routines.filter((r) => r.entityId === 'binary_sensor.motion')).toEqual([]);
  });

  it('is deterministic', () => {
    const h = history('2025-03-03', 28, (day, k, out) => {
      daily('light.a', '07:00')(day, k, out);
      daily('light.b', '18:00')(day, k, out);
    });
    const options = { now: h.end, timeZone: TZ };
    const first = mine(eventLogFrom(h.changes), options);
    const second = mine(eventLogFrom([...h.changes].reverse()), options);
    expect(second).toEqual(first);
  });
});

describe('sequences', () => {
  const h = history('2025-03-03', 28, (day, k, out) => {
    for (let n = 0; n < 4; n++) {
      const t = at(day, '08:00') + (n * 200 + k * 3) * 60_000;
      out.push({ entityId: 'binary_sensor.front_door', state: 'on', at: t });
      out.push({ entityId: 'binary_sensor.front_door', state: 'off', at: t + 60_000 });
      if (n < 3) {
        out.push({ entityId: 'light.hallway', state: 'on', at: t + (20 + n * 10) * 1000 });
        out.push({ entityId: 'light.hallway', state: 'off', at: t + 5 * 60_000 });
      }
    }
    const home = at(day, '17:00') + k * 7 * 60_000;
    out.push({ entityId: 'person.alice', state: 'not_home', at: at(day, '08:30') + k * 60_000 });
    out.push({ entityId: 'person.alice', state: 'home', at: home });
    out.push({ entityId: 'light.study', state: 'on', at: home + 120_000 });
    out.push({ entityId: 'light.study', state: 'off', at: home + 90 * 60_000 });
  });
  const result = mine(eventLogFrom(h.changes), { now: h.end, timeZone: TZ });

  it('finds A then B with count, confidence, lift and the median delay', () => {
    const sequence = result.sequences.find(
      (s) => s.id === 'sequence:binary_sensor.front_door:on:light.hallway:on',
    );
    expect(sequence).toBeDefined();
    expect(sequenceSchema.parse(sequence)).toEqual(sequence);
    expect(sequence).toMatchObject({
      kind: 'sequence',
      count: 84,
      confidence: 0.75,
      medianDelaySeconds: 30,
      support: 1,
    });
    expect(sequence!.lift).toBeGreaterThan(10);
  });

  it('marks a person arriving home as a presence pattern', () => {
    const presence = result.sequences.find((s) => s.id === 'sequence:person.alice:home:light.study:on');
    expect(presence).toMatchObject({ kind: 'presence', count: 28, confidence: 1, medianDelaySeconds: 120 });
  });
});

describe('anomalies and predictions', () => {
  // Four weeks of a 07:00 kitchen light; "today" is the 29th day.
  const base = history('2025-03-03', 28, daily('light.kitchen', '07:00'));
  const today = base.first + 28;
  const withToday = (extra: StateChange[]) =>
    eventLogFrom([
      ...base.changes,
      { entityId: 'binary_sensor.heartbeat', state: 'on', at: at(today, '05:00') },
      ...extra,
    ]);

  it('reports a strong routine missed today, once well past its time', () => {
    const log = withToday([]);
    const early = mine(log, { now: at(today, '07:20'), timeZone: TZ });
    expect(early.anomalies.filter((a) => a.kind === 'missed_routine')).toEqual([]);
    const late = mine(log, { now: at(today, '10:00'), timeZone: TZ, nameOf: () => 'Kitchen light' });
    const missed = late.anomalies.filter((a) => a.kind === 'missed_routine');
    expect(missed).toHaveLength(1);
    expect(anomalySchema.parse(missed[0])).toEqual(missed[0]);
    expect(missed[0]!.routineId).toBe('routine:light.kitchen:on:all:0700');
    expect(missed[0]!.message).toMatch(
      /^Kitchen light usually turns on around 07:0\d every day \(28 of 28 days\); not yet today\.$/,
    );
  });

  it('does not report a routine that happened, nor any on a day the hub recorded nothing', () => {
    const happened = mine(withToday([{ entityId: 'light.kitchen', state: 'on', at: at(today, '07:04') }]), {
      now: at(today, '10:00'),
      timeZone: TZ,
    });
    expect(happened.anomalies.filter((a) => a.kind === 'missed_routine')).toEqual([]);
    const silent = mine(eventLogFrom(base.changes), { now: at(today, '10:00'), timeZone: TZ });
    expect(silent.anomalies).toEqual([]);
  });

  it('reports a device on at an hour it never was', () => {
    const log = withToday([{ entityId: 'light.kitchen', state: 'on', at: at(today, '03:12') }]);
    const result = mine(log, { now: at(today, '03:30'), timeZone: TZ });
    const unusual = result.anomalies.filter((a) => a.kind === 'unusual_hour');
    expect(unusual).toHaveLength(1);
    expect(unusual[0]).toMatchObject({
      entityId: 'light.kitchen',
      state: 'on',
      severity: 'warning',
      routineId: null,
    });
    expect(unusual[0]!.message).toMatch(
      /turned on at 03:12; in 28 days of history it never did between 03:00 and 04:00/,
    );
    // At its usual hour it is no anomaly.
    const usual = mine(withToday([{ entityId: 'light.kitchen', state: 'on', at: at(today, '07:01') }]), {
      now: at(today, '07:30'),
      timeZone: TZ,
    });
    expect(usual.anomalies.filter((a) => a.kind === 'unusual_hour')).toEqual([]);
  });

  it('predicts a routine due in the next hour until it has happened', () => {
    const before = mine(withToday([]), { now: at(today, '06:30'), timeZone: TZ });
    expect(before.predictions).toHaveLength(1);
    const [prediction] = before.predictions;
    expect(predictionSchema.parse(prediction)).toEqual(prediction);
    expect(prediction!.basis).toMatchObject({ kind: 'routine', id: 'routine:light.kitchen:on:all:0700' });
    expect(Date.parse(prediction!.expectedAt) - at(today, '06:30')).toBeGreaterThan(20 * 60_000);
    const after = mine(withToday([{ entityId: 'light.kitchen', state: 'on', at: at(today, '06:40') }]), {
      now: at(today, '06:45'),
      timeZone: TZ,
    });
    expect(after.predictions).toEqual([]);
    const tooEarly = mine(withToday([]), { now: at(today, '05:30'), timeZone: TZ });
    expect(tooEarly.predictions).toEqual([]);
  });

  it('predicts B after a recent A that it has not followed yet', () => {
    const h = history('2025-03-03', 21, (day, k, out) => {
      const t = at(day, '10:00') + k * 17 * 60_000;
      out.push({ entityId: 'binary_sensor.front_door', state: 'on', at: t });
      out.push({ entityId: 'binary_sensor.front_door', state: 'off', at: t + 60_000 });
      out.push({ entityId: 'light.hallway', state: 'on', at: t + 30_000 });
      out.push({ entityId: 'light.hallway', state: 'off', at: t + 600_000 });
    });
    const day = h.first + 21;
    const opened = at(day, '15:00');
    const log = eventLogFrom([
      ...h.changes,
      { entityId: 'binary_sensor.front_door', state: 'on', at: opened },
    ]);
    const result = mine(log, { now: opened + 10_000, timeZone: TZ });
    const prediction = result.predictions.find((p) => p.entityId === 'light.hallway');
    expect(prediction).toMatchObject({ state: 'on', basis: { kind: 'sequence' } });
    expect(Date.parse(prediction!.expectedAt)).toBe(opened + 30_000);
  });
});

describe('suggestions', () => {
  const h = history('2025-03-03', 28, (day, k, out) => {
    if (weekdayOf(day) < 5) daily('light.bedroom', '06:45')(day, k, out);
    daily('lock.front_door', '23:00', 'locked', 'unlocked')(day, k, out);
    out.push({ entityId: 'lock.back_door', state: 'unlocked', at: at(day, '07:00') + jitter(k) * 60_000 });
    out.push({ entityId: 'lock.back_door', state: 'locked', at: at(day, '07:00') + (200 + k * 11) * 60_000 });
  });
  const result = mine(eventLogFrom(h.changes), {
    now: h.end,
    timeZone: TZ,
    nameOf: (id) => (id === 'light.bedroom' ? 'Bedroom light' : id),
  });

  it('turns a strong routine into a valid HA automation with a weekday condition, and YAML HA reads the same', () => {
    const suggestion = result.suggestions.find((s) =>
      s.patternId.startsWith('routine:light.bedroom:on:weekday'),
    );
    expect(suggestion).toBeDefined();
    expect(suggestionSchema.parse(suggestion)).toEqual(suggestion);
    expect(suggestion).toMatchObject({ status: 'open', automationId: null, patternKind: 'routine' });
    expect(suggestion!.id).toBe(`suggestion:${suggestion!.patternId}`);
    const config = suggestion!.automation;
    expect(automationConfigSchema.parse(config)).toEqual(config);
    expect(checkAutomationConfig(config)).toEqual(config);
    expect(config.triggers).toEqual([{ trigger: 'time', at: expect.stringMatching(/^06:4\d:00$/) }]);
    expect(config.conditions).toEqual([{ condition: 'time', weekday: ['mon', 'tue', 'wed', 'thu', 'fri'] }]);
    expect(config.actions).toEqual([{ action: 'light.turn_on', target: { entity_id: 'light.bedroom' } }]);
    expect(config.alias).toMatch(/^Bedroom light turns on at 06:4\d on weekdays$/);
    expect(parseAutomationYaml(suggestion!.yaml)).toEqual(config);
    // YAML 1.1 (HA's loader): the time quoted, or it would be a base-60 number.
    expect(suggestion!.yaml).toMatch(/at: "06:4\d:00"/);
  });

  it('suggests locking, never unlocking', () => {
    const lock = result.suggestions.find((s) => s.patternId.startsWith('routine:lock.front_door:locked'));
    expect(lock?.automation.actions).toEqual([
      { action: 'lock.lock', target: { entity_id: 'lock.front_door' } },
    ]);
    expect(result.routines.some((r) => r.entityId === 'lock.back_door' && r.state === 'unlocked')).toBe(true);
    expect(result.suggestions.some((s) => s.patternId.includes('lock.back_door:unlocked'))).toBe(false);
  });

  it('turns a sequence into a state trigger with the state quoted for HA', () => {
    const suggestion = routineSuggestion({
      id: 'routine:switch.fan:on:all:0700',
      entityId: 'switch.fan',
      name: 'Fan',
      state: 'on',
      days: 'all',
      meanTime: '07:00',
      spreadMinutes: 5,
      support: 1,
      confidence: 0.9,
      daysSeen: 20,
      daysObserved: 20,
    });
    expect(suggestion?.automation.conditions).toEqual([]);
    const seq = mine(
      eventLogFrom(
        history('2025-03-03', 21, (day, k, out) => {
          const t = at(day, '10:00') + k * 17 * 60_000;
          out.push({ entityId: 'person.bob', state: 'home', at: t });
          out.push({ entityId: 'person.bob', state: 'not_home', at: t + 3 * 3_600_000 });
          out.push({ entityId: 'switch.kettle', state: 'on', at: t + 90_000 });
          out.push({ entityId: 'switch.kettle', state: 'off', at: t + 600_000 });
        }).changes,
      ),
      { now: Date.UTC(2025, 3, 1), timeZone: TZ },
    ).suggestions.find(
      (s) => s.patternKind === 'sequence' && s.patternId === 'sequence:person.bob:home:switch.kettle:on',
    );
    expect(seq).toBeDefined();
    expect(seq!.automation.triggers).toEqual([{ trigger: 'state', entity_id: 'person.bob', to: 'home' }]);
    expect(seq!.automation.actions).toEqual([
      { action: 'switch.turn_on', target: { entity_id: 'switch.kettle' } },
    ]);
    expect(checkAutomationConfig(seq!.automation)).toEqual(seq!.automation);
    expect(parseAutomationYaml(seq!.yaml)).toEqual(seq!.automation);
  });
});

describe('heatmap', () => {
  it('counts changes by local weekday and hour, optionally to one state', () => {
    // Sunday 30 March 2025 (DST day in Berlin) and Monday 31 March, 07:00 local each.
    const changes: StateChange[] = [
      { entityId: 'light.a', state: 'on', at: Date.UTC(2025, 2, 30, 5, 0) },
      { entityId: 'light.a', state: 'off', at: Date.UTC(2025, 2, 30, 6, 0) },
      { entityId: 'light.a', state: 'on', at: Date.UTC(2025, 2, 31, 5, 0) },
      { entityId: 'light.b', state: 'on', at: Date.UTC(2025, 2, 31, 5, 0) },
    ];
    const log = eventLogFrom(changes);
    const all = heatmapOf(log, 'light.a', { timeZone: TZ });
    expect(all.total).toBe(3);
    expect(all.counts[6]![7]).toBe(1);
    expect(all.counts[6]![8]).toBe(1);
    expect(all.counts[0]![7]).toBe(1);
    const on = heatmapOf(log, 'light.a', { timeZone: TZ, state: 'on', nameOf: () => 'A' });
    expect(on).toMatchObject({ total: 2, state: 'on', name: 'A', timeZone: TZ });
    expect(heatmapOf(log, 'light.none', { timeZone: TZ }).total).toBe(0);
    expect(heatmapOf(log, 'light.a', { timeZone: TZ, state: 'dimmed' }).total).toBe(0);
  });
});
