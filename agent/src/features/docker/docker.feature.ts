import { fileURLToPath } from 'node:url';
import type { DockerAdapter } from '../../adapters/docker.js';
import type { OutboundGuard } from '../../adapters/outbound-guard.js';
import { createRegistryAdapter } from '../../adapters/registry.js';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { LivePublisher } from '../../live/hub.js';
import type { AuditLog } from '../audit/index.js';
import { createCatalogService } from './catalog.service.js';
import { createDockerRepository } from './docker.repository.js';
import { dockerRoutes, fleetStackRoutes } from './docker.routes.js';
import { createDockerService } from './docker.service.js';
import { registerDockerLogTopics } from './log-follow.js';
import { createStacksService } from './stacks.service.js';
import { createUpdatesService } from './updates.service.js';

/** The curated compose templates and their catalog.json: docker/ at the top of the repository. */
export const DEFAULT_CATALOG_DIR = fileURLToPath(new URL('../../../../docker', import.meta.url));

/**
 * Builds the containers feature (`/api/docker`) from its outside parts: the engine adapter, the
 * database, the SecretBox for stored stack variables and the live channel for log following.
 */
export function createDockerFeature(deps: {
  engine: DockerAdapter;
  db: Db;
  secrets: SecretBox;
  live: LivePublisher;
  log: Logger;
  catalogDir?: string;
  /** Container updates: registries are reached through the outbound guard, updates are audited. */
  audit: Pick<AuditLog, 'record'>;
  guard: OutboundGuard;
  /** NEXUS_AGENT_CONTAINER. */
  agentContainer?: string;
  beforeHubUpdate?: () => Promise<void>;
  onShutdown?: (stop: () => void) => void;
  now?: () => number;
}) {
  const repo = createDockerRepository(deps.db, deps.now);
  // A deployment cannot survive the agent; one still marked running was cut short by a stop.
  repo.failInterrupted();
  const docker = createDockerService(deps.engine, deps.now);
  const stacks = createStacksService({ engine: deps.engine, repo, secrets: deps.secrets });
  const catalog = createCatalogService({ dir: deps.catalogDir ?? DEFAULT_CATALOG_DIR, stacks });
  const logs = registerDockerLogTopics({ live: deps.live, engine: deps.engine, log: deps.log });
  const updates = createUpdatesService({
    engine: deps.engine,
    registry: createRegistryAdapter({ guard: deps.guard }),
    audit: deps.audit,
    log: deps.log,
    agentContainer: deps.agentContainer,
    beforeHubUpdate: deps.beforeHubUpdate,
    onShutdown: deps.onShutdown,
    now: deps.now,
  });
  // `updates.onUpdateAvailable(listener)` is the hook for notifications (issue 19).
  return {
    routes: dockerRoutes({ docker, stacks, catalog, updates }),
    /** Mounted at /api/fleet/stacks. */
    fleetStackRoutes: fleetStackRoutes(stacks),
    logs,
    updates,
  };
}
