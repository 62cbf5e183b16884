import { FLOWS_TOPIC } from '../../contract/flows.js';
import { notFound } from '../../lib/http-error.js';
import type { LivePublisher } from '../../live/hub.js';
import type { FlowWithOwner, FlowsRepository } from './flows.repository.js';
import type { FlowRunRow } from './flows.table.js';

/*
 * Who may see and change a flow and its runs: its owner, and admins. Every signed-in entry point
 * (the service's methods and the live topics) asks here, so the rule and its answer (404, never
 * 403, so ids do not reveal what exists) are written once.
 */

export interface Actor {
  id: number;
  role: 'user' | 'admin' | 'superadmin';
}

export const isAdmin = (actor: Actor) => actor.role === 'admin' || actor.role === 'superadmin';

export function createFlowAccess(repo: FlowsRepository) {
  function ownFlow(actor: Actor, id: number): FlowWithOwner {
    const flow = repo.get(id);
    // Someone else's flow is not found, so ids do not reveal what exists.
    if (!flow || (flow.ownerId !== actor.id && !isAdmin(actor))) throw notFound(`No flow with id ${id}`);
    return flow;
  }

  function ownRun(actor: Actor, runId: number): { run: FlowRunRow; flow: FlowWithOwner } {
    const run = repo.run(runId);
    if (!run) throw notFound(`No run with id ${runId}`);
    const flow = repo.get(run.flowId);
    if (!flow || (flow.ownerId !== actor.id && !isAdmin(actor))) throw notFound(`No run with id ${runId}`);
    return { run, flow };
  }

  return { ownFlow, ownRun };
}

export type FlowAccess = ReturnType<typeof createFlowAccess>;

/** The live topics of runs (flows.run.<id>, flows.<id>.runs): subscribed to only by who may see them. */
export function registerFlowTopics(live: LivePublisher, access: FlowAccess) {
  live.registerTopic(FLOWS_TOPIC, {
    allow: (user, topic) => {
      const actor = { id: user.id, role: user.role as Actor['role'] };
      const runMatch = /^flows\.run\.(\d+)$/.exec(topic);
      const flowMatch = /^flows\.(\d+)\.runs$/.exec(topic);
      try {
        if (runMatch) access.ownRun(actor, Number(runMatch[1]));
        else if (flowMatch) access.ownFlow(actor, Number(flowMatch[1]));
        else return false;
        return true;
      } catch {
        return false;
      }
    },
  });
}
