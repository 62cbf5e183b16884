import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  flowRunTopic,
  apiKeySchema,
  createdApiKeySchema,
  flowExportSchema,
  flowRunSchema,
  flowSchema,
  flowSummarySchema,
  flowVersionSchema,
  schedulePreviewSchema,
  type CreateApiKeyInput,
  type FlowDefinitionInput,
  type FlowExport,
  type FlowRun,
  flowRunsTopic,
} from '@nexus/agent/contract';
import { apiJson, apiRequest } from '@/lib/request';
import { useLiveTopic } from '@/lib/live';
import { rereadQueries } from '@/lib/query-client';

export const FLOWS_API = '/api/flows';

/** Keys joined with '/' are the paths they fetch (spec §7). */
export const flowKeys = {
  all: [FLOWS_API] as const,
  list: () => [FLOWS_API] as const,
  flow: (id: number) => [FLOWS_API, id] as const,
  versions: (id: number) => [FLOWS_API, id, 'versions'] as const,
  runs: (id: number) => [FLOWS_API, id, 'runs'] as const,
  run: (runId: number) => [FLOWS_API, 'runs', runId] as const,
  apiKeys: () => [FLOWS_API, 'api-keys'] as const,
  preview: (cron: string, timezone: string) =>
    [
      FLOWS_API,
      `schedule/preview?cron=${encodeURIComponent(cron)}&timezone=${encodeURIComponent(timezone)}`,
    ] as const,
};

export const flowsQueryOptions = () =>
  queryOptions({
    queryKey: flowKeys.list(),
    queryFn: async () => flowSummarySchema.array().parse(await apiJson<unknown>('GET', FLOWS_API)),
  });

export const flowQueryOptions = (id: number) =>
  queryOptions({
    queryKey: flowKeys.flow(id),
    queryFn: async () => flowSchema.parse(await apiJson<unknown>('GET', `${FLOWS_API}/${id}`)),
  });

export const versionsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: flowKeys.versions(id),
    queryFn: async () =>
      flowVersionSchema.array().parse(await apiJson<unknown>('GET', `${FLOWS_API}/${id}/versions`)),
  });

export const runsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: flowKeys.runs(id),
    queryFn: async () =>
      flowRunSchema.array().parse(await apiJson<unknown>('GET', `${FLOWS_API}/${id}/runs`)),
  });

/** One run; polled while it runs in case a live event was missed before the subscription began. */
export const runQueryOptions = (runId: number) =>
  queryOptions({
    queryKey: flowKeys.run(runId),
    queryFn: async () => flowRunSchema.parse(await apiJson<unknown>('GET', `${FLOWS_API}/runs/${runId}`)),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1000 : false),
    enabled: runId > 0,
  });

export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: flowKeys.apiKeys(),
    queryFn: async () => apiKeySchema.array().parse(await apiJson<unknown>('GET', `${FLOWS_API}/api-keys`)),
  });

export const schedulePreviewQueryOptions = (cron: string, timezone: string) =>
  queryOptions({
    queryKey: flowKeys.preview(cron, timezone),
    queryFn: async () =>
      schedulePreviewSchema.parse(
        await apiJson<unknown>(
          'GET',
          `${FLOWS_API}/schedule/preview?cron=${encodeURIComponent(cron)}&timezone=${encodeURIComponent(timezone)}`,
        ),
      ).nextRuns,
    enabled: cron.trim().length > 0,
    retry: false,
  });

export function useCreateFlow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (flow: FlowDefinitionInput) =>
      flowSchema.parse(await apiJson<unknown>('POST', FLOWS_API, flow)),
    onSuccess: () => client.invalidateQueries({ queryKey: flowKeys.all }),
  });
}

export function useImportFlow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (file: FlowExport) =>
      flowSchema.parse(await apiJson<unknown>('POST', `${FLOWS_API}/import`, file)),
    onSuccess: () => client.invalidateQueries({ queryKey: flowKeys.all }),
  });
}

export function useSaveFlow(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (flow: FlowDefinitionInput) =>
      flowSchema.parse(await apiJson<unknown>('PUT', `${FLOWS_API}/${id}`, flow)),
    onSuccess: (flow) => {
      client.setQueryData(flowKeys.flow(id), flow);
      void client.invalidateQueries({ queryKey: flowKeys.all });
    },
  });
}

export function useSetFlowStatus(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (status: 'draft' | 'active') =>
      flowSchema.parse(await apiJson<unknown>('PUT', `${FLOWS_API}/${id}/status`, { status })),
    onSuccess: (flow) => {
      client.setQueryData(flowKeys.flow(id), flow);
      void client.invalidateQueries({ queryKey: flowKeys.list() });
    },
  });
}

export function useDeleteFlow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest('DELETE', `${FLOWS_API}/${id}`);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: flowKeys.all }),
  });
}

export function useRestoreVersion(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (version: number) =>
      flowSchema.parse(await apiJson<unknown>('POST', `${FLOWS_API}/${id}/versions/${version}/restore`)),
    onSuccess: (flow) => {
      client.setQueryData(flowKeys.flow(id), flow);
      void client.invalidateQueries({ queryKey: flowKeys.all });
    },
  });
}

export function useListen(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (on: boolean) =>
      flowSchema.parse(await apiJson<unknown>(on ? 'POST' : 'DELETE', `${FLOWS_API}/${id}/webhook/listen`)),
    onSuccess: (flow) => client.setQueryData(flowKeys.flow(id), flow),
  });
}

export async function exportFlow(id: number): Promise<FlowExport> {
  return flowExportSchema.parse(await apiJson<unknown>('GET', `${FLOWS_API}/${id}/export`));
}

/** Starts a run: typed input as JSON, or a recorded/uploaded clip as audio/wav. */
export function useRunFlow(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { value?: unknown; wav?: Blob }): Promise<FlowRun> => {
      const res = input.wav
        ? await fetch(`${FLOWS_API}/${id}/run`, {
            method: 'POST',
            credentials: 'include',
            headers: { 'Content-Type': 'audio/wav' },
            body: input.wav,
          })
        : await apiRequest('POST', `${FLOWS_API}/${id}/run`, { input: input.value });
      if (!res.ok) {
        const body = await res.text().catch(() => '');
        throw new Error(`${res.status}: ${body || res.statusText}`);
      }
      return flowRunSchema.parse(await res.json());
    },
    onSuccess: (run) => {
      client.setQueryData(flowKeys.run(run.id), run);
      // A short run may have finished before the live subscription began: ask once now.
      if (run.status === 'running') void client.invalidateQueries({ queryKey: flowKeys.run(run.id) });
      void client.invalidateQueries({ queryKey: flowKeys.runs(id) });
    },
  });
}

export function useRunAgain(flowId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ runId, how }: { runId: number; how: 'retry' | 'replay' }) =>
      flowRunSchema.parse(await apiJson<unknown>('POST', `${FLOWS_API}/runs/${runId}/${how}`)),
    onSuccess: () => client.invalidateQueries({ queryKey: flowKeys.runs(flowId) }),
  });
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateApiKeyInput) =>
      createdApiKeySchema.parse(await apiJson<unknown>('POST', `${FLOWS_API}/api-keys`, input)),
    onSuccess: () => client.invalidateQueries({ queryKey: flowKeys.apiKeys() }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      apiKeySchema.parse(await apiJson<unknown>('POST', `${FLOWS_API}/api-keys/${id}/revoke`)),
    onSuccess: () => client.invalidateQueries({ queryKey: flowKeys.apiKeys() }),
  });
}

// ---- runs follow the live channel

/** Keeps one run current from its own `flows.run.<id>` topic while it runs (every stage change). */
export function useFlowRunLive(runId: number | null, running: boolean) {
  const client = useQueryClient();
  return useLiveTopic(flowRunTopic(runId ?? 0), {
    enabled: runId !== null && running,
    onEvent: (raw) => {
      const parsed = flowRunSchema.safeParse(raw);
      if (parsed.success) client.setQueryData(flowKeys.run(parsed.data.id), parsed.data);
    },
  });
}

/**
 * Keeps a flow's run list and each run current from the `flows.<id>.runs` live topic; the list is
 * read again each time the agent confirms the topic (runs started before then were not pushed).
 */
export function useFlowRunsLive(flowId: number | null) {
  const client = useQueryClient();
  return useLiveTopic(flowRunsTopic(flowId ?? 0), {
    enabled: flowId !== null,
    onSubscribed: () => {
      if (flowId !== null) void rereadQueries(client, flowKeys.runs(flowId));
    },
    onEvent: (raw) => {
      const parsed = flowRunSchema.safeParse(raw);
      if (!parsed.success || flowId === null) return;
      const run = parsed.data;
      client.setQueryData<FlowRun>(flowKeys.run(run.id), run);
      // A test event ends the builder's listening.
      if (run.trigger === 'webhook_test') void rereadQueries(client, flowKeys.flow(flowId));
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
