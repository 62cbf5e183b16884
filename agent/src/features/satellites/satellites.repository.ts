import { and, asc, eq, gte, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { SatelliteSource } from '../../contract/satellites.js';
import { satelliteSignalSamples, satellites, type SatelliteRow } from './satellites.table.js';

export type NewSatellite = Pick<SatelliteRow, 'name'> &
  Partial<
    Pick<
      SatelliteRow,
      | 'source'
      | 'externalId'
      | 'host'
      | 'port'
      | 'room'
      | 'activeWakeWord'
      | 'tokenHash'
      | 'model'
      | 'manufacturer'
      | 'firmwareVersion'
    >
  >;
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
    | 'model'
    | 'manufacturer'
    | 'muted'
    | 'host'
    | 'port'
    | 'lastSeenAt'
  >
>;

export function createSatellitesRepository(db: Db, now: () => number = Date.now) {
  return {
    list(source?: SatelliteSource): SatelliteRow[] {
      return db
        .select()
        .from(satellites)
        .where(source ? eq(satellites.source, source) : undefined)
        .orderBy(asc(satellites.name), asc(satellites.id))
        .all();
    },

    get(id: number): SatelliteRow | undefined {
      return db.select().from(satellites).where(eq(satellites.id, id)).get();
    },

    byExternalId(source: SatelliteSource, externalId: string): SatelliteRow | undefined {
      return db
        .select()
        .from(satellites)
        .where(and(eq(satellites.source, source), eq(satellites.externalId, externalId)))
        .get();
    },

    byAddress(host: string, port: number): SatelliteRow | undefined {
      return db
        .select()
        .from(satellites)
        .where(and(eq(satellites.host, host), eq(satellites.port, port)))
        .get();
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

    addSignalSample(satelliteId: number, at: number, dbm: number): void {
      db.insert(satelliteSignalSamples)
        .values({ satelliteId, at: new Date(at), dbm })
        .run();
    },

    signalSamples(satelliteId: number, from: number): Array<{ at: number; dbm: number }> {
      return db
        .select({ at: satelliteSignalSamples.at, dbm: satelliteSignalSamples.dbm })
        .from(satelliteSignalSamples)
        .where(
          and(
            eq(satelliteSignalSamples.satelliteId, satelliteId),
            gte(satelliteSignalSamples.at, new Date(from)),
          ),
        )
        .orderBy(asc(satelliteSignalSamples.at))
        .all()
        .map((r) => ({ at: r.at.getTime(), dbm: r.dbm }));
    },

    pruneSignalSamples(before: number): number {
      return db
        .delete(satelliteSignalSamples)
        .where(lt(satelliteSignalSamples.at, new Date(before)))
        .run().changes;
    },
  };
}

export type SatellitesRepository = ReturnType<typeof createSatellitesRepository>;
