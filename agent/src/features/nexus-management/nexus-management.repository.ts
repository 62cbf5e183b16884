import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { conflict } from '../../lib/http-error.js';
import {
  hubAccessTokens,
  remoteHubs,
  type HubAccessTokenRow,
  type RemoteHubRow,
} from './nexus-management.table.js';

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
const HUB_EXISTS_MESSAGE = 'A hub with this address already exists';

export function createNexusManagementRepository(db: Db, now: () => number = Date.now) {
  const stamp = () => new Date(now());
  return {
    listHubs(): RemoteHubRow[] {
      return db.select().from(remoteHubs).orderBy(asc(remoteHubs.name), asc(remoteHubs.id)).all();
    },

    findHub(id: number): RemoteHubRow | undefined {
      return db.select().from(remoteHubs).where(eq(remoteHubs.id, id)).get();
    },

    addHub(input: { name: string; url: string; tokenSealed: string }): RemoteHubRow {
      try {
        return db
          .insert(remoteHubs)
          .values({ ...input, createdAt: stamp(), updatedAt: stamp() })
          .returning()
          .get();
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(HUB_EXISTS_MESSAGE);
        throw error;
      }
    },

    updateHub(
      id: number,
      changes: Partial<{ name: string; url: string; tokenSealed: string }>,
    ): RemoteHubRow | undefined {
      try {
        return (
          db
            .update(remoteHubs)
            // A changed address or token makes the last answer meaningless.
            .set({
              ...changes,
              ...(changes.url || changes.tokenSealed ? { lastResult: null } : {}),
              updatedAt: stamp(),
            })
            .where(eq(remoteHubs.id, id))
            .returning()
            .get()
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(HUB_EXISTS_MESSAGE);
        throw error;
      }
    },

    recordCheck(id: number, result: string, seen: boolean): void {
      db.update(remoteHubs)
        .set({ lastResult: result, lastCheckedAt: stamp(), ...(seen ? { lastSeenAt: stamp() } : {}) })
        .where(eq(remoteHubs.id, id))
        .run();
    },

    deleteHub(id: number): boolean {
      return db.delete(remoteHubs).where(eq(remoteHubs.id, id)).run().changes === 1;
    },

    listTokens(): HubAccessTokenRow[] {
      return db.select().from(hubAccessTokens).orderBy(asc(hubAccessTokens.id)).all();
    },

    addToken(input: {
      name: string;
      tokenHash: string;
      prefix: string;
      createdBy: number | null;
    }): HubAccessTokenRow {
      return db
        .insert(hubAccessTokens)
        .values({ ...input, createdAt: stamp() })
        .returning()
        .get();
    },

    findTokenByHash(tokenHash: string): HubAccessTokenRow | undefined {
      return db.select().from(hubAccessTokens).where(eq(hubAccessTokens.tokenHash, tokenHash)).get();
    },

    touchToken(id: number): void {
      db.update(hubAccessTokens).set({ lastUsedAt: stamp() }).where(eq(hubAccessTokens.id, id)).run();
    },

    deleteToken(id: number): boolean {
      return db.delete(hubAccessTokens).where(eq(hubAccessTokens.id, id)).run().changes === 1;
    },
  };
}

export type NexusManagementRepository = ReturnType<typeof createNexusManagementRepository>;
