import type { HomeAssistantAdapter } from '../../adapters/home-assistant.js';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import type { AuditLog } from '../audit/index.js';
import type { SettingsStore } from '../home-assistant/index.js';
import type { AutomationsService } from '../home-assistant/index.js';
import type { HaConnection } from '../home-assistant/index.js';
import type { MemberAccessStore } from '../home-assistant/index.js';
import { createAnalyticsService, type MineRunner } from './analytics.service.js';
import { analyticsRoutes } from './analytics.routes.js';
import { createEventStore } from './event-store.js';
import { createAnalyticsSettings, createRecorder } from './recorder.js';

/** Behavioural analytics (issue 16): the event store, its recorder, the mining service and routes. */
export function startAnalytics(deps: {
  db: Db;
  settings: SettingsStore;
  connection: HaConnection;
  adapter: HomeAssistantAdapter;
  automations: AutomationsService;
  memberAccess: MemberAccessStore;
  audit: Pick<AuditLog, 'record'>;
  log: Logger;
  now?: () => number;
  onShutdown?: (stop: () => void) => void;
  runMine?: MineRunner;
  plan?: { checkEntities(entityIds: string[]): void };
}) {
  const store = createEventStore(deps.db);
  const settings = createAnalyticsSettings(deps.settings);
  let onBackfilled = () => {};
  const recorder = createRecorder({
    connection: deps.connection,
    adapter: deps.adapter,
    store,
    settings,
    log: deps.log,
    now: deps.now,
    onBackfilled: () => onBackfilled(),
  });
  const service = createAnalyticsService({ ...deps, store, settings, recorder });
  onBackfilled = () => service.backfilled();
  recorder.start();
  deps.onShutdown?.(() => {
    service.stop();
    recorder.stop();
  });
  return { service, recorder, store, routes: analyticsRoutes(service) };
}
