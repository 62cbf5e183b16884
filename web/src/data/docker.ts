import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  catalogListSchema,
  containerListSchema,
  containerStatsSchema,
  containerUpdateResultSchema,
  deploymentListSchema,
  dockerUpdatesSchema,
  engineStatusSchema,
  imageListSchema,
  logsResponseSchema,
  probeResultSchema,
  stackDetailSchema,
  stackListSchema,
  deployEventSchema,
  type DeployEvent,
  type StackTarget,
} from '@nexus/agent/contract';
import { apiJson, apiRequest } from '@/lib/request';
import { postNdjson } from '@/lib/ndjson';
import { queryClient } from '@/lib/query-client';
import { fleetKeys } from './fleet';

export const DOCKER_API = '/api/docker';
export const ENGINE_PATH = `${DOCKER_API}/engine`;
export const CONTAINERS_PATH = `${DOCKER_API}/containers`;
export const IMAGES_PATH = `${DOCKER_API}/images`;
export const STACKS_PATH = `${DOCKER_API}/stacks`;
export const DEPLOYMENTS_PATH = `${DOCKER_API}/deployments`;
export const UPDATES_PATH = `${DOCKER_API}/updates`;

/** The container table follows state changes made elsewhere (docker CLI, restarts) this often. */
export const CONTAINERS_REFRESH_MS = 5_000;
/** Stats of a running container; each reading is a fresh sample from the engine. */
export const STATS_REFRESH_MS = 5_000;
export const ENGINE_REFRESH_MS = 15_000;
/** How many lines the log view loads before it starts following. */
export const LOG_BACKLOG_LINES = 500;

const containerPath = (id: string) => `${CONTAINERS_PATH}/${encodeURIComponent(id)}`;

/** Keys joined with '/' are the paths they fetch (spec §7), and all start with /api/docker. */
export const dockerKeys = {
  all: [DOCKER_API] as const,
  engine: () => [DOCKER_API, 'engine'] as const,
  containers: () => [DOCKER_API, 'containers'] as const,
  stats: (id: string) => [DOCKER_API, 'containers', id, 'stats'] as const,
  images: () => [DOCKER_API, 'images'] as const,
  stacks: () => [DOCKER_API, 'stacks'] as const,
  stack: (name: string) => [DOCKER_API, 'stacks', name] as const,
  deployments: () => [DOCKER_API, 'deployments'] as const,
  catalog: () => [DOCKER_API, 'catalog'] as const,
  updates: () => [DOCKER_API, 'updates'] as const,
};

export const engineQueryOptions = () =>
  queryOptions({
    queryKey: dockerKeys.engine(),
    queryFn: async () => engineStatusSchema.parse(await apiJson<unknown>('GET', ENGINE_PATH)),
    refetchInterval: ENGINE_REFRESH_MS,
  });

export const containersQueryOptions = () =>
  queryOptions({
    queryKey: dockerKeys.containers(),
    queryFn: async () => containerListSchema.parse(await apiJson<unknown>('GET', CONTAINERS_PATH)).containers,
    refetchInterval: CONTAINERS_REFRESH_MS,
  });

export const statsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: dockerKeys.stats(id),
    queryFn: async () =>
      containerStatsSchema.parse(await apiJson<unknown>('GET', `${containerPath(id)}/stats`)),
    refetchInterval: STATS_REFRESH_MS,
    placeholderData: (previous) => previous,
  });

export const imagesQueryOptions = () =>
  queryOptions({
    queryKey: dockerKeys.images(),
    queryFn: async () => imageListSchema.parse(await apiJson<unknown>('GET', IMAGES_PATH)).images,
  });

export const stacksQueryOptions = () =>
  queryOptions({
    queryKey: dockerKeys.stacks(),
    queryFn: async () => stackListSchema.parse(await apiJson<unknown>('GET', STACKS_PATH)).stacks,
    refetchInterval: CONTAINERS_REFRESH_MS,
  });

export const stackQueryOptions = (name: string) =>
  queryOptions({
    queryKey: dockerKeys.stack(name),
    queryFn: async () =>
      stackDetailSchema.parse(await apiJson<unknown>('GET', `${STACKS_PATH}/${encodeURIComponent(name)}`)),
  });

export const deploymentsQueryOptions = () =>
  queryOptions({
    queryKey: dockerKeys.deployments(),
    queryFn: async () =>
      deploymentListSchema.parse(await apiJson<unknown>('GET', `${DEPLOYMENTS_PATH}?limit=100`)).deployments,
  });

export async function fetchLogs(container: string, tail: number | 'all' = LOG_BACKLOG_LINES) {
  return logsResponseSchema.parse(
    await apiJson<unknown>(
      'GET',
      `${containerPath(container)}/logs?format=json&timestamps=true&tail=${tail}`,
    ),
  );
}

/** The whole log as the engine keeps it, as plain text, for saving. */
export async function fetchLogText(container: string): Promise<string> {
  return (await apiRequest('GET', `${containerPath(container)}/logs?tail=all&timestamps=true`)).text();
}

export type ContainerAction = 'start' | 'stop' | 'restart' | 'remove';

/** Start, stop, restart or remove a container; the table refreshes after. */
export function useContainerAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: ContainerAction }) => {
      if (action === 'remove') await apiRequest('DELETE', `${containerPath(id)}?force=true`);
      else await apiRequest('POST', `${containerPath(id)}/${action}`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: dockerKeys.all, refetchType: 'active' }),
  });
}

export type StackAction = 'start' | 'stop' | 'redeploy' | 'remove';

export function useStackAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      name,
      action,
      volumes,
    }: {
      name: string;
      action: StackAction;
      volumes?: boolean;
    }) => {
      const path = `${STACKS_PATH}/${encodeURIComponent(name)}`;
      if (action === 'remove')
        return apiJson<unknown>('DELETE', `${path}?volumes=${volumes ? 'true' : 'false'}`);
      if (action === 'redeploy') return apiJson<unknown>('POST', `${path}/redeploy`, { pull: true });
      return apiJson<unknown>('POST', `${path}/${action}`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: dockerKeys.all, refetchType: 'active' }),
  });
}

export function useRemoveImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, force }: { id: string; force: boolean }) =>
      apiRequest('DELETE', `${IMAGES_PATH}/${encodeURIComponent(id)}?force=${force ? 'true' : 'false'}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: dockerKeys.images() }),
  });
}

export const CATALOG_PATH = `${DOCKER_API}/catalog`;

export const catalogQueryOptions = () =>
  queryOptions({
    queryKey: dockerKeys.catalog(),
    queryFn: async () => catalogListSchema.parse(await apiJson<unknown>('GET', CATALOG_PATH)).apps,
    refetchInterval: CONTAINERS_REFRESH_MS,
  });

export async function probeApp(app: string) {
  return probeResultSchema.parse(
    await apiJson<unknown>('POST', `${CATALOG_PATH}/${encodeURIComponent(app)}/probe`),
  );
}

/** Restarts containers one after another (a service's dependencies were started first, so they restart first). */
export function useRestartContainers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: string[]) => {
      for (const id of ids) await apiRequest('POST', `${containerPath(id)}/restart`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: dockerKeys.all, refetchType: 'active' }),
  });
}

// ---- image updates (issue 20; admins only: the agent refuses members)

/** The agent's last check (it renews it every 6 h, or asks the registries at once for `refresh`). */
export async function fetchUpdates(refresh = false) {
  return dockerUpdatesSchema.parse(
    await apiJson<unknown>('GET', `${UPDATES_PATH}${refresh ? '?refresh=true' : ''}`),
  );
}

export const updatesQueryOptions = () =>
  queryOptions({
    queryKey: dockerKeys.updates(),
    queryFn: () => fetchUpdates(false),
    // The agent caches its answer; following the containers' pace only reads that cache.
    refetchInterval: CONTAINERS_REFRESH_MS * 6,
  });

/** "Check for updates": asks every image's registry now and shows the answer. */
export function useCheckUpdates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => fetchUpdates(true),
    onSuccess: (data) => queryClient.setQueryData(dockerKeys.updates(), data),
  });
}

/** Every update's mutation carries this key, so its progress and result outlive the tab that started it. */
export const UPDATE_CONTAINER_KEY = [DOCKER_API, 'update'] as const;

/** Pull, recreate, wait for health, roll back on failure: one request that can take minutes. */
export function useUpdateContainer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: UPDATE_CONTAINER_KEY,
    mutationFn: async ({ id }: { id: string; name: string }) =>
      containerUpdateResultSchema.parse(await apiJson<unknown>('POST', `${containerPath(id)}/update`)),
    onSuccess: (result) => {
      // The agent drops its check of the replaced container; ask again so its row says where it stands.
      if (result.result === 'updated') {
        fetchUpdates(true).then(
          (data) => queryClient.setQueryData(dockerKeys.updates(), data),
          () => queryClient.invalidateQueries({ queryKey: dockerKeys.updates() }),
        );
      }
    },
    // Everything else on the screen (the new container, the pulled image); the check is handled above.
    onSettled: () =>
      queryClient.invalidateQueries({
        queryKey: dockerKeys.all,
        refetchType: 'active',
        predicate: (q) => q.queryKey[1] !== 'updates',
      }),
  });
}

// ---- deployments (streamed as NDJSON progress events)

/** What to deploy: an app from the catalog, a compose stack, or a stack again with fresh images. */
export type DeployRequest =
  | { kind: 'catalog'; app: string; settings: Record<string, string> }
  | {
      kind: 'stack';
      name: string;
      compose: string;
      variables: Record<string, string>;
      /** This hub (containers, the default) or the fleet (swarm services; issue 24). */
      target?: StackTarget;
    }
  | { kind: 'redeploy'; name: string };

function deployCall(request: DeployRequest): { path: string; body: unknown } {
  switch (request.kind) {
    case 'catalog':
      return {
        path: `${CATALOG_PATH}/${encodeURIComponent(request.app)}/deploy`,
        body: { settings: request.settings },
      };
    case 'stack':
      return {
        path: STACKS_PATH,
        body: {
          name: request.name,
          compose: request.compose,
          variables: request.variables,
          ...(request.target ? { target: request.target } : {}),
        },
      };
    case 'redeploy':
      return { path: `${STACKS_PATH}/${encodeURIComponent(request.name)}/redeploy`, body: { pull: true } };
  }
}

/**
 * Runs a deployment and hands each progress event to `onEvent` as it streams in (lines that are
 * not events are skipped). A refusal before the stream starts throws the usual ApiRequestError.
 * However it ends, everything under /api/docker is refetched: containers, stacks and the catalog changed.
 */
export async function streamDeploy(
  request: DeployRequest,
  onEvent: (event: DeployEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const { path, body } = deployCall(request);
  try {
    await postNdjson(
      path,
      body,
      (raw) => {
        const event = deployEventSchema.safeParse(raw);
        if (event.success) onEvent(event.data);
      },
      signal,
    );
  } finally {
    void queryClient.invalidateQueries({ queryKey: dockerKeys.all });
    // A fleet deployment made swarm services and a stack (web/src/data/fleet.ts's keys).
    if (request.kind === 'stack' && request.target === 'fleet')
      void queryClient.invalidateQueries({ queryKey: fleetKeys.all });
  }
}
