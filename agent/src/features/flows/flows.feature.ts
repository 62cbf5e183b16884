import type { Db } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { LivePublisher } from '../../live/hub.js';
import type { FlowPorts } from './flows.ports.js';
import { createFlowsRepository } from './flows.repository.js';
import type { SatelliteAuthenticator } from '../../http/guards.js';
import { flowsRoutes, hooksRoutes } from './flows.routes.js';
import { createFlowsService } from './flows.service.js';
import type { AuditRecorder } from '../audit/index.js';
import type { EndedFlowRun } from '../alerts/index.js';

/**
 * FlowForge: flows (trigger + stages) with versions, runs recorded stage by stage and streamed
 * live, webhook/schedule/API/voice triggers. Outside powers (LLM, Home Assistant, notifications,
 * speech, HTTP) arrive as ports from app.ts.
 */
export function createFlowsFeature(deps: {
  db: Db;
  secrets: SecretBox;
  live: LivePublisher;
  log: Logger;
  dataDir: string;
  ports: FlowPorts;
  /** Lets satellites start voice flows with their device token. */
  authenticateSatellite?: SatelliteAuthenticator;
  /** The security event log: API keys made and revoked. */
  audit?: AuditRecorder;
  /** Told when a run ends (the alerts: a failing flow notifies its owner). */
  onRunEnded?: (run: EndedFlowRun) => void;
  now?: () => number;
}) {
  const service = createFlowsService({
    repo: createFlowsRepository(deps.db, deps.now),
    secrets: deps.secrets,
    live: deps.live,
    ports: deps.ports,
    log: deps.log.child({ feature: 'flows' }),
    dataDir: deps.dataDir,
    audit: deps.audit,
    onRunEnded: deps.onRunEnded,
    now: deps.now,
  });
  service.startScheduler();
  return {
    service,
    routes: flowsRoutes(service, { authenticateSatellite: deps.authenticateSatellite }),
    hooks: hooksRoutes(service),
  };
}
