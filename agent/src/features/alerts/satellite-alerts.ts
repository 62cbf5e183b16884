import type { Satellite } from '../../contract/satellites.js';
import type { IncidentNotifier } from './incidents.js';

const LINK = '/satellite-management';
export const satelliteIncidentKey = (id: number) => `satellite:${id}:offline`;

/**
 * A satellite that was seen and is now offline, and its return. Nexus-API satellites go offline by
 * silence (no heartbeat), which is no event, so the caller polls `list()`; one never seen (no
 * token set on the device yet) is not "offline" in any sense an owner must be told about.
 */
export function createSatelliteCheck(deps: { list: () => Satellite[]; incidents: IncidentNotifier }) {
  return function check(): void {
    const present = new Set<string>();
    for (const s of deps.list()) {
      const key = satelliteIncidentKey(s.id);
      present.add(key);
      if (s.status === 'offline' && s.lastSeen !== null) {
        deps.incidents.open(key, {
          category: 'satellites',
          level: 'warning',
          title: `Satellite ${s.name} is offline`,
          body: s.statusReason ?? 'It does not answer.',
          link: LINK,
        });
      } else if (s.status !== 'offline') {
        deps.incidents.clear(key, {
          category: 'satellites',
          title: `Satellite ${s.name} is back online`,
          link: LINK,
        });
      }
    }
    // A satellite removed while offline: nothing is left to come back.
    for (const key of deps.incidents.openKeys('satellite:'))
      if (!present.has(key)) deps.incidents.forget(key);
  };
}
