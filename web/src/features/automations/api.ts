import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { haAutomationDetailSchema, haAutomationListSchema, haAutomationSchema } from '@nexus/agent/contract';
import { ApiRequestError, apiJson } from '@/lib/request';

export const AUTOMATIONS_API = '/api/ha/automations';

export const automationKeys = {
  all: [AUTOMATIONS_API] as const,
  list: () => [AUTOMATIONS_API, 'list'] as const,
  detail: (id: string) => [AUTOMATIONS_API, 'detail', id] as const,
};

export const automationsQueryOptions = () =>
  queryOptions({
    queryKey: automationKeys.list(),
    queryFn: async () => haAutomationListSchema.parse(await apiJson<unknown>('GET', AUTOMATIONS_API)),
    // last_triggered moves when HA runs one on its own; a minute is fresh enough for "5 min ago".
    refetchInterval: 30_000,
  });

export const automationDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: automationKeys.detail(id),
    queryFn: async () =>
      haAutomationDetailSchema.parse(await apiJson<unknown>('GET', `${AUTOMATIONS_API}/${id}`)),
  });

function useInvalidating<T, R>(run: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => client.invalidateQueries({ queryKey: automationKeys.all }),
  });
}

/** Creates (id undefined) or replaces an automation from the editor's YAML. */
export function useSaveAutomation() {
  return useInvalidating(async ({ id, yaml }: { id?: string; yaml: string }) =>
    haAutomationSchema.parse(
      await apiJson<unknown>(id ? 'PUT' : 'POST', id ? `${AUTOMATIONS_API}/${id}` : AUTOMATIONS_API, {
        yaml,
      }),
    ),
  );
}

export function useDeleteAutomation() {
  return useInvalidating(async (id: string) => {
    await apiJson<unknown>('DELETE', `${AUTOMATIONS_API}/${id}`);
  });
}

export type AutomationAction = 'enable' | 'disable' | 'trigger';

export function useAutomationAction() {
  return useInvalidating(async ({ id, action }: { id: string; action: AutomationAction }) =>
    haAutomationSchema.parse(await apiJson<unknown>('POST', `${AUTOMATIONS_API}/${id}/${action}`)),
  );
}

/** The line the agent named in a refused YAML (`details.line`), for the editor to mark. */
export function errorLine(error: unknown): number | null {
  if (!(error instanceof ApiRequestError) || error.status !== 400) return null;
  try {
    const line = (JSON.parse(error.bodyText) as { details?: { line?: unknown } }).details?.line;
    return typeof line === 'number' ? line : null;
  } catch {
    return null;
  }
}
