import { queryOptions } from '@tanstack/react-query';
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

export const completeSetup = async (input: SetupInput) =>
  setupResultSchema.parse(await apiJson<unknown>('POST', SETUP_PATHS.setup, input));

export const skipSetup = async () =>
  setupStatusSchema.parse(await apiJson<unknown>('POST', SETUP_PATHS.skip));

export const updateHubIdentity = async (input: HubIdentityInput) =>
  setupProgressSchema.parse(await apiJson<unknown>('PUT', SETUP_PATHS.hub, input));

export const recordStep = async (step: SetupStep, outcome: 'done' | 'skipped') =>
  setupProgressSchema.parse(await apiJson<unknown>('POST', `/api/setup/steps/${step}`, { outcome }));

export const finishSetup = async () =>
  setupProgressSchema.parse(await apiJson<unknown>('POST', SETUP_PATHS.finish));
