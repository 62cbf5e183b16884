import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  networkCheckSchema,
  setupProgressSchema,
  setupResultSchema,
  type HubIdentityInput,
  type SetupInput,
  type SetupStep,
} from '@nexus/agent/contract';
import { parseShape } from '@/lib/answer-shape';
import { apiJson } from '@/lib/request';
import { authUserQueryKey } from './auth-session';
import { SETUP_PATHS, setupKeys, setupStatusShape } from './setup-status';

// The status and the hub's name are read on every first page: setup-status.ts parses them without zod.
export { SETUP_PATHS, hubIdentityQueryOptions, setupKeys, setupStatusQueryOptions } from './setup-status';

/** The first-boot wizard's own calls (agent: features/setup); its optional steps use the docker, home-assistant and llm modules. */
export const setupProgressQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: setupKeys.progress,
    queryFn: async () => setupProgressSchema.parse(await apiJson<unknown>('GET', SETUP_PATHS.progress)),
    enabled,
  });

export const networkCheckQueryOptions = () =>
  queryOptions({
    queryKey: setupKeys.networkCheck,
    queryFn: async () => networkCheckSchema.parse(await apiJson<unknown>('GET', SETUP_PATHS.networkCheck)),
    // A check is a moment: opening the step again runs it again.
    staleTime: 0,
    gcTime: 0,
  });

/**
 * Creates the owner account and the hub's identity. The answer signs the owner in: the setup is no
 * longer needed, the wizard carries on from its progress, and the header shows the new hub's name.
 */
export function useCompleteSetup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: SetupInput) =>
      setupResultSchema.parse(await apiJson<unknown>('POST', SETUP_PATHS.setup, input)),
    onSuccess: (result) => {
      client.setQueryData(setupKeys.status, { needsSetup: false, suggested: null });
      client.setQueryData(setupKeys.progress, result.progress);
      client.setQueryData(setupKeys.identity, { hubName: result.progress.hubName });
      client.setQueryData(authUserQueryKey, result.user);
    },
  });
}

/** "Skip setup": the hub answers its new status, which the wizard's gate then reads. */
export function useSkipSetup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => parseShape(setupStatusShape, await apiJson<unknown>('POST', SETUP_PATHS.skip)),
    onSuccess: (next) => client.setQueryData(setupKeys.status, next),
  });
}

/** Someone else finished the setup meanwhile: read the status again. */
export function useRefreshSetupStatus() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: setupKeys.status });
}

/** The owner's wizard: each answer is the new progress, and the header follows the hub's name in it. */
function useProgressMutation<I>(run: (input: I) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: I) => setupProgressSchema.parse(await run(input)),
    onSuccess: (next) => {
      client.setQueryData(setupKeys.progress, next);
      client.setQueryData(setupKeys.identity, { hubName: next.hubName });
    },
  });
}

export const useSaveSetupHub = () =>
  useProgressMutation((input: HubIdentityInput) => apiJson<unknown>('PUT', SETUP_PATHS.hub, input));

export const useRecordStep = () =>
  useProgressMutation(({ step, outcome }: { step: SetupStep; outcome: 'done' | 'skipped' }) =>
    apiJson<unknown>('POST', `/api/setup/steps/${step}`, { outcome }),
  );

export const useFinishSetup = () => useProgressMutation(() => apiJson<unknown>('POST', SETUP_PATHS.finish));
