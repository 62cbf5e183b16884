import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Deployment, DeploymentOutcome } from '../../contract/docker.js';
import {
  dockerDeployments,
  dockerStacks,
  type DockerDeploymentRow,
  type DockerStackRow,
} from './docker.table.js';

function toDeployment(row: DockerDeploymentRow): Deployment {
  return {
    id: row.id,
    stack: row.stack,
    action: row.action,
    catalogApp: row.catalogApp,
    user: { id: row.userId, name: row.userName },
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    result: row.result,
    message: row.message,
    outcome: row.outcome ?? null,
  };
}

export function createDockerRepository(db: Db, now: () => number = Date.now) {
  return {
    getStack(name: string): DockerStackRow | undefined {
      return db.select().from(dockerStacks).where(eq(dockerStacks.name, name)).get();
    },

    listStacks(): DockerStackRow[] {
      return db.select().from(dockerStacks).all();
    },

    saveStack(stack: {
      name: string;
      compose: string;
      variablesSealed: string;
      catalogApp: string | null;
      userId: number | null;
      /** Defaults to hub; a redeploy keeps the stack where it is. */
      target?: 'hub' | 'fleet';
    }): void {
      const t = new Date(now());
      db.insert(dockerStacks)
        .values({ ...stack, createdBy: stack.userId, createdAt: t, updatedAt: t })
        .onConflictDoUpdate({
          target: dockerStacks.name,
          set: {
            compose: stack.compose,
            variablesSealed: stack.variablesSealed,
            catalogApp: stack.catalogApp,
            updatedAt: t,
          },
        })
        .run();
    },

    deleteStack(name: string): void {
      db.delete(dockerStacks).where(eq(dockerStacks.name, name)).run();
    },

    startDeployment(entry: {
      stack: string;
      action: Deployment['action'];
      catalogApp: string | null;
      userId: number | null;
      userName: string;
    }): number {
      const row = db
        .insert(dockerDeployments)
        .values({ ...entry, startedAt: new Date(now()), result: 'running' })
        .returning({ id: dockerDeployments.id })
        .get();
      return row.id;
    },

    finishDeployment(
      id: number,
      result: 'success' | 'failed',
      message: string | null,
      outcome: DeploymentOutcome | null,
    ): Deployment {
      db.update(dockerDeployments)
        .set({ result, message, outcome, finishedAt: new Date(now()) })
        .where(eq(dockerDeployments.id, id))
        .run();
      return toDeployment(db.select().from(dockerDeployments).where(eq(dockerDeployments.id, id)).get()!);
    },

    listDeployments(opts: { stack?: string; limit: number }): Deployment[] {
      const query = db.select().from(dockerDeployments);
      const rows = (opts.stack ? query.where(eq(dockerDeployments.stack, opts.stack)) : query)
        .orderBy(desc(dockerDeployments.startedAt), desc(dockerDeployments.id))
        .limit(opts.limit)
        .all();
      return rows.map(toDeployment);
    },

    /** Deployments left "running" by an agent that stopped mid-way are failed on start-up. */
    failInterrupted(): void {
      db.update(dockerDeployments)
        .set({
          result: 'failed',
          message: 'The agent stopped before this finished',
          finishedAt: new Date(now()),
        })
        .where(eq(dockerDeployments.result, 'running'))
        .run();
    },
  };
}

export type DockerRepository = ReturnType<typeof createDockerRepository>;
