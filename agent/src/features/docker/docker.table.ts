import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { DEPLOYMENT_ACTIONS, type DeploymentOutcome } from '../../contract/docker.js';
import { users } from '../auth/index.js';

/** Stacks deployed from the console: their compose file is kept so they can be redeployed. */
export const dockerStacks = sqliteTable('docker_stacks', {
  name: text('name').primaryKey(),
  compose: text('compose').notNull(),
  /** The ${VARIABLE} values, sealed by the SecretBox: catalog settings may hold tokens. */
  variablesSealed: text('variables_sealed').notNull(),
  catalogApp: text('catalog_app'),
  /** hub: containers on this engine; fleet: swarm services (issue 24). */
  target: text('target', { enum: ['hub', 'fleet'] })
    .notNull()
    .default('hub'),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/** Who did what to which stack, when, and how it ended. */
export const dockerDeployments = sqliteTable(
  'docker_deployments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    stack: text('stack').notNull(),
    action: text('action', { enum: DEPLOYMENT_ACTIONS }).notNull(),
    catalogApp: text('catalog_app'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Kept as it was when they acted, so history survives the account. */
    userName: text('user_name').notNull(),
    startedAt: integer('started_at', { mode: 'timestamp_ms' }).notNull(),
    finishedAt: integer('finished_at', { mode: 'timestamp_ms' }),
    result: text('result', { enum: ['running', 'success', 'failed'] }).notNull(),
    message: text('message'),
    outcome: text('outcome', { mode: 'json' }).$type<DeploymentOutcome>(),
  },
  (t) => [
    index('docker_deployments_stack_idx').on(t.stack),
    index('docker_deployments_started_idx').on(t.startedAt),
  ],
);

export type DockerStackRow = typeof dockerStacks.$inferSelect;
export type DockerDeploymentRow = typeof dockerDeployments.$inferSelect;
