import type { HeatmapOf } from './types.js';
import { createClock, weekdayOf } from './local-time.js';

/**
 * counts[weekday][hour] of an entity's state changes (to `state` when given), Monday = 0, hours in
 * the zone. Reads only the entity's run of the log.
 */
export const heatmapOf: HeatmapOf = (log, entityId, options) => {
  const clock = createClock(options.timeZone);
  const counts = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  const e = log.entityIds.indexOf(entityId);
  const s = options.state === undefined ? -1 : log.states.indexOf(options.state);
  let total = 0;
  if (e >= 0 && (options.state === undefined || s >= 0)) {
    // The log is sorted by entity: find the run by binary search.
    let lo = 0;
    let hi = log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (log.entity[mid]! < e) lo = mid + 1;
      else hi = mid;
    }
    // Entity indices need not be in sort order (a store's dictionary); fall back to a scan then.
    const sortedByIndex = lo < log.length && log.entity[lo] === e;
    for (let i = sortedByIndex ? lo : 0; i < log.length; i++) {
      if (log.entity[i] !== e) {
        if (sortedByIndex) break;
        continue;
      }
      if (s >= 0 && log.state[i] !== s) continue;
      const at = log.at[i]!;
      const hour = Math.floor(clock.minuteOf(at) / 60);
      counts[weekdayOf(clock.dayOf(at))]![hour]!++;
      total++;
    }
  }
  return {
    entityId,
    name: options.nameOf?.(entityId) ?? entityId,
    state: options.state ?? null,
    counts,
    total,
    timeZone: options.timeZone,
  };
};
