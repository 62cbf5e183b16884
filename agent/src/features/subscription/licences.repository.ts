import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { LicencePayload } from '../../contract/subscription.js';
import { licences, type LicenceRow } from './subscription.table.js';

/** The latest activation first; the row id breaks a tie within one millisecond. */
const LATEST_FIRST = [desc(licences.activatedAt), desc(sql`rowid`)] as const;

export function createLicencesRepository(db: Db) {
  return {
    get(lid: string): LicenceRow | undefined {
      return db.select().from(licences).where(eq(licences.lid, lid)).get();
    },

    /** Every licence activated on this hub, the latest activation first. */
    list(): LicenceRow[] {
      return db
        .select()
        .from(licences)
        .orderBy(...LATEST_FIRST)
        .all();
    },

    /**
     * The latest activation, deactivated or not: it is the licence in force unless deactivated (a
     * deactivation returns the hub to the trial or Free, not to a licence it replaced).
     */
    latest(): LicenceRow | undefined {
      return db
        .select()
        .from(licences)
        .orderBy(...LATEST_FIRST)
        .limit(1)
        .get();
    },

    /** Records an activation; activating a known licence again makes it the latest and clears its deactivation. */
    activate(payload: LicencePayload, key: string, at: Date): LicenceRow {
      const values = {
        key,
        plan: payload.plan,
        hubId: payload.hub,
        issuedAt: new Date(payload.iat * 1000),
        expiresAt: new Date(payload.exp * 1000),
        notBefore: payload.nbf !== undefined ? new Date(payload.nbf * 1000) : null,
        seats: payload.seats ?? null,
        activatedAt: at,
        deactivatedAt: null,
      };
      db.insert(licences)
        .values({ lid: payload.lid, ...values })
        .onConflictDoUpdate({ target: licences.lid, set: values })
        .run();
      return this.get(payload.lid)!;
    },

    deactivate(lid: string, at: Date): void {
      db.update(licences).set({ deactivatedAt: at }).where(eq(licences.lid, lid)).run();
    },
  };
}

export type LicencesRepository = ReturnType<typeof createLicencesRepository>;
