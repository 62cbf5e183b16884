/**
 * The in-memory form of the stored history that mining reads (issue 16): columns of typed arrays,
 * sorted by entity, then time. A year of a 50-device home (about a million changes) is 16 MB here,
 * where objects per event would be ten times that.
 *
 * The event store (event-store.ts) loads it; the miners (mining/*.ts) only read it.
 */
export interface EventLog {
  /** Dictionary: index → entity id. */
  readonly entityIds: readonly string[];
  /** Dictionary: index → state string. */
  readonly states: readonly string[];
  /** Number of events. */
  readonly length: number;
  /** Per event: index into entityIds. Events are sorted by entity, then by time. */
  readonly entity: Int32Array;
  /** Per event: index into states. */
  readonly state: Int32Array;
  /** Per event: Unix milliseconds. */
  readonly at: Float64Array;
}

/** One state change as it comes from Home Assistant, before it is stored. */
export interface StateChange {
  entityId: string;
  state: string;
  /** Unix milliseconds (HA's last_changed). */
  at: number;
}

/** Builds an EventLog from changes in any order (tests, the generator, the store). */
export function eventLogFrom(changes: readonly StateChange[]): EventLog {
  const entityIndex = new Map<string, number>();
  const stateIndex = new Map<string, number>();
  const entityIds: string[] = [];
  const states: string[] = [];
  const sorted = [...changes].sort((a, b) =>
    a.entityId === b.entityId ? a.at - b.at : a.entityId < b.entityId ? -1 : 1,
  );
  const entity = new Int32Array(sorted.length);
  const state = new Int32Array(sorted.length);
  const at = new Float64Array(sorted.length);
  sorted.forEach((change, i) => {
    let e = entityIndex.get(change.entityId);
    if (e === undefined) {
      e = entityIds.push(change.entityId) - 1;
      entityIndex.set(change.entityId, e);
    }
    let s = stateIndex.get(change.state);
    if (s === undefined) {
      s = states.push(change.state) - 1;
      stateIndex.set(change.state, s);
    }
    entity[i] = e;
    state[i] = s;
    at[i] = change.at;
  });
  return { entityIds, states, length: sorted.length, entity, state, at };
}
