import type { AnalyticsStatus, DayKind, Heatmap, Routine, Timeline } from '@nexus/agent/contract';

/**
 * The Behavioral Intelligence screen's pure logic: wording, scales and the timeline's geometry,
 * kept apart from React so vitest checks it without a browser.
 */

/** Days of history before routines can show: a week sees each weekday once. */
export const MIN_PATTERN_DAYS = 7;
/** Weekday and weekend routines are told apart only with two of each kind of day. */
export const SPLIT_PATTERN_DAYS = 14;

/** Which section each of the screen's paths (spec §2) opens on. */
export type AnalyticsSection = 'routines' | 'patterns' | 'predictions' | 'settings';
const SECTION_BY_PATH: Record<string, AnalyticsSection> = {
  '/behavioral-analytics': 'routines',
  '/pattern-analysis': 'patterns',
  '/ha-pattern-predictor': 'predictions',
};
export function sectionForPath(path: string, isAdmin: boolean, hash = ''): AnalyticsSection {
  // #settings deep-links to the admin section (members fall back to the path's own section).
  if (hash === '#settings' && isAdmin) return 'settings';
  return SECTION_BY_PATH[path] ?? 'routines';
}

/** Monday first, as the heatmap's counts are. */
export const WEEKDAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;
export const WEEKDAYS_SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

export const DAY_KIND_WORDS: Record<DayKind, string> = {
  weekday: 'Weekdays',
  weekend: 'Weekends',
  all: 'Every day',
};

export const percent = (share: number) => `${Math.round(Math.min(1, Math.max(0, share)) * 100)} %`;

/** "seen on 38 of 40 days" (the kind of day the routine is about). */
export function supportWords(routine: Pick<Routine, 'daysSeen' | 'daysObserved' | 'days'>): string {
  const kind = routine.days === 'all' ? 'days' : routine.days === 'weekday' ? 'weekdays' : 'weekend days';
  return `seen on ${routine.daysSeen} of ${routine.daysObserved} ${kind}`;
}

/** "± 12 min", "± 1 h 5 min". */
export function spreadWords(minutes: number): string {
  return `± ${durationWords(Math.round(minutes) * 60)}`;
}

/** A short duration: "45 s", "3 min", "1 h 5 min", "2 h". */
export function durationWords(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}

/** Lift to one decimal with its meaning: "×3.2". */
export const liftWords = (lift: number) => `×${lift >= 10 ? Math.round(lift) : lift.toFixed(1)}`;

/** The hour and minute of an instant in Home Assistant's time zone, "HH:MM". */
export function clockIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: safeZone(timeZone),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/** Minutes since midnight of an instant in a time zone. */
export function minutesOfDay(iso: string | number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: safeZone(timeZone),
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get('hour') * 60 + get('minute') + get('second') / 60;
}

/** Today's date in a time zone, YYYY-MM-DD (the timeline's default day). */
export function dateIn(now: number, timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: safeZone(timeZone),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(now));
}

/** An unknown zone (HA not read yet) falls back to the browser's, rather than throwing. */
function safeZone(timeZone: string): string | undefined {
  if (!timeZone) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return undefined;
  }
}

// ---- History header ------------------------------------------------------------------------

/** Whole days between the oldest and the newest stored change. */
export function historyDays(status: Pick<AnalyticsStatus, 'oldest' | 'newest'>): number {
  if (!status.oldest || !status.newest) return 0;
  return Math.max(0, Math.floor((Date.parse(status.newest) - Date.parse(status.oldest)) / 86_400_000));
}

export type HistoryStage =
  { kind: 'empty' } | { kind: 'collecting'; days: number; needed: number } | { kind: 'ready'; days: number };

/** Whether there is enough history for patterns, and if not, how far along it is. */
export function historyStage(status: Pick<AnalyticsStatus, 'events' | 'oldest' | 'newest'>): HistoryStage {
  if (status.events === 0) return { kind: 'empty' };
  const days = historyDays(status);
  if (days < MIN_PATTERN_DAYS) return { kind: 'collecting', days, needed: MIN_PATTERN_DAYS };
  return { kind: 'ready', days };
}

/** A running backfill as a percentage, null when none runs. */
export function backfillPercent(status: Pick<AnalyticsStatus, 'backfill'>): number | null {
  if (!status.backfill) return null;
  if (status.backfill.total === 0) return 0;
  return Math.round((status.backfill.done / status.backfill.total) * 100);
}

// ---- Heatmap --------------------------------------------------------------------------------

/** Five shades: 0 is no change at all, 1–4 quartiles of the busiest cell. */
export function heatLevel(count: number, max: number): 0 | 1 | 2 | 3 | 4 {
  if (count <= 0 || max <= 0) return 0;
  const share = count / max;
  if (share > 0.75) return 4;
  if (share > 0.5) return 3;
  if (share > 0.25) return 2;
  return 1;
}

export function heatMax(heatmap: Pick<Heatmap, 'counts'>): number {
  return Math.max(0, ...heatmap.counts.flat());
}

/** "Monday 07:00–08:00: 12 changes" for a cell's label. */
export function heatCellWords(weekday: number, hour: number, count: number): string {
  const from = `${String(hour).padStart(2, '0')}:00`;
  const to = `${String((hour + 1) % 24).padStart(2, '0')}:00`;
  return `${WEEKDAYS[weekday]} ${from}–${to}: ${count} ${count === 1 ? 'change' : 'changes'}`;
}

/** The busiest cell, for a sentence under the chart. */
export function busiestCell(
  heatmap: Pick<Heatmap, 'counts'>,
): { weekday: number; hour: number; count: number } | null {
  let best: { weekday: number; hour: number; count: number } | null = null;
  heatmap.counts.forEach((row, weekday) =>
    row.forEach((count, hour) => {
      if (count > 0 && (!best || count > best.count)) best = { weekday, hour, count };
    }),
  );
  return best;
}

// ---- Timeline -------------------------------------------------------------------------------

export interface TimelineSegment {
  state: string;
  /** Minutes since midnight (HA's time zone), 0–1440. */
  start: number;
  end: number;
}

const DAY_MINUTES = 24 * 60;

/**
 * One entity's day as segments: each change holds until the next one; the last holds until the
 * end of the day, or until `now` when the day is today (the future is not drawn).
 */
export function timelineSegments(
  changes: Timeline['entities'][number]['changes'],
  timeZone: string,
  endMinute = DAY_MINUTES,
): TimelineSegment[] {
  const points = changes.map((c) => ({ state: c.state, at: minutesOfDay(c.at, timeZone) }));
  const segments: TimelineSegment[] = [];
  points.forEach((point, i) => {
    const next = points[i + 1];
    const end = Math.min(next ? next.at : endMinute, endMinute);
    if (end > point.at) segments.push({ state: point.state, start: point.at, end });
  });
  return segments;
}

/** Where the day ends on the axis: now for today, midnight otherwise. */
export function timelineEnd(date: string, now: number, timeZone: string): number {
  return date === dateIn(now, timeZone) ? minutesOfDay(now, timeZone) : DAY_MINUTES;
}

/** States that mean "active" get the strong colour; anything else a muted one. */
const ACTIVE_STATES = new Set([
  'on',
  'home',
  'open',
  'opening',
  'playing',
  'unlocked',
  'heat',
  'cool',
  'detected',
]);
export type StateTone = 'active' | 'idle' | 'unknown';
export function stateTone(state: string): StateTone {
  if (ACTIVE_STATES.has(state)) return 'active';
  if (state === 'unavailable' || state === 'unknown') return 'unknown';
  return 'idle';
}

// ---- Settings -------------------------------------------------------------------------------

/** The retention field's value, or a sentence saying what is wrong with it. */
export function parseRetention(text: string): { ok: true; days: number } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return { ok: false, error: 'Enter a whole number of days.' };
  const days = Number(trimmed);
  if (days < 1 || days > 3650) return { ok: false, error: 'Keep between 1 and 3650 days.' };
  return { ok: true, days };
}

/** Entities matching a filter, not yet excluded, best matches first, at most `limit`. */
export function entityMatches(
  entities: readonly { entityId: string; name: string }[],
  filter: string,
  excluded: readonly string[],
  limit = 20,
): { entityId: string; name: string }[] {
  const needle = filter.trim().toLowerCase();
  const skip = new Set(excluded);
  return entities
    .filter((e) => !skip.has(e.entityId))
    .filter((e) => !needle || e.entityId.includes(needle) || e.name.toLowerCase().includes(needle))
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, limit);
}
