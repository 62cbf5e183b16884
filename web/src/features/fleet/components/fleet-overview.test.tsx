import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { Router } from 'wouter';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FleetNode, FleetStatus, PublicUser } from '@nexus/agent/contract';
import { authUserQueryOptions } from '@/data/auth-session';
import { FLEET_API, fleetKeys, fleetNodesQueryOptions, fleetStatusQueryOptions } from '@/data/fleet';
import { AuthProvider } from '@/features/auth';
import { createQueryClient } from '@/lib/query-client';
import { FleetOverview } from './fleet-overview';

/**
 * The fleet's node cards on /nexus-control (a CI run saw them vanish right after they appeared):
 * queries never retry, so one poll the link drops fails the query. The cards it had read must
 * stay, with a word that they are not current, rather than be replaced by an error.
 */

const member: PublicUser = {
  id: 2,
  name: 'Member',
  email: 'member@example.com',
  role: 'user',
  twoFactorEnabled: false,
  createdAt: '2025-01-01T00:00:00.000Z',
  disabled: false,
};

const fleet: FleetStatus = {
  state: 'active',
  role: 'manager',
  nodeId: 'abc123',
  clusterId: 'cluster1',
  nodeAddr: '192.168.1.10',
  nodes: 1,
  managers: 1,
  error: null,
  canManage: true,
};

const orin: FleetNode = {
  id: 'abc123',
  hostname: 'orin-agx',
  role: 'manager',
  leader: true,
  self: true,
  availability: 'active',
  status: 'ready',
  statusMessage: null,
  addr: '192.168.1.10',
  engineVersion: '27.3.1',
  os: 'linux',
  arch: 'aarch64',
  cpus: 12,
  memoryBytes: 64 * 1024 ** 3,
  labels: { 'nexus.role': 'llm' },
  nexus: null,
};

/** The agent as fetch sees it; `nodes` answers the node list, or fails as a dropped link does. */
function stubAgent(nodes: () => Response | Promise<never>) {
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/auth/user') return json(member);
      if (url === FLEET_API) return json(fleet);
      if (url === `${FLEET_API}/nodes`) return nodes();
      return new Response('{"message":"Not here"}', { status: 404 });
    }),
  );
}

const networkChanged = () => Promise.reject(new TypeError('Failed to fetch'));

function render(client: QueryClient): string {
  return renderToStaticMarkup(
    <Router ssrPath="/nexus-control">
      <QueryClientProvider client={client}>
        <AuthProvider>
          <FleetOverview />
        </AuthProvider>
      </QueryClientProvider>
    </Router>,
  );
}

/** A signed-in member on a manager hub, the fleet's state read. */
async function signedIn(): Promise<QueryClient> {
  const client = createQueryClient();
  await client.fetchQuery(authUserQueryOptions());
  await client.fetchQuery(fleetStatusQueryOptions());
  return client;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('FleetOverview: the nodes when a refresh fails', () => {
  it('keeps the node cards it had, with a warning that they are as of the last answer', async () => {
    stubAgent(() => new Response(JSON.stringify({ nodes: [orin] }), { status: 200 }));
    const client = await signedIn();
    await client.fetchQuery(fleetNodesQueryOptions());
    const before = render(client);
    expect(before).toContain('data-testid="fleet-node-orin-agx"');
    expect(before).not.toContain('refresh-error');

    // The next poll: the link drops (net::ERR_NETWORK_CHANGED), and queries do not retry.
    stubAgent(networkChanged);
    await client.refetchQueries({ queryKey: fleetKeys.nodes() });
    const nodes = client.getQueryState(fleetKeys.nodes());
    expect(nodes?.status).toBe('error');

    const after = render(client);
    expect(after).toContain('data-testid="fleet-node-orin-agx"');
    expect(after).toContain('data-testid="refresh-error"');
    expect(after).toContain('Couldn&#x27;t refresh the fleet&#x27;s nodes: as it stood at');
    expect(after).toContain(new Date(nodes!.dataUpdatedAt).toLocaleTimeString());
    expect(after).toContain('Failed to fetch');
    expect(after).not.toContain('Couldn&#x27;t load the fleet&#x27;s nodes');
  });

  it('shows the load error, and no cards, when the first read fails', async () => {
    stubAgent(networkChanged);
    const client = await signedIn();
    await client.prefetchQuery(fleetNodesQueryOptions());
    // As the screen that made that read sees it: a screen mounted afresh would just ask again.
    client.setQueryDefaults(fleetKeys.nodes(), { retryOnMount: false });
    const html = render(client);
    expect(html).toContain('Couldn&#x27;t load the fleet&#x27;s nodes');
    expect(html).not.toContain('fleet-node-orin-agx');
    expect(html).not.toContain('refresh-error');
  });
});
