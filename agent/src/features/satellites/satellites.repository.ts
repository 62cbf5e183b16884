import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { satellites, type SatelliteRow } from './satellites.table.js';

export type NewSatellite = Pick<SatelliteRow, 'name' | 'room' | 'activeWakeWord' | 'tokenHash'>;
export type SatelliteChanges = Partial<
  Pick<
    SatelliteRow,
    | 'name'
    | 'room'
    | 'activeWakeWord'
    | 'tokenHash'
    | 'signalStrength'
    | 'reportedStatus'
    | 'ipAddress'
    | 'firmwareVersion'
    | 'lastSeenAt'
  >
>;

export function createSatellitesRepository(db: Db, now: () => number = Date.now) {
  return {
    list(): SatelliteRow[] {
      return db.select().from(satellites).orderBy(asc(satellites.name), asc(satellites.id)).all();
    },

    get(id: number): SatelliteRow | undefined {
      return db.select().from(satellites).where(eq(satellites.id, id)).get();
    },

    create(values: NewSatellite): SatelliteRow {
      const t = new Date(now());
      return db
        .insert(satellites)
        .values({ ...values, createdAt: t, updatedAt: t })
        .returning()
        .get();
    },

    update(id: number, changes: SatelliteChanges): SatelliteRow | undefined {
      return db
        .update(satellites)
        .set({ ...changes, updatedAt: new Date(now()) })
        .where(eq(satellites.id, id))
        .returning()
        .get();
    },

    delete(id: number): boolean {
      return db.delete(satellites).where(eq(satellites.id, id)).run().changes > 0;
    },
  };
}

export type SatellitesRepository = ReturnType<typeof createSatellitesRepository>;
