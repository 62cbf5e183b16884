import type Database from 'better-sqlite3';
import type { Db } from '../../db/client.js';
import type { EventLog, StateChange } from './event-log.js';

/**
 * The behavioural-analytics event store (issue 16): Home Assistant's state changes in SQLite, an
 * event being three integers (entity, at, state) with entity ids and state strings kept once each
 * in dictionaries. (entity, at) is the key, so a change seen live and again by a backfill is
 * stored once (INSERT OR IGNORE). Raw better-sqlite3 statements: a backfill writes tens of
 * thousands of rows and a load reads a million, where drizzle's row objects would cost more than
 * the work.
 */
export function createEventStore(db: Db) {
  // drizzle's better-sqlite3 driver keeps the connection it wraps here.
  const sqlite = (db as Db & { $client: Database.Database }).$client;

  const insertEntity = sqlite.prepare('INSERT OR IGNORE INTO analytics_entities (entity_id) VALUES (?)');
  const selectEntity = sqlite.prepare('SELECT id FROM analytics_entities WHERE entity_id = ?').pluck();
  const insertState = sqlite.prepare('INSERT OR IGNORE INTO analytics_states (value) VALUES (?)');
  const selectState = sqlite.prepare('SELECT id FROM analytics_states WHERE value = ?').pluck();
  const insertEvent = sqlite.prepare(
    'INSERT OR IGNORE INTO analytics_events (entity, at, state) VALUES (?, ?, ?)',
  );

  // The dictionaries are small (hundreds of entities, a few dozen states) and read per event.
  const entityIds = new Map<string, number>();
  const stateIds = new Map<string, number>();

  function entityKey(entityId: string): number {
    let id = entityIds.get(entityId);
    if (id === undefined) {
      insertEntity.run(entityId);
      id = selectEntity.get(entityId) as number;
      entityIds.set(entityId, id);
    }
    return id;
  }

  function stateKey(value: string): number {
    let id = stateIds.get(value);
    if (id === undefined) {
      insertState.run(value);
      id = selectState.get(value) as number;
      stateIds.set(value, id);
    }
    return id;
  }

  const ingestBatch = sqlite.transaction((changes: readonly StateChange[]) => {
    let stored = 0;
    for (const change of changes) {
      stored += insertEvent.run(
        entityKey(change.entityId),
        Math.round(change.at),
        stateKey(change.state),
      ).changes;
    }
    return stored;
  });

  const deleteAll = sqlite.transaction(() => {
    const deleted = sqlite.prepare('DELETE FROM analytics_events').run().changes;
    // The dictionaries go too: "delete my history" leaves no list of the home's entities behind.
    sqlite.prepare('DELETE FROM analytics_entities').run();
    sqlite.prepare('DELETE FROM analytics_states').run();
    entityIds.clear();
    stateIds.clear();
    return deleted;
  });

  const deleteEntity = sqlite.transaction((entityId: string) => {
    const id = selectEntity.get(entityId) as number | undefined;
    if (id === undefined) return 0;
    const deleted = sqlite.prepare('DELETE FROM analytics_events WHERE entity = ?').run(id).changes;
    sqlite.prepare('DELETE FROM analytics_entities WHERE id = ?').run(id);
    entityIds.delete(entityId);
    return deleted;
  });

  /** Whether SQLite was built with the dbstat virtual table (bytes per table); checked once. */
  let dbstat: boolean | null = null;
  function bytes(): number | null {
    if (dbstat === false) return null;
    try {
      const value = sqlite
        .prepare(
          `SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name IN
           ('analytics_events', 'analytics_events_at', 'analytics_entities', 'analytics_states',
            'analytics_entities_entity_id_unique', 'analytics_states_value_unique')`,
        )
        .pluck()
        .get() as number;
      dbstat = true;
      return value;
    } catch {
      dbstat = false;
      return null;
    }
  }

  return {
    /** Stores changes in one transaction; answers how many were new (duplicates are ignored). */
    ingest(changes: readonly StateChange[]): number {
      if (!changes.length) return 0;
      return ingestBatch(changes);
    },

    /**
     * The stored history as an EventLog, sorted by entity, then time: the primary key's order, so
     * SQLite reads the table front to back with no sort. Rows are read as arrays straight into
     * typed arrays; no object per event is kept.
     */
    load(options: { since?: number; entityId?: string } = {}): EventLog {
      const since = options.since ?? -Infinity;
      const only = options.entityId
        ? ((selectEntity.get(options.entityId) as number | undefined) ?? -1)
        : null;
      const count = (
        only !== null
          ? sqlite
              .prepare('SELECT COUNT(*) FROM analytics_events WHERE entity = ? AND at >= ?')
              .pluck()
              .get(only, Number.isFinite(since) ? since : -1e15)
          : Number.isFinite(since)
            ? sqlite.prepare('SELECT COUNT(*) FROM analytics_events WHERE at >= ?').pluck().get(since)
            : sqlite.prepare('SELECT COUNT(*) FROM analytics_events').pluck().get()
      ) as number;
      // Dictionary ids are sparse (deleted entities leave gaps); the log's are dense indexes.
      const entityRows = sqlite
        .prepare('SELECT id, entity_id FROM analytics_entities ORDER BY id')
        .raw()
        .all() as [number, string][];
      const stateRows = sqlite.prepare('SELECT id, value FROM analytics_states ORDER BY id').raw().all() as [
        number,
        string,
      ][];
      const entityIndex = new Map<number, number>();
      const stateIndex = new Map<number, number>();
      const entityNames: string[] = [];
      const stateNames: string[] = [];
      for (const [id, name] of entityRows) entityIndex.set(id, entityNames.push(name) - 1);
      for (const [id, value] of stateRows) stateIndex.set(id, stateNames.push(value) - 1);

      // Sorted by the entity id string (as eventLogFrom sorts), not by dictionary id.
      const byName = entityRows
        .filter(([id]) => only === null || id === only)
        .sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
      const entity = new Int32Array(count);
      const state = new Int32Array(count);
      const at = new Float64Array(count);
      let i = 0;
      const read = Number.isFinite(since)
        ? sqlite.prepare('SELECT at, state FROM analytics_events WHERE entity = ? AND at >= ? ORDER BY at')
        : sqlite.prepare('SELECT at, state FROM analytics_events WHERE entity = ? ORDER BY at');
      read.raw();
      for (const [id] of byName) {
        const e = entityIndex.get(id)!;
        const rows = Number.isFinite(since) ? read.iterate(id, since) : read.iterate(id);
        for (const row of rows as Iterable<[number, number]>) {
          if (i >= count) break; // a concurrent write after the count: the next load has it
          entity[i] = e;
          at[i] = row[0];
          state[i] = stateIndex.get(row[1]) ?? 0;
          i++;
        }
      }
      return {
        entityIds: entityNames,
        states: stateNames,
        length: i,
        entity: i === count ? entity : entity.subarray(0, i),
        state: i === count ? state : state.subarray(0, i),
        at: i === count ? at : at.subarray(0, i),
      };
    },

    /** One entity's (or every entity's) changes in [from, to), oldest first. */
    range(from: number, to: number, entityId?: string): StateChange[] {
      const sql = `SELECT e.entity_id, v.at, s.value FROM analytics_events v
        JOIN analytics_entities e ON e.id = v.entity JOIN analytics_states s ON s.id = v.state
        WHERE v.at >= ? AND v.at < ?${entityId ? ' AND e.entity_id = ?' : ''} ORDER BY v.at`;
      const rows = sqlite
        .prepare(sql)
        .raw()
        .all(...(entityId ? [from, to, entityId] : [from, to])) as [string, number, string][];
      return rows.map(([id, time, value]) => ({ entityId: id, at: time, state: value }));
    },

    /** The last change of each entity before `at` (the state in effect then). */
    statesAt(at: number, entityId?: string): StateChange[] {
      const sql = `SELECT e.entity_id, v.at, s.value FROM analytics_entities e
        JOIN analytics_events v ON v.entity = e.id AND v.at = (
          SELECT MAX(at) FROM analytics_events WHERE entity = e.id AND at < ?)
        JOIN analytics_states s ON s.id = v.state${entityId ? ' WHERE e.entity_id = ?' : ''}`;
      const rows = sqlite
        .prepare(sql)
        .raw()
        .all(...(entityId ? [at, entityId] : [at])) as [string, number, string][];
      return rows.map(([id, time, value]) => ({ entityId: id, at: time, state: value }));
    },

    status(): {
      events: number;
      entities: number;
      oldest: number | null;
      newest: number | null;
      bytes: number | null;
    } {
      const row = sqlite
        .prepare('SELECT COUNT(*), MIN(at), MAX(at), COUNT(DISTINCT entity) FROM analytics_events')
        .raw()
        .get() as [number, number | null, number | null, number];
      return { events: row[0], oldest: row[1], newest: row[2], entities: row[3], bytes: bytes() };
    },

    /** Deletes one entity's history (and its dictionary entry), or all of it; answers the count. */
    deleteHistory(entityId?: string): number {
      return entityId ? deleteEntity(entityId) : deleteAll();
    },

    /** Deletes changes older than `cutoffMs`; answers the count. */
    prune(cutoffMs: number): number {
      return sqlite.prepare('DELETE FROM analytics_events WHERE at < ?').run(cutoffMs).changes;
    },
  };
}

export type EventStore = ReturnType<typeof createEventStore>;
