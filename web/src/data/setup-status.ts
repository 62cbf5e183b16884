import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { HubIdentityView, SetupStatus } from '@nexus/agent/contract';
import { boolean, nullable, object, parseShape, string, type Shape } from '@/lib/answer-shape';
import { apiJson } from '@/lib/request';

/**
 * The two setup reads every page makes from the start: whether the hub still needs its first-boot
 * wizard (the setup gate, signed out) and the hub's name (the header and the document title, signed
 * in). The entry loads this module, so it parses with small shapes of the contract's schemas rather
 * than zod (issue 26); the wizard's own calls are in data/setup.ts, which re-exports these.
 */

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

/** contract/setup.ts setupStatusSchema. */
export const setupStatusShape: Shape<SetupStatus> = object<SetupStatus>({
  needsSetup: boolean,
  suggested: nullable(object({ hubName: string, timeZone: string })),
});

/** contract/setup.ts hubIdentitySchema. */
export const hubIdentityShape: Shape<HubIdentityView> = object<HubIdentityView>({ hubName: string });

export const setupStatusQueryOptions = () =>
  queryOptions({
    queryKey: setupKeys.status,
    queryFn: async () => parseShape(setupStatusShape, await apiJson<unknown>('GET', SETUP_PATHS.status)),
  });

/** A prerendered visitor's page (web/src/prerender.tsx) is built as a hub that is set up shows it. */
export function assumeSetUp(client: QueryClient) {
  client.setQueryData<SetupStatus>(setupKeys.status, { needsSetup: false, suggested: null });
}

/**
 * Whether the hub is past its first-boot wizard, by the setup gate's own read (asked once and kept;
 * index.html has preloaded it). A prerendered visitor's page is taken over only when this holds.
 */
export async function isSetUp(client: QueryClient): Promise<boolean> {
  return !(await client.fetchQuery(setupStatusQueryOptions())).needsSetup;
}

/** The hub's name for the header and the document title: signed in only (strangers don't learn it). */
export const hubIdentityQueryOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: setupKeys.identity,
    queryFn: async () => parseShape(hubIdentityShape, await apiJson<unknown>('GET', SETUP_PATHS.identity)),
    enabled,
    staleTime: 5 * 60_000,
  });
