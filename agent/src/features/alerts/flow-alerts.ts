import type { IncidentNotifier } from './incidents.js';

/** A flow run that has ended, as the flows service reports it. */
export interface EndedFlowRun {
  flowId: number;
  flowName: string;
  /** The flow's owner, who is told (a member's flow is nobody else's business). */
  ownerId: number | null;
  runId: number;
  status: 'succeeded' | 'failed';
  error: string | null;
}

export const flowIncidentKey = (flowId: number) => `flow:${flowId}:failed`;

/** A failing flow opens one incident per flow; its next successful run clears it. */
export function createFlowAlerts(deps: { incidents: IncidentNotifier }) {
  return function onRunEnded(run: EndedFlowRun): void {
    const key = flowIncidentKey(run.flowId);
    const link = `/flowforge`;
    if (run.status === 'failed') {
      deps.incidents.open(key, {
        userId: run.ownerId,
        category: 'flows',
        level: 'error',
        title: `Flow ${run.flowName} failed`,
        body: `Run ${run.runId}: ${run.error ?? 'it failed'}`,
        link,
      });
    } else {
      deps.incidents.clear(key, {
        userId: run.ownerId,
        category: 'flows',
        title: `Flow ${run.flowName} runs again`,
        body: `Run ${run.runId} succeeded.`,
        link,
      });
    }
  };
}
