import { Hono } from 'hono';
import { isAdminRole } from '../../contract/auth.js';
import { metricsQuerySchema, processesQuerySchema } from '../../contract/system.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import type { MetricsService } from './metrics.service.js';

/** Mounted at /api/system: the hub's figures, all answered from the sampler's memory. */
export function systemRoutes(service: MetricsService) {
  return new Hono<AppEnv>()
    .get('/uptime', requireUser, (c) => c.json(service.uptime()))
    .get('/metrics', requireUser, validate('query', metricsQuerySchema), (c) => {
      const { window, since } = c.req.valid('query');
      return c.json(service.series(window, since));
    })
    .get('/info', requireUser, async (c) => c.json(await service.systemInfo()))
    .get('/processes', requireUser, validate('query', processesQuerySchema), async (c) => {
      const { limit, sort } = c.req.valid('query');
      return c.json(await service.processesFor({ admin: isAdminRole(c.get('user').role) }, limit, sort));
    })
    .get('/network', requireUser, async (c) => c.json(await service.network()));
}

/** Mounted at /api/nexus. */
export function nexusStatusRoutes(service: MetricsService) {
  return new Hono<AppEnv>().get('/status', requireUser, async (c) => c.json(await service.nexusStatus()));
}
