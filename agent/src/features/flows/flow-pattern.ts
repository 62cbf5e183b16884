import type RE2 from 're2';
import { HttpError } from '../../lib/http-error.js';
import { lazyRequire } from '../../lib/lazy-require.js';

/**
 * A condition's `matches` pattern is written by a member and runs inside the agent's one thread.
 * JavaScript's RegExp backtracks: `(a+)+$` on thirty a's and a b took seconds, during which the
 * hub answered nobody. RE2 matches in time linear in the input, whatever the pattern, and refuses
 * the constructs it cannot run that way (backreferences, lookarounds) instead of running them slowly.
 */

/** Longer patterns are refused; a condition needs a line, not a program. */
export const PATTERN_MAX_CHARS = 1000;
/** The value a pattern is matched against is cut to this many characters. */
export const MATCH_INPUT_MAX_CHARS = 10_000;

// Loaded with the first pattern a flow is saved or run with: a hub whose flows match no patterns
// never carries the engine (its native module is about 1.6 MB of an idle agent's memory).
const re2 = lazyRequire<typeof RE2>('re2');

const HOW_PATTERNS_RUN =
  'conditions match with RE2, which has no backreferences (\\1) or lookarounds ((?=…), (?!…), (?<=…), (?<!…))';

/** Compiles a condition's pattern; a 400 that says why when it cannot be used. */
export function compilePattern(source: string, ignoreCase: boolean): RE2 {
  if (source.length > PATTERN_MAX_CHARS) {
    throw new HttpError(400, `The regular expression is longer than ${PATTERN_MAX_CHARS} characters`);
  }
  const Engine = re2();
  try {
    return new Engine(source, ignoreCase ? 'i' : '');
  } catch (error) {
    throw new HttpError(
      400,
      `Not a usable regular expression: ${(error as Error).message} (${HOW_PATTERNS_RUN})`,
    );
  }
}

/** Whether `value` (cut to MATCH_INPUT_MAX_CHARS) matches the pattern. */
export function matchesPattern(source: string, value: string, ignoreCase: boolean): boolean {
  return compilePattern(source, ignoreCase).test(value.slice(0, MATCH_INPUT_MAX_CHARS));
}
