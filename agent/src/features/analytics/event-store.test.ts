import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/client.js';
import { zonedMidnight } from './analytics.service.js';
import { eventLogFrom, type StateChange } from './event-log.js';
import { createEventStore, type EventStore } from './event-store.js';
import { isMeasurement } from './recorder.js';

let dir: string;
let handle: DbHandle;
let store: EventStore;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nexus-analytics-'));
  handle = openDatabase(dir);
  store = createEventStore(handle.db);
});
afterEach(() => {
  handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const changes: StateChange[] = [
  { entityId: 'light.b', state: 'on', at: 3_000 },
  { entityId: 'light.a', state: 'off', at: 2_000 },
  { entityId: 'light.b', state: 'off', at: 1_000 },
  { entityId: 'lock.front', state: 'locked', at: 5_000 },
  { entityId: 'light.a', state: 'on', at: 4_000 },
];

describe('the analytics event store', () => {
  it('stores a change once, however often it is ingested (live and backfill meet)', () => {
    expect(store.ingest(changes)).toBe(5);
    expect(store.ingest(changes)).toBe(0);
    expect(store.ingest([{ entityId: 'light.a', state: 'on', at: 4_000 }])).toBe(0);
    expect(store.status()).toMatchObject({ events: 5, entities: 3, oldest: 1_000, newest: 5_000 });
  });

  it('loads the same log eventLogFrom builds: sorted by entity, then time', () => {
    store.ingest(changes);
    const log = store.load();
    const expected = eventLogFrom(changes);
    const view = (l: typeof log) =>
      Array.from({ length: l.length }, (_, i) => [l.entityIds[l.entity[i]!], l.states[l.state[i]!], l.at[i]]);
    expect(view(log)).toEqual(view(expected));
    expect(log.entity).toBeInstanceOf(Int32Array);
    expect(log.at).toBeInstanceOf(Float64Array);
  });

  it('loads since a time, or one entity', () => {
    store.ingest(changes);
    expect(Array.from(store.load({ since: 3_000 }).at)).toEqual([4_000, 3_000, 5_000]);
    const one = store.load({ entityId: 'light.b' });
    expect(one.length).toBe(2);
    expect(one.entityIds[one.entity[0]!]).toBe('light.b');
    expect(store.load({ entityId: 'light.unknown' }).length).toBe(0);
  });

  it('prunes by time and deletes one entity or all of it', () => {
    store.ingest(changes);
    expect(store.prune(2_500)).toBe(2);
    expect(store.deleteHistory('lock.front')).toBe(1);
    expect(store.deleteHistory('lock.front')).toBe(0);
    expect(store.status().events).toBe(2);
    expect(store.deleteHistory()).toBe(2);
    expect(store.status()).toMatchObject({ events: 0, entities: 0, oldest: null });
    // The dictionaries refill after a delete.
    expect(store.ingest(changes)).toBe(5);
  });

  it('answers the state in effect at a time and a range', () => {
    store.ingest(changes);
    expect(store.statesAt(3_500).sort((a, b) => a.entityId.localeCompare(b.entityId))).toEqual([
      { entityId: 'light.a', state: 'off', at: 2_000 },
      { entityId: 'light.b', state: 'on', at: 3_000 },
    ]);
    expect(store.range(2_000, 4_000).map((c) => c.at)).toEqual([2_000, 3_000]);
  });

  it('reports its size when SQLite can (dbstat), else null', () => {
    store.ingest(changes);
    const bytes = store.status().bytes;
    expect(bytes === null || bytes > 0).toBe(true);
  });
});

describe('what is not behaviour', () => {
  it('a numeric sensor with a unit or state class is a measurement', () => {
    expect(isMeasurement('sensor.t', '21.5', { unit_of_measurement: '°C' })).toBe(true);
    expect(isMeasurement('sensor.e', '12', { state_class: 'total_increasing' })).toBe(true);
    expect(isMeasurement('sensor.t', 'high', { unit_of_measurement: '°C' })).toBe(false);
    expect(isMeasurement('sensor.phase', '3', {})).toBe(false);
    expect(isMeasurement('light.a', '1', { unit_of_measurement: '%' })).toBe(false);
  });
});

describe('dates in HA time zone', () => {
  it('finds midnight across the DST change', () => {
    expect(new Date(zonedMidnight('2026-01-15', 'Europe/Amsterdam')).toISOString()).toBe(
      '2026-01-14T23:00:00.000Z',
    );
    expect(new Date(zonedMidnight('2026-07-15', 'Europe/Amsterdam')).toISOString()).toBe(
      '2026-07-14T22:00:00.000Z',
    );
    expect(new Date(zonedMidnight('2026-03-29', 'Europe/Amsterdam')).toISOString()).toBe(
      '2026-03-28T23:00:00.000Z',
    );
    expect(new Date(zonedMidnight('2026-07-15', 'America/New_York')).toISOString()).toBe(
      '2026-07-15T04:00:00.000Z',
    );
    expect(() => zonedMidnight('2026-02-30', 'UTC')).toThrow(/calendar date/);
  });
});
