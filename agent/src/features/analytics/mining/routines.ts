import type { DayKind, Routine } from '../../../contract/analytics.js';
import { circularDelta, circularStats, formatMinute, MINUTES_PER_DAY } from './local-time.js';
import { dayKindOf, hadData, type Prepared } from './prepared.js';

/**
 * Routines: an entity reaching a state at a usual time of day (issue 16).
 *
 * Per entity and state, over past days only (today is not over):
 * 1. The usual times: peaks of a circular kernel density of the times of day (a histogram of the
 *    1,440 minutes smoothed by three circular box passes, close to a Gaussian of σ ≈ 10 min), found
 *    separately for weekdays and weekends; peaks closer than WINDOW to a higher one are the same time.
 * 2. Per peak and per day, the occurrence nearest the peak within ±WINDOW; their circular mean is
 *    the routine's time (the peak is moved there and the days collected again once), their circular
 *    standard deviation its spread.
 * 3. Support = days seen / days observed of that kind, where observed days are the days the log
 *    covers minus days the home recorded nothing at all (the hub was off: not the routine's fault).
 * 4. Not chance: an entity that changes fifteen times a day is near any time on most days. With
 *    λ its changes to that state per observed day, chance puts one within ±h of a time on
 *    1 − exp(−λ · 2h / 1440) of the days (h = 2.5 × spread, at least 10 min); a routine must be
 *    seen within ±h at least MIN_LIFT times as often as that.
 * 5. A weekday and a weekend routine at nearly the same time and support (within three standard
 *    errors of each other) are one 'all' routine; otherwise they stay split (a light on at 07:00
 *    on weekdays, at 09:00 at weekends).
 */

/** Occurrences further than this from the usual time are not that routine (minutes). */
export const ROUTINE_WINDOW = 60;
/** Reported when seen on at least half of the observed days… */
export const MIN_SUPPORT = 0.5;
/** …on at least this many days… */
export const MIN_DAYS_SEEN = 4;
/**
 * …within this circular standard deviation (minutes). Occurrences spread evenly over the ±60 min
 * window have 35 min: a spread near that says nothing is concentrated at the time.
 */
export const MAX_SPREAD = 20;
/** …and at least this many times as often as chance would put it there. */
export const MIN_LIFT = 3;
/** Weekday and weekend times closer than this (minutes) with similar support are one routine. */
const SAME_TIME = 30;
/** Weaker candidates are kept only to decide whether a weekday and a weekend routine are one. */
const CANDIDATE_SUPPORT = 0.25;
const MAX_PEAKS = 6;
const BOX_HALF_WIDTH = 10;

/**
 * Confidence, 0–1: support × tightness × sample.
 * - tightness = exp(-½ (spread / 45 min)²): 1 for a routine to the minute, 0.9 at ±20 min, 0.8 at ±30;
 * - sample = 1 − exp(−daysObserved / 7): a week of history gives 0.63, two weeks 0.86, a month 0.99.
 * Every factor can be checked from the numbers shown next to it.
 */
export function routineConfidence(support: number, spreadMinutes: number, daysObserved: number): number {
  const tightness = Math.exp(-0.5 * (spreadMinutes / 45) ** 2);
  const sample = 1 - Math.exp(-daysObserved / 7);
  return clamp01(support * tightness * sample);
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

interface Stats {
  kind: DayKind;
  mean: number;
  spread: number;
  daysSeen: number;
  daysObserved: number;
  support: number;
  /** Days seen within ±h of the mean (h = 2.5 × spread, ≥ 10 min) / observed, over chance. */
  lift: number;
}

/** Circular smoothing: three passes of a box filter (prefix sums) over the 1,440 minutes. */
function smooth(histogram: Float64Array): Float64Array {
  let current = histogram;
  const width = 2 * BOX_HALF_WIDTH + 1;
  for (let pass = 0; pass < 3; pass++) {
    const next = new Float64Array(MINUTES_PER_DAY);
    let sum = 0;
    for (let k = -BOX_HALF_WIDTH; k <= BOX_HALF_WIDTH; k++) {
      sum += current[(k + MINUTES_PER_DAY) % MINUTES_PER_DAY]!;
    }
    for (let m = 0; m < MINUTES_PER_DAY; m++) {
      next[m] = sum / width;
      sum += current[(m + BOX_HALF_WIDTH + 1) % MINUTES_PER_DAY]!;
      sum -= current[(m - BOX_HALF_WIDTH + MINUTES_PER_DAY) % MINUTES_PER_DAY]!;
    }
    current = next;
  }
  return current;
}

/** Local maxima of the density, highest first, none within ROUTINE_WINDOW of a higher one. */
function peaks(density: Float64Array): number[] {
  const found: number[] = [];
  for (let m = 0; m < MINUTES_PER_DAY; m++) {
    const v = density[m]!;
    if (v <= 1e-9) continue;
    const before = density[(m + MINUTES_PER_DAY - 1) % MINUTES_PER_DAY]!;
    const after = density[(m + 1) % MINUTES_PER_DAY]!;
    if (v > before && v >= after) found.push(m);
  }
  found.sort((a, b) => density[b]! - density[a]! || a - b);
  const kept: number[] = [];
  for (const m of found) {
    if (kept.every((k) => Math.abs(circularDelta(m, k)) > ROUTINE_WINDOW)) kept.push(m);
    if (kept.length === MAX_PEAKS) break;
  }
  return kept;
}

/** Scratch space for one run: the best distance per day, stamped so it needs no clearing. */
class DayBest {
  private readonly best: Float64Array;
  private readonly stamp: Int32Array;
  private current = 0;
  readonly touched: number[] = [];
  constructor(size: number) {
    this.best = new Float64Array(size);
    this.stamp = new Int32Array(size);
  }
  reset(): void {
    this.current++;
    this.touched.length = 0;
  }
  offer(slot: number, delta: number): void {
    if (this.stamp[slot] !== this.current) {
      this.stamp[slot] = this.current;
      this.best[slot] = delta;
      this.touched.push(slot);
    } else if (Math.abs(delta) < Math.abs(this.best[slot]!)) {
      this.best[slot] = delta;
    }
  }
  deltaAt(slot: number): number {
    return this.best[slot]!;
  }
}

/** Per day of the kind, the occurrence nearest `center` within the window; their statistics. */
function statsAround(
  p: Prepared,
  events: readonly number[],
  center: number,
  kind: DayKind,
  scratch: DayBest,
): Stats | null {
  scratch.reset();
  for (const i of events) {
    const minute = p.minute[i]!;
    const delta = circularDelta(minute, center);
    if (Math.abs(delta) > ROUTINE_WINDOW) continue;
    // The day the occurrence belongs to: 00:05 near a 23:50 routine is the evening before's.
    const day = p.day[i]! + Math.round((minute - delta - center) / MINUTES_PER_DAY);
    if (day >= p.today || !hadData(p, day)) continue;
    if (kind !== 'all' && dayKindOf(day) !== kind) continue;
    scratch.offer(day - p.firstDay, delta);
  }
  const daysSeen = scratch.touched.length;
  const daysObserved = p.observed[kind];
  if (daysSeen === 0 || daysObserved === 0) return null;
  const times = scratch.touched.map((slot) => center + scratch.deltaAt(slot));
  const { mean, spread } = circularStats(times);
  const h = Math.max(10, 2.5 * spread);
  const within = times.filter((t) => Math.abs(circularDelta(t, mean)) <= h).length;
  const rate = perDay(p, events, kind);
  const chance = 1 - Math.exp((-rate * 2 * h) / MINUTES_PER_DAY);
  const lift = chance > 0 ? within / daysObserved / chance : Infinity;
  return { kind, mean, spread, daysSeen, daysObserved, support: Math.min(1, daysSeen / daysObserved), lift };
}

/** Changes per observed day of the kind. */
function perDay(p: Prepared, events: readonly number[], kind: DayKind): number {
  let n = 0;
  for (const i of events) {
    if (hadData(p, p.day[i]!) && (kind === 'all' || dayKindOf(p.day[i]!) === kind)) n++;
  }
  return n / Math.max(1, p.observed[kind]);
}

/** Stats at a peak, then once more centred on their mean (a peak of the density is only near it). */
function refined(p: Prepared, events: readonly number[], peak: number, kind: DayKind, scratch: DayBest) {
  const first = statsAround(p, events, peak, kind, scratch);
  if (!first) return null;
  return statsAround(p, events, Math.round(first.mean) % MINUTES_PER_DAY, kind, scratch) ?? first;
}

function qualifies(s: Stats): boolean {
  return (
    s.support >= MIN_SUPPORT && s.daysSeen >= MIN_DAYS_SEEN && s.spread <= MAX_SPREAD && s.lift >= MIN_LIFT
  );
}

/** Whether weekday and weekend support differ by more than chance (three standard errors, ≥ 0.2). */
function sameSupport(a: Stats, b: Stats): boolean {
  const pooled = (a.daysSeen + b.daysSeen) / (a.daysObserved + b.daysObserved);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.daysObserved + 1 / b.daysObserved));
  return Math.abs(a.support - b.support) <= Math.max(0.2, 3 * se);
}

/** Mines the routines of every entity; ordered by time of day, then entity, state and days. */
export function mineRoutines(p: Prepared): Routine[] {
  const { log } = p;
  const scratch = new DayBest(p.hasData.length + 2);
  const routines: Routine[] = [];
  const usedIds = new Set<string>();

  for (let e = 0; e < log.entityIds.length; e++) {
    if (p.ignoredEntity[e]) continue;
    // Past transitions of this entity, by state.
    const byState = new Map<number, number[]>();
    for (let i = p.start[e]!; i < p.end[e]!; i++) {
      if (!p.transition[i] || p.day[i]! >= p.today) continue;
      const s = log.state[i]!;
      const list = byState.get(s);
      if (list) list.push(i);
      else byState.set(s, [i]);
    }
    const entityId = log.entityIds[e]!;
    for (const [s, events] of [...byState].sort((a, b) => a[0] - b[0])) {
      if (events.length < MIN_DAYS_SEEN) continue;
      const candidates: Record<'weekday' | 'weekend', Stats[]> = { weekday: [], weekend: [] };
      for (const kind of ['weekday', 'weekend'] as const) {
        if (p.observed[kind] === 0) continue;
        const histogram = new Float64Array(MINUTES_PER_DAY);
        for (const i of events) if (dayKindOf(p.day[i]!) === kind) histogram[p.minute[i]!]!++;
        for (const peak of peaks(smooth(histogram))) {
          const stats = refined(p, events, peak, kind, scratch);
          if (!stats || stats.support < CANDIDATE_SUPPORT) continue;
          // Two peaks refined onto the same time are one.
          if (
            candidates[kind].some((c) => Math.abs(circularDelta(c.mean, stats.mean)) <= ROUTINE_WINDOW / 2)
          ) {
            continue;
          }
          candidates[kind].push(stats);
        }
      }

      const found: Stats[] = [];
      const weekendUsed = new Set<Stats>();
      const weekdays = [...candidates.weekday].sort((a, b) => b.support - a.support || a.mean - b.mean);
      for (const wd of weekdays) {
        const we = candidates.weekend.find(
          (c) =>
            !weekendUsed.has(c) &&
            Math.abs(circularDelta(c.mean, wd.mean)) <= SAME_TIME &&
            sameSupport(c, wd),
        );
        if (we) {
          const center = Math.round(circularStats([wd.mean, we.mean]).mean) % MINUTES_PER_DAY;
          const all = refined(p, events, center, 'all', scratch);
          if (all && qualifies(all)) {
            weekendUsed.add(we);
            found.push(all);
            continue;
          }
        }
        if (qualifies(wd)) found.push(wd);
      }
      for (const we of candidates.weekend) if (!weekendUsed.has(we) && qualifies(we)) found.push(we);

      const state = log.states[s]!;
      for (const stats of found) {
        const meanTime = formatMinute(stats.mean);
        // The id's time is the nearest whole hour: stable while the mean drifts by minutes.
        const hour = Math.round(stats.mean / 60) % 24;
        let id = `routine:${entityId}:${state}:${stats.kind}:${String(hour).padStart(2, '0')}00`;
        for (let k = 2; usedIds.has(id); k++) id = `${id.replace(/#\d+$/, '')}#${k}`;
        usedIds.add(id);
        const spreadMinutes = Math.round(stats.spread * 10) / 10;
        routines.push({
          id,
          entityId,
          name: p.nameOf(entityId),
          state,
          days: stats.kind,
          meanTime,
          spreadMinutes,
          support: Math.round(stats.support * 1000) / 1000,
          confidence:
            Math.round(routineConfidence(stats.support, stats.spread, stats.daysObserved) * 1000) / 1000,
          daysSeen: stats.daysSeen,
          daysObserved: stats.daysObserved,
        });
      }
    }
  }
  const kindOrder: Record<DayKind, number> = { all: 0, weekday: 1, weekend: 2 };
  return routines.sort(
    (a, b) =>
      a.meanTime.localeCompare(b.meanTime) ||
      (a.entityId < b.entityId ? -1 : a.entityId > b.entityId ? 1 : 0) ||
      (a.state < b.state ? -1 : a.state > b.state ? 1 : 0) ||
      kindOrder[a.days] - kindOrder[b.days],
  );
}

/** The minute of the day a routine's "HH:MM" stands for. */
export function routineMinute(routine: Routine): number {
  const [h, m] = routine.meanTime.split(':').map(Number);
  return h! * 60 + m!;
}
