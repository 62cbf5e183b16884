import type { Sequence } from '../../../contract/analytics.js';
import { domainOf, type Prepared } from './prepared.js';

/**
 * Sequences: A (an entity reaching a state) then B (another entity reaching a state) within a
 * window, e.g. the front door opens → the hallway light turns on (issue 16).
 *
 * One pass over all transitions in time order (sorted once): for each A, every distinct B in the
 * window after it counts once. Items (entity, state) seen fewer than MIN_COUNT times are left out
 * before the pass, so the pair counts fit a dense matrix.
 *
 * - count: A occurrences followed by B within the window;
 * - confidence = count / occurrences of A  (P(B within window | A));
 * - baseline = P(B within a window of that length starting at a random moment of the observed days)
 *   = the time covered by the windows [b − w, b] before B's occurrences / the observed time;
 * - lift = confidence / baseline: above 1, A makes B likelier than chance;
 * - support = days with A followed by B / days observed.
 */

export const SEQUENCE_WINDOW_SECONDS = 600;
export const MIN_COUNT = 5;
export const MIN_CONFIDENCE = 0.4;
export const MIN_LIFT = 2;
const MAX_ITEMS = 1500;
const MAX_SEQUENCES = 500;
const DAY_MS = 86_400_000;

function isArrival(entityId: string, state: string): boolean {
  const domain = domainOf(entityId);
  return (domain === 'person' || domain === 'device_tracker') && state === 'home';
}

/** Transition indices in time order (ties: the log's order). */
export function timeOrder(p: Prepared, keep: (i: number) => boolean): Int32Array {
  const { at } = p.log;
  const chosen: number[] = [];
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < p.log.length; i++) {
    if (!p.transition[i] || !keep(i)) continue;
    chosen.push(i);
    if (at[i]! < min) min = at[i]!;
    if (at[i]! > max) max = at[i]!;
  }
  const n = chosen.length;
  const order = new Int32Array(n);
  const span = Math.floor((max - min) / 1000) + 1;
  if (n > 0 && span * n < Number.MAX_SAFE_INTEGER) {
    // Pack (second, position) into one double and let the typed array sort natively: far faster than
    // a comparator sort of a million indices.
    const keys = new Float64Array(n);
    for (let k = 0; k < n; k++) keys[k] = Math.floor((at[chosen[k]!]! - min) / 1000) * n + k;
    keys.sort();
    for (let k = 0; k < n; k++) order[k] = chosen[keys[k]! % n]!;
  } else {
    chosen.sort((a, b) => at[a]! - at[b]! || a - b);
    order.set(chosen);
  }
  return order;
}

export function mineSequences(p: Prepared, windowSeconds = SEQUENCE_WINDOW_SECONDS): Sequence[] {
  const { log } = p;
  const windowMs = windowSeconds * 1000;
  const nStates = log.states.length;

  // Items: (entity, state) pairs, numbered densely among the frequent ones.
  const itemCount = new Map<number, number>();
  for (let i = 0; i < log.length; i++) {
    if (!p.transition[i]) continue;
    const key = log.entity[i]! * nStates + log.state[i]!;
    itemCount.set(key, (itemCount.get(key) ?? 0) + 1);
  }
  const frequent = [...itemCount]
    .filter(([, c]) => c >= MIN_COUNT)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, MAX_ITEMS)
    .map(([key]) => key)
    .sort((a, b) => a - b);
  const itemOfKey = new Map(frequent.map((key, item) => [key, item]));
  const nItems = frequent.length;
  if (nItems < 2 || p.observed.all === 0) return [];

  const item = new Int32Array(log.length).fill(-1);
  for (let i = 0; i < log.length; i++) {
    if (p.transition[i]) item[i] = itemOfKey.get(log.entity[i]! * nStates + log.state[i]!) ?? -1;
  }
  const order = timeOrder(p, (i) => item[i]! >= 0);
  const entityOfItem = new Int32Array(nItems);
  frequent.forEach((key, k) => (entityOfItem[k] = Math.floor(key / nStates)));

  // Pass 1: occurrences, pair counts, and the time each item's windows cover.
  const occurrences = new Float64Array(nItems);
  const covered = new Float64Array(nItems);
  const lastAt = new Float64Array(nItems).fill(-Infinity);
  const pairs = new Int32Array(nItems * nItems);
  const seenFor = new Int32Array(nItems).fill(-1);
  const { at } = log;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const a = item[i]!;
    const t = at[i]!;
    occurrences[a]!++;
    covered[a]! += t - Math.max(t - windowMs, lastAt[a]!);
    lastAt[a] = t;
    const ea = entityOfItem[a]!;
    for (let j = k + 1; j < order.length; j++) {
      const jj = order[j]!;
      if (at[jj]! - t > windowMs) break;
      const b = item[jj]!;
      if (entityOfItem[b] === ea || seenFor[b] === k) continue;
      seenFor[b] = k;
      pairs[a * nItems + b]!++;
    }
  }

  const observedMs = p.observed.all * DAY_MS;
  interface Candidate {
    a: number;
    b: number;
    count: number;
    confidence: number;
    lift: number;
    delays: number[];
    days: Set<number>;
  }
  const survivors = new Map<number, Candidate>();
  for (let a = 0; a < nItems; a++) {
    for (let b = 0; b < nItems; b++) {
      const count = pairs[a * nItems + b]!;
      if (count < MIN_COUNT) continue;
      const confidence = count / occurrences[a]!;
      const baseline = Math.min(1, covered[b]! / observedMs);
      const lift = baseline > 0 ? confidence / baseline : 0;
      if (confidence < MIN_CONFIDENCE || lift < MIN_LIFT) continue;
      survivors.set(a * nItems + b, { a, b, count, confidence, lift, delays: [], days: new Set() });
    }
  }
  if (survivors.size === 0) return [];

  // Pass 2, for the surviving pairs only: the delay to the first B after each A, and the days.
  const hasSurvivor = new Uint8Array(nItems);
  for (const c of survivors.values()) hasSurvivor[c.a] = 1;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const a = item[i]!;
    if (!hasSurvivor[a]) continue;
    const t = at[i]!;
    for (let j = k + 1; j < order.length; j++) {
      const jj = order[j]!;
      if (at[jj]! - t > windowMs) break;
      const b = item[jj]!;
      if (seenFor[b] === -2 - k) continue;
      seenFor[b] = -2 - k;
      const c = survivors.get(a * nItems + b);
      if (!c) continue;
      c.delays.push(Math.max(0, at[jj]! - t));
      c.days.add(p.day[i]!);
    }
  }

  const sequences: Sequence[] = [];
  for (const c of survivors.values()) {
    const fromEntity = log.entityIds[entityOfItem[c.a]!]!;
    const toEntity = log.entityIds[entityOfItem[c.b]!]!;
    const fromState = log.states[frequent[c.a]! % nStates]!;
    const toState = log.states[frequent[c.b]! % nStates]!;
    c.delays.sort((x, y) => x - y);
    const mid = c.delays.length >> 1;
    const median =
      c.delays.length === 0
        ? 0
        : c.delays.length % 2
          ? c.delays[mid]!
          : (c.delays[mid - 1]! + c.delays[mid]!) / 2;
    sequences.push({
      id: `sequence:${fromEntity}:${fromState}:${toEntity}:${toState}`,
      kind: isArrival(fromEntity, fromState) ? 'presence' : 'sequence',
      from: { entityId: fromEntity, name: p.nameOf(fromEntity), state: fromState },
      to: { entityId: toEntity, name: p.nameOf(toEntity), state: toState },
      windowSeconds,
      medianDelaySeconds: Math.round(median / 1000),
      count: c.count,
      support: Math.round(Math.min(1, c.days.size / p.observed.all) * 1000) / 1000,
      confidence: Math.round(Math.min(1, c.confidence) * 1000) / 1000,
      lift: Math.round(c.lift * 100) / 100,
    });
  }
  return sequences
    .sort(
      (x, y) => y.confidence - x.confidence || y.lift - x.lift || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0),
    )
    .slice(0, MAX_SEQUENCES);
}
