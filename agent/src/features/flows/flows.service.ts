import {
  flowDefinitionSchema,
  type Flow,
  type FlowDefinition,
  type FlowExport,
  type FlowRun,
  type FlowSummary,
  type FlowVersion,
} from '../../contract/flows.js';
import { badRequest, conflict, notFound } from '../../lib/http-error.js';
import type { EndedFlowRun } from '../alerts/index.js';
import type { AuditRecorder } from '../audit/index.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { LivePublisher } from '../../live/hub.js';
import { createFlowAccess, isAdmin, registerFlowTopics, type Actor } from './flow-access.js';
import { createFlowApiKeys } from './flow-api-keys.js';
import { createClipStore } from './flow-clips.js';
import { compilePattern } from './flow-pattern.js';
import { createFlowRuns } from './flow-runs.js';
import { nextRuns } from './flow-scheduler.js';
import { createFlowSecretStore, secretNames } from './flow-secret-store.js';
import { createFlowTriggers } from './flow-triggers.js';
import { parseStages, parseTrigger, toFlow, toFlowSummary, toFlowVersion, toRun } from './flow-views.js';
import type { FlowPorts } from './flows.ports.js';
import type { FlowWithOwner, FlowsRepository } from './flows.repository.js';

/*
 * FlowForge's one service, as the routes, the satellites and app.ts see it. It keeps the flows
 * themselves (create, edit, versions, export) and puts the parts together; the rest lives by
 * concern beside it:
 *   flow-access.ts      who may see a flow or run (owner or admin; others get 404)
 *   flow-secret-store.ts  sealing and opening a flow's secrets
 *   flow-views.ts       stored rows → API answers (pure)
 *   flow-triggers.ts    every way a run starts: webhook, schedule, person, API key, satellite, retry/replay
 *   flow-runs.ts        a run's life: record, execute stage by stage, publish, settle
 *   flow-clips.ts       the audio kept with runs
 *   flow-api-keys.ts    the keys programs run flows with
 */

export { MAX_RUNS_PER_FLOW, RUN_BROKE_OFF, type RunHooks } from './flow-runs.js';
export { API_KEY_RATE, WEBHOOK_RATE, type StreamedVoiceRun } from './flow-triggers.js';
export type { Actor } from './flow-access.js';

/** Versions kept per flow; the oldest are dropped past this. */
export const MAX_VERSIONS_PER_FLOW = 50;
/** Runs listed per request. */
export const RUNS_PAGE = 50;

export function createFlowsService(deps: {
  repo: FlowsRepository;
  secrets: SecretBox;
  live: LivePublisher;
  ports: FlowPorts;
  log: Logger;
  dataDir: string;
  /** The security event log: API keys made and revoked (who and where come from the request). */
  audit?: AuditRecorder;
  /** Told when a run has ended, succeeded or failed (the alerts). */
  onRunEnded?: (run: EndedFlowRun) => void;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const { repo } = deps;
  const secrets = createFlowSecretStore(deps.secrets);
  const clips = createClipStore(deps.dataDir);
  // Marks the runs the last stop interrupted as failed before anything else reads them.
  const runs = createFlowRuns({
    repo,
    secrets,
    clips,
    live: deps.live,
    ports: deps.ports,
    log: deps.log,
    onRunEnded: deps.onRunEnded,
    now,
  });
  const access = createFlowAccess(repo);
  registerFlowTopics(deps.live, access);
  const { ownFlow, ownRun } = access;
  const triggers = createFlowTriggers({ repo, runs, access, secrets, clips, log: deps.log, now });
  const apiKeys = createFlowApiKeys({ repo, audit: deps.audit });

  function view(flow: FlowWithOwner): Flow {
    return toFlow(flow, {
      secrets: secrets.open(flow.secretsSealed),
      webhookSecret: () => secrets.webhookSecret(flow),
      listeningUntil: () => triggers.listeningUntil(flow.id),
      now,
    });
  }

  function checkDefinition(definition: FlowDefinition) {
    if (definition.trigger.type === 'schedule') {
      nextRuns(definition.trigger.cron, definition.trigger.timezone, 1);
    }
    for (const stage of definition.stages) {
      // A fixed pattern is checked now; one built from {{placeholders}} only when a run renders it.
      if (stage.kind !== 'condition' || stage.config.operator !== 'matches') continue;
      if (stage.config.compareTo.includes('{{')) continue;
      try {
        compilePattern(stage.config.compareTo, stage.config.ignoreCase);
      } catch (error) {
        throw badRequest(`Stage "${stage.name}": ${(error as Error).message}`);
      }
    }
  }

  return {
    // ---- flows ----

    list(actor: Actor): FlowSummary[] {
      const rows = repo.list(isAdmin(actor) ? null : actor.id);
      const last = repo.lastRuns(rows.map((r) => r.id));
      return rows.map((flow) => toFlowSummary(flow, last.get(flow.id)));
    },

    get(actor: Actor, id: number): Flow {
      return view(ownFlow(actor, id));
    },

    create(actor: Actor, definition: FlowDefinition): Flow {
      checkDefinition(definition);
      const { stages, secretsSealed } = secrets.separate(definition.stages, new Map(), definition.secrets);
      const row = repo.create({
        ownerId: actor.id,
        name: definition.name,
        description: definition.description,
        trigger: JSON.stringify(definition.trigger),
        stages: JSON.stringify(stages),
        secretsSealed,
        webhookSecretSealed: secrets.newWebhookSecret(),
      });
      return view(repo.get(row.id)!);
    },

    update(actor: Actor, id: number, definition: FlowDefinition): Flow {
      const current = ownFlow(actor, id);
      checkDefinition(definition);
      const { stages, secretsSealed } = secrets.separate(
        definition.stages,
        secrets.open(current.secretsSealed),
        definition.secrets,
      );
      const row = repo.update(id, {
        name: definition.name,
        description: definition.description,
        trigger: JSON.stringify(definition.trigger),
        stages: JSON.stringify(stages),
        secretsSealed,
      })!;
      repo.pruneVersions(id, MAX_VERSIONS_PER_FLOW);
      triggers.syncSchedule(row);
      return view(repo.get(id)!);
    },

    setStatus(actor: Actor, id: number, status: 'draft' | 'active'): Flow {
      const flow = ownFlow(actor, id);
      if (status === 'active' && parseStages(flow.stages).length === 0) {
        throw conflict('Add at least one stage before activating the flow');
      }
      repo.setStatus(id, status);
      triggers.syncSchedule({ ...flow, status });
      return view(repo.get(id)!);
    },

    remove(actor: Actor, id: number): void {
      ownFlow(actor, id);
      const runIds = repo.runIds(id);
      repo.delete(id);
      triggers.forget(id);
      clips.removeAudio(runIds);
    },

    versions(actor: Actor, id: number): FlowVersion[] {
      ownFlow(actor, id);
      return repo.versions(id).map(toFlowVersion);
    },

    /** Saves an earlier version's content as the newest version. */
    restore(actor: Actor, id: number, version: number): Flow {
      ownFlow(actor, id);
      const old = repo.version(id, version);
      if (!old) throw notFound(`Flow ${id} has no version ${version}`);
      const row = repo.update(id, {
        name: old.name,
        description: old.description,
        trigger: old.trigger,
        stages: old.stages,
        secretsSealed: old.secretsSealed,
      })!;
      repo.pruneVersions(id, MAX_VERSIONS_PER_FLOW);
      triggers.syncSchedule(row);
      return view(repo.get(id)!);
    },

    exportFlow(actor: Actor, id: number): FlowExport {
      const flow = ownFlow(actor, id);
      // Stored stages already hold no secret values; hasValue is not part of an export either.
      const stages = parseStages(flow.stages);
      return {
        format: 'nexus-flow',
        formatVersion: 1,
        flow: flowDefinitionSchema.parse({
          name: flow.name,
          description: flow.description,
          trigger: parseTrigger(flow.trigger),
          stages,
          // The names travel, so the flow still says what it needs; the values never do.
          secrets: secretNames(secrets.open(flow.secretsSealed)).map(({ name }) => ({ name })),
        }),
      };
    },

    // ---- triggers (flow-triggers.ts) ----

    schedulePreview: triggers.schedulePreview,

    listen(actor: Actor, id: number): Flow {
      const flow = ownFlow(actor, id);
      triggers.listen(flow);
      return view(flow);
    },

    stopListening(actor: Actor, id: number): Flow {
      const flow = ownFlow(actor, id);
      triggers.stopListening(id);
      return view(flow);
    },

    webhook: triggers.webhook,
    runAsUser: triggers.runAsUser,
    runWithApiKey: triggers.runWithApiKey,
    runFromSatellite: triggers.runFromSatellite,
    voiceFlowForSatellite: triggers.voiceFlowForSatellite,
    startStreamedVoiceRun: triggers.startStreamedVoiceRun,

    // ---- runs ----

    runs(actor: Actor, flowId: number): FlowRun[] {
      ownFlow(actor, flowId);
      return repo.runs(flowId, RUNS_PAGE).map(toRun);
    },

    run(actor: Actor, runId: number): FlowRun {
      return toRun(ownRun(actor, runId).run);
    },

    audio(actor: Actor, runId: number, which: 'clip' | 'speech'): Buffer {
      const { run } = ownRun(actor, runId);
      const file = which === 'clip' ? run.clipFile : clips.speechFile(run.id);
      if (!file) throw notFound('This run has no clip');
      try {
        return clips.read(file);
      } catch {
        throw notFound(which === 'clip' ? 'This run has no clip' : 'This run said nothing');
      }
    },

    retry: triggers.retry,
    replay: triggers.replay,

    // ---- API keys (flow-api-keys.ts) ----

    apiKeys: apiKeys.apiKeys,
    createApiKey: apiKeys.createApiKey,
    revokeApiKey: apiKeys.revokeApiKey,

    // ---- lifecycle ----

    startScheduler: triggers.startScheduler,
    stop: triggers.stop,
    idle: runs.idle,
  };
}

export type FlowsService = ReturnType<typeof createFlowsService>;
