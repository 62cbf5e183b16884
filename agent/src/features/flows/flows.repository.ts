import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../auth/index.js';
import {
  flowApiKeys,
  flowRuns,
  flowVersions,
  flows,
  type FlowApiKeyRow,
  type FlowRow,
  type FlowRunRow,
  type FlowVersionRow,
} from './flows.table.js';

export type FlowWithOwner = FlowRow & { ownerName: string; ownerRole: 'user' | 'admin' | 'superadmin' };
export type NewFlow = Pick<
  FlowRow,
  'ownerId' | 'name' | 'description' | 'trigger' | 'stages' | 'secretsSealed' | 'webhookSecretSealed'
>;
export type FlowContent = Pick<FlowRow, 'name' | 'description' | 'trigger' | 'stages' | 'secretsSealed'>;

const withOwner = {
  flow: flows,
  ownerName: users.name,
  ownerRole: users.role,
};

function flatten(row: {
  flow: FlowRow;
  ownerName: string;
  ownerRole: FlowWithOwner['ownerRole'];
}): FlowWithOwner {
  return { ...row.flow, ownerName: row.ownerName, ownerRole: row.ownerRole };
}

export function createFlowsRepository(db: Db, now: () => number = Date.now) {
  function addVersion(flowId: number, version: number, content: FlowContent) {
    db.insert(flowVersions)
      .values({ flowId, version, ...content, createdAt: new Date(now()) })
      .run();
  }

  return {
    list(ownerId: number | null): FlowWithOwner[] {
      const query = db.select(withOwner).from(flows).innerJoin(users, eq(users.id, flows.ownerId));
      const rows =
        ownerId === null
          ? query.orderBy(desc(flows.updatedAt)).all()
          : query.where(eq(flows.ownerId, ownerId)).orderBy(desc(flows.updatedAt)).all();
      return rows.map(flatten);
    },

    get(id: number): FlowWithOwner | undefined {
      const row = db
        .select(withOwner)
        .from(flows)
        .innerJoin(users, eq(users.id, flows.ownerId))
        .where(eq(flows.id, id))
        .get();
      return row ? flatten(row) : undefined;
    },

    activeWithTrigger(type: string): FlowRow[] {
      return db
        .select()
        .from(flows)
        .where(and(eq(flows.status, 'active'), sql`json_extract(${flows.trigger}, '$.type') = ${type}`))
        .all();
    },

    create(values: NewFlow): FlowRow {
      return db.transaction(() => {
        const t = new Date(now());
        const row = db
          .insert(flows)
          .values({ ...values, version: 1, createdAt: t, updatedAt: t })
          .returning()
          .get();
        addVersion(row.id, 1, values);
        return row;
      });
    },

    /** Saves new content as the next version. */
    update(id: number, content: FlowContent): FlowRow | undefined {
      return db.transaction(() => {
        const current = db.select().from(flows).where(eq(flows.id, id)).get();
        if (!current) return undefined;
        const version = current.version + 1;
        const row = db
          .update(flows)
          .set({ ...content, version, updatedAt: new Date(now()) })
          .where(eq(flows.id, id))
          .returning()
          .get();
        addVersion(id, version, content);
        return row;
      });
    },

    setStatus(id: number, status: FlowRow['status']): void {
      db.update(flows)
        .set({ status, updatedAt: new Date(now()) })
        .where(eq(flows.id, id))
        .run();
    },

    delete(id: number): boolean {
      return db.delete(flows).where(eq(flows.id, id)).run().changes > 0;
    },

    versions(flowId: number): FlowVersionRow[] {
      return db
        .select()
        .from(flowVersions)
        .where(eq(flowVersions.flowId, flowId))
        .orderBy(desc(flowVersions.version))
        .all();
    },

    version(flowId: number, version: number): FlowVersionRow | undefined {
      return db
        .select()
        .from(flowVersions)
        .where(and(eq(flowVersions.flowId, flowId), eq(flowVersions.version, version)))
        .get();
    },

    pruneVersions(flowId: number, keep: number): void {
      const cutoff = db
        .select({ version: flowVersions.version })
        .from(flowVersions)
        .where(eq(flowVersions.flowId, flowId))
        .orderBy(desc(flowVersions.version))
        .limit(1)
        .offset(keep - 1)
        .get();
      if (cutoff) {
        db.delete(flowVersions)
          .where(and(eq(flowVersions.flowId, flowId), lt(flowVersions.version, cutoff.version)))
          .run();
      }
    },

    // ---- runs ----

    insertRun(values: Omit<FlowRunRow, 'id' | 'finishedAt' | 'durationMs' | 'error'>): FlowRunRow {
      return db.insert(flowRuns).values(values).returning().get();
    },

    updateRun(
      id: number,
      changes: Partial<
        Pick<
          FlowRunRow,
          'status' | 'stages' | 'error' | 'transcript' | 'finishedAt' | 'durationMs' | 'clipFile' | 'input'
        >
      >,
    ): void {
      db.update(flowRuns).set(changes).where(eq(flowRuns.id, id)).run();
    },

    run(id: number): FlowRunRow | undefined {
      return db.select().from(flowRuns).where(eq(flowRuns.id, id)).get();
    },

    runs(flowId: number, limit: number): FlowRunRow[] {
      return db
        .select()
        .from(flowRuns)
        .where(eq(flowRuns.flowId, flowId))
        .orderBy(desc(flowRuns.id))
        .limit(limit)
        .all();
    },

    lastRuns(flowIds: number[]): Map<number, FlowRunRow> {
      if (!flowIds.length) return new Map();
      const latest = db
        .select({ id: sql<number>`max(${flowRuns.id})` })
        .from(flowRuns)
        .where(inArray(flowRuns.flowId, flowIds))
        .groupBy(flowRuns.flowId)
        .all()
        .map((r) => r.id);
      if (!latest.length) return new Map();
      const rows = db.select().from(flowRuns).where(inArray(flowRuns.id, latest)).all();
      return new Map(rows.map((r) => [r.flowId, r]));
    },

    /** Deletes all but the newest `keep` runs of a flow; returns the ids of the deleted ones. */
    pruneRuns(flowId: number, keep: number): number[] {
      const cutoff = db
        .select({ id: flowRuns.id })
        .from(flowRuns)
        .where(eq(flowRuns.flowId, flowId))
        .orderBy(desc(flowRuns.id))
        .limit(1)
        .offset(keep)
        .get();
      if (!cutoff) return [];
      const old = and(eq(flowRuns.flowId, flowId), sql`${flowRuns.id} <= ${cutoff.id}`);
      const ids = db
        .select({ id: flowRuns.id })
        .from(flowRuns)
        .where(old)
        .all()
        .map((r) => r.id);
      db.delete(flowRuns).where(old).run();
      return ids;
    },

    runIds(flowId: number): number[] {
      return db
        .select({ id: flowRuns.id })
        .from(flowRuns)
        .where(eq(flowRuns.flowId, flowId))
        .all()
        .map((r) => r.id);
    },

    /** Runs left 'running' by a process that stopped mid-run. */
    markInterrupted(): number {
      return db
        .update(flowRuns)
        .set({
          status: 'failed',
          error: 'The agent stopped while this run was in progress',
          finishedAt: new Date(now()),
        })
        .where(eq(flowRuns.status, 'running'))
        .run().changes;
    },

    // ---- API keys ----

    apiKeys(userId: number | null): FlowApiKeyRow[] {
      const query = db.select().from(flowApiKeys);
      return (userId === null ? query : query.where(eq(flowApiKeys.userId, userId)))
        .orderBy(desc(flowApiKeys.id))
        .all();
    },

    apiKey(id: number): FlowApiKeyRow | undefined {
      return db.select().from(flowApiKeys).where(eq(flowApiKeys.id, id)).get();
    },

    apiKeyByHash(hash: string): FlowApiKeyRow | undefined {
      return db.select().from(flowApiKeys).where(eq(flowApiKeys.keyHash, hash)).get();
    },

    insertApiKey(
      values: Omit<FlowApiKeyRow, 'id' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>,
    ): FlowApiKeyRow {
      return db
        .insert(flowApiKeys)
        .values({ ...values, createdAt: new Date(now()) })
        .returning()
        .get();
    },

    revokeApiKey(id: number): void {
      db.update(flowApiKeys)
        .set({ revokedAt: new Date(now()) })
        .where(eq(flowApiKeys.id, id))
        .run();
    },

    touchApiKey(id: number): void {
      db.update(flowApiKeys)
        .set({ lastUsedAt: new Date(now()) })
        .where(eq(flowApiKeys.id, id))
        .run();
    },
  };
}

export type FlowsRepository = ReturnType<typeof createFlowsRepository>;
