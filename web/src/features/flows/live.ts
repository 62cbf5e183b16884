import { useQueryClient } from '@tanstack/react-query';
import { flowRunSchema, flowRunsTopic, type FlowRun } from '@nexus/agent/contract';
import { useLiveTopic } from '@/lib/live';
import { flowKeys } from './api';

/** Keeps a flow's run list and each run current from the `flows.<id>.runs` live topic. */
export function useFlowRunsLive(flowId: number | null) {
  const client = useQueryClient();
  return useLiveTopic(flowRunsTopic(flowId ?? 0), {
    enabled: flowId !== null,
    onEvent: (raw) => {
      const parsed = flowRunSchema.safeParse(raw);
      if (!parsed.success || flowId === null) return;
      const run = parsed.data;
      client.setQueryData<FlowRun>(flowKeys.run(run.id), run);
      // A test event ends the builder's listening.
      if (run.trigger === 'webhook_test') void client.invalidateQueries({ queryKey: flowKeys.flow(flowId) });
      client.setQueryData<FlowRun[]>(flowKeys.runs(flowId), (list) => {
        if (!list) return list;
        const at = list.findIndex((r) => r.id === run.id);
        if (at === -1) return [run, ...list];
        const next = [...list];
        next[at] = run;
        return next;
      });
    },
  });
}
