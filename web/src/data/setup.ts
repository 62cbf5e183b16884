import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  hubIdentitySchema,
  networkCheckSchema,
  setupProgressSchema,
  setupResultSchema,
  setupStatusSchema,
  type HubIdentityInput,
  type SetupInput,
  type SetupStep,
} from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';
import { authUserQueryKey } from './auth';

/** The first-boot wizard's own calls (agent: features/setup); its optional steps use the docker, home-assistant and llm modules. */
export const SETUP_PATHS = {
  status: '/api/setup/status',
  identity: '/api/setup/identity',
  progress: '/api/setup/progress',
  networkCheck: '/api/setup/network-check',
  setup: '/api/setup',
  skip: '/api/setup/skip',
  hub: '/api/setup/hub',
  finish: '/api/setup/finish',
} as const;

export const setupKeys = {
  status: [SETUP_PATHS.status] as const,
  identity: [SETUP_PATHS.identity] as const,
  progress: [SETUP_PATHS.progress] as const,
  networkCheck: [SETUP_PATHS.networkCheck] as const,
};

export const setupStatusQueryOptions = () =>
  queryOptions({
    queryKey: setupKeys.status,
    queryFn: async () => setupStatusSchema.parse(await apiJson<unknown>('GET', SETUP_PATHS.status)),
  });

/** The hub's name for the header and the document title: signed in only (strangers don't learn it). */
export const hubIdentityQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: setupKeys.identity,
    queryFn: async () => hubIdentitySchema.parse(await apiJson<unknown>('GET', SETUP_PATHS.identity)),
    enabled,
    staleTime: 5 * 60_000,
  });

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
    mutationFn: async () => setupStatusSchema.parse(await apiJson<unknown>('POST', SETUP_PATHS.skip)),
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
