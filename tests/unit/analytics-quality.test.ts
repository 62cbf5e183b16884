/**
 * Analytics quality (issue 16): mines 8 weeks of the seeded synthetic household (40 entities,
 * planted routines and sequences among noise, missing days) and measures what the README reports:
 * recall of planted routines (≥ 90 %), share of reported routines not planted (≤ 5 %), mean time
 * error (≤ 10 min), planted sequences found with lift > 1. Prints the figures.
 */
import { describe, expect, it } from 'vitest';
import { eventLogFrom } from '../../agent/src/features/analytics/event-log.js';
import { mine } from '../../agent/src/features/analytics/mining/index.js';
import { circularDelta } from '../../agent/src/features/analytics/mining/local-time.js';
import {
  generateHousehold,
  type PlantedRoutine,
  type PlantedSequence,
} from '../fixtures/household-generator.js';

const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

describe('analytics quality on the synthetic household', () => {
  for (const seed of [16, 2024]) {
    it(`finds the planted patterns (seed ${seed})`, () => {
      const household = generateHousehold({ seed });
      expect(household.entities).toHaveLength(40);
      expect(household.missingDays.length).toBeGreaterThan(0);
      const result = mine(eventLogFrom(household.changes), {
        now: household.end,
        timeZone: household.timeZone,
      });

      const plantedRoutines = household.planted.filter((p): p is PlantedRoutine => p.kind === 'routine');
      // A reported routine is a planted one when entity, state and days agree and the time is within 30 min.
      const matchOf = (planted: PlantedRoutine) =>
        result.routines.find(
          (r) =>
            r.entityId === planted.entityId &&
            r.state === planted.state &&
            r.days === planted.days &&
            Math.abs(circularDelta(minuteOf(r.meanTime), planted.minute)) <= 30,
        );
      const matched = plantedRoutines.map((planted) => ({ planted, routine: matchOf(planted) }));
      const found = matched.filter((m) => m.routine !== undefined);
      const recall = found.length / plantedRoutines.length;
      const matchedIds = new Set(found.map((m) => m.routine!.id));
      const notPlanted = result.routines.filter((r) => !matchedIds.has(r.id));
      const falseShare = result.routines.length === 0 ? 0 : notPlanted.length / result.routines.length;
      const timeError =
        found.reduce(
          (sum, m) => sum + Math.abs(circularDelta(minuteOf(m.routine!.meanTime), m.planted.minute)),
          0,
        ) / Math.max(1, found.length);

      const plantedSequences = household.planted.filter((p): p is PlantedSequence => p.kind !== 'routine');
      const sequences = plantedSequences.map((planted) => ({
        planted,
        sequence: result.sequences.find(
          (s) =>
            s.from.entityId === planted.from.entityId &&
            s.from.state === planted.from.state &&
            s.to.entityId === planted.to.entityId &&
            s.to.state === planted.to.state,
        ),
      }));

      process.stdout.write(
        [
          `analytics quality, seed ${seed}: ${household.changes.length} events, ${household.entities.length} entities, ${result.days} days observed (${household.missingDays.length} missing)`,
          `  routines: ${found.length}/${plantedRoutines.length} planted found (recall ${(recall * 100).toFixed(1)} %), ${notPlanted.length}/${result.routines.length} reported not planted (${(falseShare * 100).toFixed(1)} %), mean time error ${timeError.toFixed(1)} min`,
          ...matched
            .filter((m) => !m.routine)
            .map(
              (m) =>
                `  missed: ${m.planted.entityId} ${m.planted.state} ${m.planted.days} ${m.planted.minute}`,
            ),
          ...notPlanted.map(
            (r) => `  not planted: ${r.id} ${r.meanTime} support ${r.support} spread ${r.spreadMinutes}`,
          ),
          ...sequences.map(
            ({ planted, sequence }) =>
              `  ${planted.kind} ${planted.from.entityId}→${planted.to.entityId}: ${sequence ? `count ${sequence.count}, confidence ${sequence.confidence}, lift ${sequence.lift}, median delay ${sequence.medianDelaySeconds} s` : 'NOT FOUND'}`,
          ),
        ].join('\n') + '\n',
      );

      expect(recall).toBeGreaterThanOrEqual(0.9);
      expect(falseShare).toBeLessThanOrEqual(0.05);
      expect(timeError).toBeLessThanOrEqual(10);
      for (const { planted, sequence } of sequences) {
        expect(sequence, `${planted.from.entityId} → ${planted.to.entityId}`).toBeDefined();
        expect(sequence!.lift).toBeGreaterThan(1);
        expect(sequence!.kind).toBe(planted.kind);
        const [lo, hi] = planted.delaySeconds;
        expect(sequence!.medianDelaySeconds).toBeGreaterThanOrEqual(lo);
        expect(sequence!.medianDelaySeconds).toBeLessThanOrEqual(hi);
      }
      // Every strong planted routine of a controllable device has a suggestion.
      expect(result.suggestions.length).toBeGreaterThanOrEqual(found.length - 2);
    });
  }
});
