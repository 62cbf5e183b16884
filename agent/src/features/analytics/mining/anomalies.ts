import type { Anomaly, Routine } from '../../../contract/analytics.js';
import { formatDay, formatMinute, MINUTES_PER_DAY } from './local-time.js';
import { firstAtOrAfter, hadData, matchesKind, type Prepared } from './prepared.js';
import { ROUTINE_WINDOW, routineMinute } from './routines.js';

/**
 * Anomalies as of `now` (issue 16):
 * - missed_routine: a strong routine for today's kind of day, now well past its usual time (mean +
 *   max(30 min, 3 × spread)) and not seen today within its window. Not reported when the home has
 *   recorded nothing today (the hub was off, not the household);
 * - unusual_hour: an entity turned on, opened, unlocked or started playing today at a local hour it
 *   never did in its history, when that history is long enough to say "never" (two weeks and ten
 *   such changes).
 */

export const STRONG_ROUTINE = { confidence: 0.6, support: 0.7 };
const ACTIVE_STATES = new Set(['on', 'open', 'opening', 'unlocked', 'unlocking', 'playing']);
const UNUSUAL_MIN_DAYS = 14;
const UNUSUAL_MIN_CHANGES = 10;

const VERBS: Record<string, string> = {
  on: 'turns on',
  off: 'turns off',
  open: 'opens',
  closed: 'closes',
  locked: 'locks',
  unlocked: 'unlocks',
  playing: 'starts playing',
  home: 'arrives home',
  not_home: 'leaves home',
};

/** "turns on", "becomes heat": the change in words. */
export function changeInWords(state: string): string {
  return VERBS[state] ?? `becomes ${state}`;
}

const PAST: Record<string, string> = {
  on: 'turned on',
  open: 'opened',
  opening: 'started opening',
  unlocked: 'was unlocked',
  unlocking: 'started unlocking',
  playing: 'started playing',
};

export function daysInWords(days: Routine['days']): string {
  return days === 'all' ? 'every day' : days === 'weekday' ? 'on weekdays' : 'at weekends';
}

export function isStrong(routine: Routine): boolean {
  return routine.confidence >= STRONG_ROUTINE.confidence && routine.support >= STRONG_ROUTINE.support;
}

export function mineAnomalies(p: Prepared, routines: readonly Routine[]): Anomaly[] {
  const { log, clock, now, today } = p;
  const anomalies: Anomaly[] = [];
  const nowMinute = clock.minuteOf(now);
  const dayStart = clock.utcOf(today, 0);
  const date = formatDay(today);
  const entityIndex = new Map(log.entityIds.map((id, i) => [id, i]));
  const stateIndex = new Map(log.states.map((s, i) => [s, i]));

  // Anything recorded today? (hasData only covers past days up to the newest event.)
  let recordedToday = hadData(p, today);
  if (!recordedToday) {
    for (let e = 0; e < log.entityIds.length && !recordedToday; e++) {
      const i = firstAtOrAfter(p, e, dayStart);
      recordedToday = i < p.end[e]! && log.at[i]! <= now;
    }
  }

  if (recordedToday) {
    for (const routine of routines) {
      if (!isStrong(routine) || !matchesKind(today, routine.days)) continue;
      const mean = routineMinute(routine);
      const margin = Math.max(30, 3 * routine.spreadMinutes);
      // A routine whose overdue time passes midnight belongs to tomorrow's check.
      if (mean + margin >= MINUTES_PER_DAY || nowMinute < mean + margin) continue;
      const e = entityIndex.get(routine.entityId);
      const s = stateIndex.get(routine.state);
      if (e === undefined || s === undefined) continue;
      const from = clock.utcOf(today, Math.max(0, mean - Math.max(ROUTINE_WINDOW, margin)));
      let seen = false;
      for (let i = firstAtOrAfter(p, e, from); i < p.end[e]! && log.at[i]! <= now && !seen; i++) {
        seen = p.transition[i] === 1 && log.state[i] === s;
      }
      if (seen) continue;
      anomalies.push({
        id: `anomaly:missed_routine:${routine.id}:${date}`,
        kind: 'missed_routine',
        entityId: routine.entityId,
        name: routine.name,
        state: routine.state,
        at: new Date(clock.utcOf(today, mean + margin)).toISOString(),
        routineId: routine.id,
        message: `${routine.name} usually ${changeInWords(routine.state)} around ${routine.meanTime} ${daysInWords(routine.days)} (${routine.daysSeen} of ${routine.daysObserved} days); not yet today.`,
        severity: routine.confidence >= 0.85 ? 'warning' : 'info',
      });
    }
  }

  // Unusual hours: the hours each entity reached each active state in its past.
  for (let e = 0; e < log.entityIds.length; e++) {
    if (p.ignoredEntity[e]) continue;
    const todayFrom = firstAtOrAfter(p, e, dayStart);
    const reported = new Set<string>();
    let history: { days: Set<number>; hours: Map<number, number[]> } | undefined;
    for (let i = todayFrom; i < p.end[e]! && log.at[i]! <= now; i++) {
      const state = log.states[log.state[i]!]!;
      if (!p.transition[i] || !ACTIVE_STATES.has(state)) continue;
      const hour = Math.floor(p.minute[i]! / 60);
      const key = `${state}:${hour}`;
      if (reported.has(key)) continue;
      reported.add(key);
      history ??= historyOf(p, e, todayFrom);
      const hours = history.hours.get(log.state[i]!);
      const changes = hours?.reduce((sum, c) => sum + c, 0) ?? 0;
      const atThisHour = hours?.[hour] ?? 0;
      const days = history.days;
      if (atThisHour > 0 || days.size < UNUSUAL_MIN_DAYS || changes < UNUSUAL_MIN_CHANGES) continue;
      const entityId = log.entityIds[e]!;
      const name = p.nameOf(entityId);
      const from = formatMinute(hour * 60);
      const to = formatMinute((hour + 1) * 60);
      anomalies.push({
        id: `anomaly:unusual_hour:${entityId}:${state}:${date}:${String(hour).padStart(2, '0')}`,
        kind: 'unusual_hour',
        entityId,
        name,
        state,
        at: new Date(log.at[i]!).toISOString(),
        routineId: null,
        message: `${name} ${PAST[state] ?? `became ${state}`} at ${formatMinute(p.minute[i]!)}; in ${days.size} days of history it never did between ${from} and ${to} (${changes} times at other hours).`,
        severity: hour < 6 || hour >= 23 ? 'warning' : 'info',
      });
    }
  }
  return anomalies.sort((a, b) =>
    a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
}

/** An entity's past (before today): the days it was recorded on, and per state its changes by hour. */
function historyOf(p: Prepared, e: number, before: number) {
  const days = new Set<number>();
  const hours = new Map<number, number[]>();
  for (let k = p.start[e]!; k < before; k++) {
    if (hadData(p, p.day[k]!)) days.add(p.day[k]!);
    if (!p.transition[k]) continue;
    const s = p.log.state[k]!;
    let counts = hours.get(s);
    if (!counts) hours.set(s, (counts = new Array<number>(24).fill(0)));
    counts[Math.floor(p.minute[k]! / 60)]!++;
  }
  return { days, hours };
}
