import fs from 'node:fs';
import type { MemoryPressure, ThermalTrip } from '../../adapters/system-info.js';
import type { IncidentNotifier } from './incidents.js';

/** Thresholds with hysteresis: a reading that hovers at the line does not notify on every sample. */
export const HOST_THRESHOLDS = {
  diskOpenPercent: 90,
  diskClearPercent: 85,
  /** MemAvailable below this share of MemTotal is pressure… */
  memOpenAvailablePercent: 5,
  memClearAvailablePercent: 10,
  /** …and so is PSI "some avg10" at or over this (tasks stalled on memory 40 % of the last 10 s). */
  memOpenPsi: 40,
  memClearPsi: 10,
  /** A zone clears this many °C below its trip point. */
  thermalClearBelowC: 5,
};

const LINK = '/nexus-status';

/** Used share of a file system as df computes it (reserved blocks count as not available). */
export function diskUsePercent(path: string): number | null {
  try {
    const s = fs.statfsSync(path);
    const used = s.blocks - s.bfree;
    const total = used + s.bavail;
    return total > 0 ? (used / total) * 100 : null;
  } catch {
    return null;
  }
}

/**
 * Disk over 90 %, memory pressure and temperatures over their thermal trip points, read from the
 * host (through the system-info adapter, which honours NEXUS_HOST_ROOT). Disks are the file
 * systems holding `diskPaths` (the data directory and the host's root), one incident per file system.
 */
export function createHostCheck(deps: {
  incidents: IncidentNotifier;
  diskPaths: string[];
  memory?: () => MemoryPressure | null;
  thermal?: () => ThermalTrip[];
  diskUse?: (path: string) => number | null;
}) {
  const t = HOST_THRESHOLDS;
  const diskUse = deps.diskUse ?? diskUsePercent;

  function disks() {
    const seen = new Set<string>();
    for (const p of deps.diskPaths) {
      let id: string;
      try {
        // Two paths on one file system are one disk: st_dev names it.
        id = String(fs.statSync(p).dev);
      } catch {
        continue;
      }
      if (seen.has(id)) continue;
      seen.add(id);
      const used = diskUse(p);
      if (used === null) continue;
      const key = `system:disk:${p}`;
      if (used >= t.diskOpenPercent) {
        deps.incidents.open(key, {
          category: 'system',
          level: used >= 97 ? 'error' : 'warning',
          title: 'The disk is almost full',
          body: `The file system holding ${p} is ${Math.round(used)} % full.`,
          link: LINK,
        });
      } else if (used < t.diskClearPercent) {
        deps.incidents.clear(key, {
          category: 'system',
          title: 'The disk has room again',
          body: `The file system holding ${p} is ${Math.round(used)} % full.`,
          link: LINK,
        });
      }
    }
  }

  function memory() {
    const m = deps.memory?.();
    if (!m || m.totalBytes <= 0) return;
    const availablePercent = (m.availableBytes / m.totalBytes) * 100;
    const psi = m.someAvg10;
    const key = 'system:memory-pressure';
    const mib = Math.round(m.availableBytes / 1024 / 1024);
    if (availablePercent < t.memOpenAvailablePercent || (psi !== null && psi >= t.memOpenPsi)) {
      deps.incidents.open(key, {
        category: 'system',
        level: 'warning',
        title: 'The hub is short of memory',
        body: `${mib} MiB available (${availablePercent.toFixed(1)} %)${psi !== null ? `, tasks waited for memory ${psi} % of the last 10 s` : ''}.`,
        link: LINK,
      });
    } else if (availablePercent >= t.memClearAvailablePercent && (psi === null || psi < t.memClearPsi)) {
      deps.incidents.clear(key, {
        category: 'system',
        title: 'Memory is back to normal',
        body: `${mib} MiB available.`,
        link: LINK,
      });
    }
  }

  function thermal() {
    for (const z of deps.thermal?.() ?? []) {
      if (!z.trip) continue;
      const key = `system:thermal:${z.zone}`;
      if (z.temp >= z.trip.temp) {
        deps.incidents.open(key, {
          category: 'system',
          level: z.trip.type === 'critical' ? 'error' : 'warning',
          title: `${z.type} is too hot`,
          body: `${z.temp} °C, over its ${z.trip.type} trip point of ${z.trip.temp} °C.`,
          link: LINK,
        });
      } else if (z.temp <= z.trip.temp - t.thermalClearBelowC) {
        deps.incidents.clear(key, {
          category: 'system',
          title: `${z.type} has cooled down`,
          body: `${z.temp} °C.`,
          link: LINK,
        });
      }
    }
  }

  return function check(): void {
    disks();
    memory();
    thermal();
  };
}
