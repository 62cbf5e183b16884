import { Hono } from 'hono';
import { integrationParamSchema } from '../../contract/integrations.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import type { IntegrationsService } from './integrations.service.js';

/** Mounted at /api/integrations. */
export function integrationsRoutes(service: IntegrationsService) {
  return (
    new Hono<AppEnv>()
      .get('/', requireUser, async (c) => c.json(await service.list(c.get('user').role)))
      // Admins only: a test reaches out to every service again (and its answer names addresses).
      .post('/:id/test', requireAdmin, validate('param', integrationParamSchema), async (c) =>
        c.json(await service.test(c.req.valid('param').id, c.get('user').role)),
      )
  );
}
