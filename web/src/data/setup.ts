import { queryOptions } from '@tanstack/react-query';
import {
  catalogListSchema,
  deployEventSchema,
  engineStatusSchema,
  haSettingsSchema,
  networkCheckSchema,
  setupProgressSchema,
  setupResultSchema,
  setupStatusSchema,
  type DeployEvent,
  type HaSettingsInput,
  type HubIdentityInput,
  type SetupInput,
  type SetupStep,
} from '@nexus/agent/contract';
import { postNdjson } from '@/lib/ndjson';
import { apiJson } from '@/lib/request';

/** The first-boot wizard's calls (agent: features/setup, and the HA, Docker and LLM endpoints it drives). */
export const SETUP_PATHS = {
  status: '/api/setup/status',
  progress: '/api/setup/progress',
  networkCheck: '/api/setup/network-check',
  setup: '/api/setup',
  skip: '/api/setup/skip',
  hub: '/api/setup/hub',
  finish: '/api/setup/finish',
  haSettings: '/api/settings/home-assistant',
  engine: '/api/docker/engine',
  catalog: '/api/docker/catalog',
  pulls: '/api/llm/pulls',
} as const;

export const setupKeys = {
  status: [SETUP_PATHS.status] as const,
  progress: [SETUP_PATHS.progress] as const,
  networkCheck: [SETUP_PATHS.networkCheck] as const,
};

export const setupStatusQueryOptions = () =>
  queryOptions({
    queryKey: setupKeys.status,
    queryFn: async () => setupStatusSchema.parse(await apiJson<unknown>('GET', SETUP_PATHS.status)),
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

// ---- the optional steps drive other features' endpoints

export const haSettingsQueryOptions = () =>
  queryOptions({
    queryKey: [SETUP_PATHS.haSettings],
    queryFn: async () => haSettingsSchema.parse(await apiJson<unknown>('GET', SETUP_PATHS.haSettings)),
  });

export const saveHaSettings = async (input: HaSettingsInput) =>
  haSettingsSchema.parse(await apiJson<unknown>('PUT', SETUP_PATHS.haSettings, input));

export const engineQueryOptions = () =>
  queryOptions({
    queryKey: [SETUP_PATHS.engine],
    queryFn: async () => engineStatusSchema.parse(await apiJson<unknown>('GET', SETUP_PATHS.engine)),
  });

export const catalogQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/docker', 'catalog'],
    queryFn: async () => catalogListSchema.parse(await apiJson<unknown>('GET', SETUP_PATHS.catalog)).apps,
  });

/** Deploys one catalog app with the given settings, reporting each progress event as it streams in. */
export async function deployCatalogApp(
  appId: string,
  settings: Record<string, string>,
  onEvent: (event: DeployEvent) => void,
): Promise<void> {
  await postNdjson(`/api/docker/catalog/${encodeURIComponent(appId)}/deploy`, { settings }, (raw) => {
    const parsed = deployEventSchema.safeParse(raw);
    if (parsed.success) onEvent(parsed.data);
  });
}

/** Starts pulling a model into the hub's Ollama (the LLM feature follows it on its own screen). */
export const startModelPull = async (model: string) => apiJson<unknown>('POST', SETUP_PATHS.pulls, { model });
