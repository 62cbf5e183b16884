import type { Prediction, Routine, Sequence } from '../../../contract/analytics.js';
import { changeInWords, daysInWords } from './anomalies.js';
import { formatMinute } from './local-time.js';
import { matchesKind, transitionsIn, type Prepared } from './prepared.js';
import { ROUTINE_WINDOW, routineMinute } from './routines.js';

/**
 * What is likely in the hour after `now` (issue 16):
 * - a routine for that day's kind whose usual time falls in the hour and that has not happened yet
 *   that day (nothing within its window before now); confidence = the routine's;
 * - a sequence whose A happened within its window before now and whose B has not followed yet;
 *   expected at A + the median delay (or now, when that has passed); confidence = the sequence's.
 * One prediction per entity and state: the surest.
 */

const HOUR_MS = 3_600_000;
const MIN_CONFIDENCE = 0.3;

export function minePredictions(
  p: Prepared,
  routines: readonly Routine[],
  sequences: readonly Sequence[],
): Prediction[] {
  const { log, clock, now } = p;
  const until = now + HOUR_MS;
  const entityIndex = new Map(log.entityIds.map((id, i) => [id, i]));
  const stateIndex = new Map(log.states.map((s, i) => [s, i]));
  const best = new Map<string, Prediction>();
  const offer = (prediction: Prediction) => {
    const key = `${prediction.entityId}\u0000${prediction.state}`;
    const current = best.get(key);
    if (
      !current ||
      prediction.confidence > current.confidence ||
      (prediction.confidence === current.confidence && prediction.expectedAt < current.expectedAt)
    ) {
      best.set(key, prediction);
    }
  };

  for (const routine of routines) {
    if (routine.confidence < MIN_CONFIDENCE) continue;
    const e = entityIndex.get(routine.entityId);
    const s = stateIndex.get(routine.state);
    if (e === undefined || s === undefined) continue;
    const minute = routineMinute(routine);
    // Today's occurrence, or tomorrow's when the hour crosses midnight.
    for (const day of [p.today, p.today + 1]) {
      if (!matchesKind(day, routine.days)) continue;
      const expected = clock.utcOf(day, minute);
      if (expected <= now || expected > until) continue;
      const windowStart = expected - ROUTINE_WINDOW * 60_000;
      if (transitionsIn(p, e, s, windowStart, now).length > 0) continue;
      offer({
        entityId: routine.entityId,
        name: routine.name,
        state: routine.state,
        expectedAt: new Date(expected).toISOString(),
        confidence: routine.confidence,
        basis: {
          kind: 'routine',
          id: routine.id,
          text: `${routine.name} usually ${changeInWords(routine.state)} around ${routine.meanTime} ${daysInWords(routine.days)} (seen ${routine.daysSeen} of ${routine.daysObserved} days, ±${Math.round(routine.spreadMinutes)} min).`,
        },
      });
    }
  }

  for (const sequence of sequences) {
    if (sequence.confidence < MIN_CONFIDENCE) continue;
    const a = entityIndex.get(sequence.from.entityId);
    const as = stateIndex.get(sequence.from.state);
    const b = entityIndex.get(sequence.to.entityId);
    const bs = stateIndex.get(sequence.to.state);
    if (a === undefined || as === undefined || b === undefined || bs === undefined) continue;
    const windowMs = sequence.windowSeconds * 1000;
    const recent = transitionsIn(p, a, as, now - windowMs, now);
    const last = recent[recent.length - 1];
    if (last === undefined) continue;
    const aAt = log.at[last]!;
    if (transitionsIn(p, b, bs, aAt, now).length > 0) continue;
    const expected = Math.max(now, aAt + sequence.medianDelaySeconds * 1000);
    offer({
      entityId: sequence.to.entityId,
      name: sequence.to.name,
      state: sequence.to.state,
      expectedAt: new Date(expected).toISOString(),
      confidence: sequence.confidence,
      basis: {
        kind: 'sequence',
        id: sequence.id,
        text: `${sequence.from.name} ${changeInWords(sequence.from.state)} at ${formatMinute(clock.minuteOf(aAt))}; ${sequence.to.name} ${changeInWords(sequence.to.state)} within ${Math.round(sequence.windowSeconds / 60)} min after it ${Math.round(sequence.confidence * 100)} % of the time (usually after ${sequence.medianDelaySeconds} s).`,
      },
    });
  }

  return [...best.values()].sort(
    (x, y) =>
      (x.expectedAt < y.expectedAt ? -1 : x.expectedAt > y.expectedAt ? 1 : 0) ||
      (x.entityId < y.entityId ? -1 : x.entityId > y.entityId ? 1 : 0) ||
      (x.state < y.state ? -1 : x.state > y.state ? 1 : 0),
  );
}
