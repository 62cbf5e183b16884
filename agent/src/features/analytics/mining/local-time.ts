/**
 * Local time for mining (issue 16): times of day and weekdays in Home Assistant's IANA zone,
 * DST-correct, fast enough for a million events.
 *
 * Formatting every event with Intl is far too slow (microseconds each), so the zone's UTC offset is
 * computed once per UTC hour and cached: offsets change at most a few times a year, and (in every
 * zone in use today but Lord Howe's half-hour DST) only on whole UTC hours.
 *
 * A "day" is a local calendar day, numbered as days since 1970-01-01 in local time; minutes are
 * minutes since local midnight (0–1439).
 */

export const MINUTES_PER_DAY = 1440;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export interface LocalClock {
  readonly timeZone: string;
  /** The zone's offset from UTC at this instant, ms (Berlin in summer: +7,200,000). */
  offsetAt(ms: number): number;
  /** Local day number of an instant. */
  dayOf(ms: number): number;
  /** Minute of the local day of an instant, 0–1439. */
  minuteOf(ms: number): number;
  /** The instant a local day and minute fall on (in a spring-forward gap: the same wall time after it). */
  utcOf(day: number, minute: number): number;
}

/** Monday = 0 … Sunday = 6 for a local day number (1970-01-01 was a Thursday). */
export function weekdayOf(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

export function isWeekendDay(day: number): boolean {
  return weekdayOf(day) >= 5;
}

/** "HH:MM" for a minute of the day (wrapped into 0–1439). */
export function formatMinute(minute: number): string {
  const m = ((Math.round(minute) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** "YYYY-MM-DD" of a local day number. */
export function formatDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Throws a RangeError for a zone Intl does not know. */
export function createClock(timeZone: string): LocalClock {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const cache = new Map<number, number>();
  let lastHour = Number.NaN;
  let lastOffset = 0;

  function compute(hourStart: number): number {
    const parts: Record<string, number> = {};
    for (const part of format.formatToParts(new Date(hourStart))) {
      if (part.type !== 'literal') parts[part.type] = Number(part.value);
    }
    const wall = Date.UTC(
      parts.year!,
      parts.month! - 1,
      parts.day!,
      parts.hour!,
      parts.minute!,
      parts.second!,
    );
    return wall - hourStart;
  }

  function offsetAt(ms: number): number {
    const hour = Math.floor(ms / HOUR_MS);
    // Consecutive lookups are mostly in the same hour (events of one entity in time order).
    if (hour === lastHour) return lastOffset;
    let offset = cache.get(hour);
    if (offset === undefined) {
      offset = compute(hour * HOUR_MS);
      cache.set(hour, offset);
    }
    lastHour = hour;
    lastOffset = offset;
    return offset;
  }

  return {
    timeZone,
    offsetAt,
    dayOf: (ms) => Math.floor((ms + offsetAt(ms)) / DAY_MS),
    minuteOf: (ms) => {
      const local = ms + offsetAt(ms);
      return Math.floor((local - Math.floor(local / DAY_MS) * DAY_MS) / MINUTE_MS);
    },
    utcOf: (day, minute) => {
      const wall = day * DAY_MS + minute * MINUTE_MS;
      // Two steps: the offset near the wall time, then the offset at the instant that gives.
      const guess = wall - offsetAt(wall);
      return wall - offsetAt(guess);
    },
  };
}

// ---- Circular statistics over the 1,440 minutes of a day ------------------------------------

const TAU = 2 * Math.PI;

/** Circular mean (minutes, 0–1439.x) and circular standard deviation (minutes) of times of day. */
export function circularStats(minutes: ArrayLike<number>): { mean: number; spread: number; r: number } {
  let sin = 0;
  let cos = 0;
  for (let i = 0; i < minutes.length; i++) {
    const angle = (minutes[i]! / MINUTES_PER_DAY) * TAU;
    sin += Math.sin(angle);
    cos += Math.cos(angle);
  }
  const n = minutes.length;
  if (n === 0) return { mean: 0, spread: 0, r: 0 };
  let mean = (Math.atan2(sin, cos) / TAU) * MINUTES_PER_DAY;
  if (mean < 0) mean += MINUTES_PER_DAY;
  const r = Math.min(1, Math.hypot(sin, cos) / n);
  // sqrt(-2 ln R): the circular standard deviation, in radians, then minutes.
  const spread = r >= 1 ? 0 : (Math.sqrt(-2 * Math.log(r)) / TAU) * MINUTES_PER_DAY;
  return { mean, spread, r };
}

/** Signed distance from b to a on the clock face, minutes in [-720, 720). */
export function circularDelta(a: number, b: number): number {
  return ((((a - b + 720) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY) - 720;
}
