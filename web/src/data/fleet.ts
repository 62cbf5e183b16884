import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  fleetJoinTokensSchema,
  fleetLogsSchema,
  fleetNodeListSchema,
  fleetServiceListSchema,
  fleetStackListSchema,
  fleetStatusSchema,
  type FleetInitInput,
  type FleetJoinInput,
  type FleetNodeUpdate,
  type FleetService,
  type SwarmRole,
} from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';
import { getParsed } from './auth-session';

/**
 * The fleet feature's one data module (issue 24): every path under /api/fleet and every query key
 * of it live here. The swarm is the hub's Docker engine in Swarm mode; members read, admins change.
 */
export const FLEET_API = '/api/fleet';

/** Nodes and the swarm's state change rarely and by hand; a quiet poll keeps other tabs honest. */
export const FLEET_REFRESH_MS = 10_000;
/** While a rolling update or rollback runs, its progress is worth following closely. */
export const FLEET_UPDATING_REFRESH_MS = 2_000;

/** The UpdateStatus states during which the engine is still replacing tasks. */
const UPDATE_IN_PROGRESS = new Set(['updating', 'rollback_started']);

/** Whether any service is mid-update (its task list changes by the second). */
export function anyServiceUpdating(services: readonly FleetService[] | undefined): boolean {
  return (services ?? []).some(
    (s) => s.updateStatus !== null && UPDATE_IN_PROGRESS.has(s.updateStatus.state),
  );
}

const nodePath = (id: string) => `${FLEET_API}/nodes/${encodeURIComponent(id)}`;
const servicePath = (id: string) => `${FLEET_API}/services/${encodeURIComponent(id)}`;

/** Keys joined with '/' are the paths they fetch (spec §7), and all start with /api/fleet. */
export const fleetKeys = {
  all: [FLEET_API] as const,
  /** GET /api/fleet itself (its key is the prefix of all others, so invalidating it refetches them all). */
  status: () => [FLEET_API] as const,
  joinTokens: () => [FLEET_API, 'join-tokens'] as const,
  nodes: () => [FLEET_API, 'nodes'] as const,
  services: () => [FLEET_API, 'services'] as const,
  logs: (id: string, tail: number) => [FLEET_API, 'services', id, 'logs', tail] as const,
  stacks: () => [FLEET_API, 'stacks'] as const,
};

/** Whether this hub's engine is in a swarm and its part in it. */
export const fleetStatusQueryOptions = () =>
  queryOptions({
    queryKey: fleetKeys.status(),
    queryFn: () => getParsed(FLEET_API, fleetStatusSchema),
    refetchInterval: FLEET_REFRESH_MS,
  });

/** The join commands (admins only: the agent refuses members, so ask only as an admin). */
export const fleetJoinTokensQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: fleetKeys.joinTokens(),
    queryFn: () => getParsed(`${FLEET_API}/join-tokens`, fleetJoinTokensSchema),
    enabled,
    // A token is a key to the swarm: drop it from the cache soon after the screen closes.
    gcTime: 0,
  });

export const fleetNodesQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: fleetKeys.nodes(),
    queryFn: async () => (await getParsed(`${FLEET_API}/nodes`, fleetNodeListSchema)).nodes,
    refetchInterval: FLEET_REFRESH_MS,
    enabled,
  });

/** Services with their tasks: every 2 s while one of them is updating or rolling back, else every 10 s. */
export const fleetServicesQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: fleetKeys.services(),
    queryFn: async () => (await getParsed(`${FLEET_API}/services`, fleetServiceListSchema)).services,
    refetchInterval: (query) =>
      anyServiceUpdating(query.state.data) ? FLEET_UPDATING_REFRESH_MS : FLEET_REFRESH_MS,
    enabled,
  });

/** The last `tail` lines of every task of a service, each with its task and node. */
export const fleetServiceLogsQueryOptions = (id: string, tail = 200) =>
  queryOptions({
    queryKey: fleetKeys.logs(id, tail),
    queryFn: () => getParsed(`${servicePath(id)}/logs?tail=${tail}`, fleetLogsSchema),
    refetchInterval: 5_000,
  });

export const fleetStacksQueryOptions = () =>
  queryOptions({
    queryKey: fleetKeys.stacks(),
    queryFn: async () => (await getParsed(`${FLEET_API}/stacks`, fleetStackListSchema)).stacks,
    refetchInterval: FLEET_REFRESH_MS,
  });

// ---- mutations (admins; the agent checks the role itself)

/**
 * Creating, joining or leaving a swarm changes everything under /api/fleet (the state, the nodes,
 * the services), and the deploy screen's "The fleet" choice, which reads the same status.
 */
function useInvalidateFleet() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: fleetKeys.all });
}

/** POST /api/fleet/init: this hub becomes the first manager of a new swarm. Invalidates all of /api/fleet. */
export function useInitFleet() {
  const invalidate = useInvalidateFleet();
  return useMutation({
    mutationFn: (input: FleetInitInput) => apiJson<unknown>('POST', `${FLEET_API}/init`, input),
    onSettled: invalidate,
  });
}

/** POST /api/fleet/join: this hub joins another hub's swarm. Invalidates all of /api/fleet. */
export function useJoinFleet() {
  const invalidate = useInvalidateFleet();
  return useMutation({
    mutationFn: (input: FleetJoinInput) => apiJson<unknown>('POST', `${FLEET_API}/join`, input),
    onSettled: invalidate,
  });
}

/** POST /api/fleet/leave (force for a manager). Invalidates all of /api/fleet. */
export function useLeaveFleet() {
  const invalidate = useInvalidateFleet();
  return useMutation({
    mutationFn: (force: boolean) => apiJson<unknown>('POST', `${FLEET_API}/leave`, { force }),
    onSettled: invalidate,
  });
}

/** POST /api/fleet/join-tokens/rotate: the old token stops working. Invalidates the join commands only. */
export function useRotateJoinToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (role: SwarmRole) => apiJson<unknown>('POST', `${FLEET_API}/join-tokens/rotate`, { role }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: fleetKeys.joinTokens() }),
  });
}

/**
 * PATCH /api/fleet/nodes/:id (labels replace the node's labels as a whole). Invalidates the nodes,
 * and the services: draining a node moves its tasks, a label can satisfy a pending constraint.
 */
export function useUpdateFleetNode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, update }: { id: string; update: FleetNodeUpdate }) =>
      apiJson<unknown>('PATCH', nodePath(id), update),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: fleetKeys.nodes() }),
        queryClient.invalidateQueries({ queryKey: fleetKeys.services() }),
      ]),
  });
}

export type FleetServiceAction =
  { action: 'scale'; replicas: number } | { action: 'update'; image: string } | { action: 'rollback' };

/** POST /api/fleet/services/:id/scale|update|rollback. Invalidates the services (and so starts the fast poll). */
export function useFleetServiceAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...request }: { id: string } & FleetServiceAction) => {
      const path = `${servicePath(id)}/${request.action}`;
      if (request.action === 'scale') return apiJson<unknown>('POST', path, { replicas: request.replicas });
      if (request.action === 'update') return apiJson<unknown>('POST', path, { image: request.image });
      return apiJson<unknown>('POST', path);
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: fleetKeys.services() }),
        queryClient.invalidateQueries({ queryKey: fleetKeys.stacks() }),
      ]),
  });
}
