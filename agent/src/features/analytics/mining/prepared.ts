import type { DayKind } from '../../../contract/analytics.js';
import type { EventLog } from '../event-log.js';
import { createClock, isWeekendDay, type LocalClock } from './local-time.js';
import type { MiningOptions } from './types.js';

/**
 * What every miner reads besides the log: each event's local day and minute, which events are real
 * transitions, where each entity's events are, and which days the hub recorded anything at all.
 * Computed once per run in one pass over the columns.
 */
export interface Prepared {
  readonly log: EventLog;
  readonly clock: LocalClock;
  readonly now: number;
  /** Local day of `now`: today's events feed anomalies and predictions, not the statistics. */
  readonly today: number;
  /** Per event: local day number. */
  readonly day: Int32Array;
  /** Per event: minute of the local day. */
  readonly minute: Uint16Array;
  /**
   * Per event: 1 when it is a real change to a state worth mining: a different state than the
   * entity's previous one, neither of them unavailable/unknown (a device coming back is not a person
   * acting), not a measurement (numbers, timestamps), and not after `now`.
   */
  readonly transition: Uint8Array;
  /** Per entity index: its events are [start, end) (the log is sorted by entity, then time). */
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** Days [firstDay, firstDay + hasData.length): 1 where the home recorded any event that day. */
  readonly firstDay: number;
  readonly hasData: Uint8Array;
  /** Past days (before today) with data, by kind. */
  readonly observed: Record<DayKind, number>;
  /** Whether a state index is ignored (unavailable, unknown, numbers, timestamps). */
  readonly ignoredState: Uint8Array;
  /** Entities whose domain is not household behaviour (the sun, the weather…). */
  readonly ignoredEntity: Uint8Array;
  nameOf(entityId: string): string;
}

const IGNORED_STATES = new Set(['unavailable', 'unknown', '']);
const MEASUREMENT = /^-?\d+(\.\d+)?$|^\d{4}-\d{2}-\d{2}[T ]/;
/** Domains that change on their own schedule, not the household's. */
const IGNORED_DOMAINS = new Set(['sun', 'weather', 'update', 'sensor', 'event', 'button', 'input_button']);

export function dayKindOf(day: number): 'weekday' | 'weekend' {
  return isWeekendDay(day) ? 'weekend' : 'weekday';
}

export function matchesKind(day: number, kind: DayKind): boolean {
  return kind === 'all' || dayKindOf(day) === kind;
}

export function domainOf(entityId: string): string {
  const dot = entityId.indexOf('.');
  return dot < 0 ? entityId : entityId.slice(0, dot);
}

export function prepare(log: EventLog, options: MiningOptions): Prepared {
  const clock = createClock(options.timeZone);
  const n = log.length;
  const nEntities = log.entityIds.length;
  const day = new Int32Array(n);
  const minute = new Uint16Array(n);
  const transition = new Uint8Array(n);
  const start = new Int32Array(nEntities).fill(-1);
  const end = new Int32Array(nEntities).fill(-1);

  const ignoredState = new Uint8Array(log.states.length);
  log.states.forEach((s, i) => {
    ignoredState[i] = IGNORED_STATES.has(s) || MEASUREMENT.test(s) ? 1 : 0;
  });
  const ignoredEntity = new Uint8Array(nEntities);
  log.entityIds.forEach((id, i) => {
    ignoredEntity[i] = IGNORED_DOMAINS.has(domainOf(id)) ? 1 : 0;
  });

  const now = options.now;
  const today = clock.dayOf(now);
  let minDay = Infinity;
  let maxDay = -Infinity;
  for (let i = 0; i < n; i++) {
    const at = log.at[i]!;
    const d = clock.dayOf(at);
    day[i] = d;
    minute[i] = clock.minuteOf(at);
    if (at <= now) {
      if (d < minDay) minDay = d;
      if (d > maxDay) maxDay = d;
    }
    const e = log.entity[i]!;
    if (start[e] === -1) start[e] = i;
    else if (end[e] !== i) throw new Error('The event log is not sorted by entity');
    end[e] = i + 1;
    const s = log.state[i]!;
    if (i === start[e] || at > now || ignoredState[s] || ignoredEntity[e]) continue;
    const prev = log.state[i - 1]!;
    transition[i] = prev !== s && !ignoredState[prev] ? 1 : 0;
  }
  for (let e = 0; e < nEntities; e++) if (start[e] === -1) start[e] = end[e] = 0;

  const firstDay = Number.isFinite(minDay) ? minDay : today;
  const span = Number.isFinite(maxDay) ? maxDay - firstDay + 1 : 0;
  const hasData = new Uint8Array(Math.max(0, span));
  for (let i = 0; i < n; i++) {
    const d = day[i]! - firstDay;
    if (d >= 0 && d < span) hasData[d] = 1;
  }
  const observed = { weekday: 0, weekend: 0, all: 0 };
  for (let d = 0; d < span; d++) {
    if (!hasData[d] || firstDay + d >= today) continue;
    observed[dayKindOf(firstDay + d)]++;
    observed.all++;
  }

  const names = options.nameOf;
  return {
    log,
    clock,
    now,
    today,
    day,
    minute,
    transition,
    start,
    end,
    firstDay,
    hasData,
    observed,
    ignoredState,
    ignoredEntity,
    nameOf: (id) => names?.(id) ?? id,
  };
}

/** Whether the home recorded anything on a local day. */
export function hadData(p: Prepared, day: number): boolean {
  const d = day - p.firstDay;
  return d >= 0 && d < p.hasData.length && p.hasData[d] === 1;
}

/** First event index of entity `e` at or after `from` (binary search in its time-sorted run). */
export function firstAtOrAfter(p: Prepared, e: number, from: number): number {
  let lo = p.start[e]!;
  let hi = p.end[e]!;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (p.log.at[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Transitions of entity `e` to state `s` with from <= at <= to, oldest first. */
export function transitionsIn(p: Prepared, e: number, s: number, from: number, to: number): number[] {
  const found: number[] = [];
  for (let i = firstAtOrAfter(p, e, from); i < p.end[e]! && p.log.at[i]! <= to; i++) {
    if (p.transition[i] && p.log.state[i] === s) found.push(i);
  }
  return found;
}
