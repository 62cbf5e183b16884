import {
  triggerSchema,
  type ApiKey,
  type Flow,
  type FlowRun,
  type FlowSummary,
  type FlowVersion,
  type Stage,
  type StageRun,
  type Trigger,
} from '../../contract/flows.js';
import { secretNames, withSecretFlags } from './flow-secret-store.js';
import { nextRuns } from './flow-scheduler.js';
import type { FlowWithOwner } from './flows.repository.js';
import type { FlowApiKeyRow, FlowRunRow, FlowVersionRow } from './flows.table.js';

/*
 * How stored flows, runs and API keys become the API's answers (contract/flows.ts). Kept apart and
 * without state of its own so that what a caller sees is decided in one place, and a change to a
 * view cannot change what is stored or run.
 */

/** Stages as stored: secret header values are moved out into the sealed map (flow-secret-store.ts). */
export type StoredStage = Stage;

// Through the schema, so triggers stored before a field was added get its default.
export const parseTrigger = (text: string): Trigger => triggerSchema.parse(JSON.parse(text));
export const parseStages = (text: string) => JSON.parse(text) as StoredStage[];

/** What toFlow needs besides the row; each is asked only when the flow's trigger needs it. */
export interface FlowViewContext {
  /** The flow's opened secrets map (values never leave: only names and hasValue flags). */
  secrets: Map<string, string>;
  /** The webhook's secret path segment (webhook flows only). */
  webhookSecret: () => string;
  /** Until when the test webhook listens, if it does (webhook flows only). */
  listeningUntil: () => number | undefined;
  now: () => number;
}

export function toFlow(flow: FlowWithOwner, ctx: FlowViewContext): Flow {
  const trigger = parseTrigger(flow.trigger);
  let webhook: Flow['webhook'] = null;
  if (trigger.type === 'webhook') {
    const base = `/api/hooks/${flow.id}/${ctx.webhookSecret()}`;
    const until = ctx.listeningUntil();
    webhook = {
      productionPath: base,
      testPath: `${base}/test`,
      listeningUntil: until && until > ctx.now() ? new Date(until).toISOString() : null,
    };
  }
  let upcoming: string[] | null = null;
  if (trigger.type === 'schedule') {
    try {
      upcoming = nextRuns(trigger.cron, trigger.timezone, 5, new Date(ctx.now()));
    } catch {
      upcoming = [];
    }
  }
  return {
    id: flow.id,
    name: flow.name,
    description: flow.description,
    status: flow.status,
    trigger,
    stages: withSecretFlags(parseStages(flow.stages), ctx.secrets),
    secrets: secretNames(ctx.secrets),
    version: flow.version,
    ownerId: flow.ownerId,
    ownerName: flow.ownerName,
    webhook,
    nextRuns: upcoming,
    createdAt: flow.createdAt.toISOString(),
    updatedAt: flow.updatedAt.toISOString(),
  };
}

/** A flow in the list: what it is and how its last run went, without its stages' configuration. */
export function toFlowSummary(flow: FlowWithOwner, lastRun: FlowRunRow | undefined): FlowSummary {
  return {
    id: flow.id,
    name: flow.name,
    description: flow.description,
    status: flow.status,
    trigger: parseTrigger(flow.trigger),
    stageKinds: parseStages(flow.stages).map((s) => s.kind),
    version: flow.version,
    ownerId: flow.ownerId,
    ownerName: flow.ownerName,
    lastRun: lastRun
      ? { id: lastRun.id, status: lastRun.status, startedAt: lastRun.startedAt.toISOString() }
      : null,
    updatedAt: flow.updatedAt.toISOString(),
  };
}

export function toFlowVersion(v: FlowVersionRow): FlowVersion {
  return {
    id: v.id,
    version: v.version,
    name: v.name,
    stageCount: parseStages(v.stages).length,
    trigger: parseTrigger(v.trigger),
    createdAt: v.createdAt.toISOString(),
  };
}

export function toRun(run: FlowRunRow): FlowRun {
  const stages = JSON.parse(run.stages) as StageRun[];
  return {
    id: run.id,
    flowId: run.flowId,
    flowVersion: run.flowVersion,
    trigger: run.trigger,
    status: run.status,
    input: JSON.parse(run.input) as unknown,
    error: run.error,
    stages,
    hasClip: run.clipFile !== null,
    hasSpeech: stages.some((s) => s.kind === 'tts' && s.status === 'succeeded' && !s.reused),
    transcript: run.transcript,
    retryOf: run.retryOf,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    durationMs: run.durationMs,
  };
}

export function toApiKey(row: FlowApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    flowIds: JSON.parse(row.flowIds) as number[],
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
