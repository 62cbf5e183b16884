import { describe, expect, it } from 'vitest';
import { parseShape, type Shape } from './answer-shape';

/** One answer shape beside the contract's zod schema it mirrors, and answers to try on both. */
export interface ShapeCase {
  name: string;
  shape: Shape<unknown>;
  schema: { safeParse: (v: unknown) => { success: boolean; data?: unknown } };
  samples: unknown[];
}

/**
 * The tests every answer shape (lib/answer-shape.ts) owes its schema, for the data modules' test
 * files: it accepts and refuses the same answers as the schema and keeps exactly the same keys,
 * and each case's samples hold both an accepted and a refused answer, so the table tests both ways.
 */
export function describeShapesAgainstSchemas(title: string, cases: ShapeCase[]): void {
  describe(title, () => {
    for (const { name, shape, schema, samples } of cases) {
      it(`${name} accepts and refuses what the contract schema does, keeping the same keys`, () => {
        for (const sample of samples) {
          const expected = schema.safeParse(sample);
          if (expected.success) {
            expect(parseShape(shape, sample), JSON.stringify(sample)).toStrictEqual(expected.data);
          } else {
            expect(() => parseShape(shape, sample), JSON.stringify(sample)).toThrow(
              /Unexpected answer from the hub/,
            );
          }
        }
      });
    }

    it('each case refuses at least one answer and keeps at least one (the table tests both ways)', () => {
      for (const { schema, samples } of cases) {
        const results = samples.map((sample) => schema.safeParse(sample).success);
        expect(results).toContain(true);
        expect(results).toContain(false);
      }
    });
  });
}
