import { Hono } from 'hono';
import {
  automationInputSchema,
  automationParamSchema,
  haDevicesQuerySchema,
} from '../../contract/ha-automations.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import type { AutomationsService } from './automations.service.js';
import type { DevicesService } from './devices.service.js';

/** Mounted at /api/ha beside the entity routes: automations and devices by area. */
export function haAutomationRoutes(automations: AutomationsService, devices: DevicesService) {
  return new Hono<AppEnv>()
    .get('/automations', requireUser, (c) => c.json(automations.list()))
    .get('/automations/:id', requireAdmin, validate('param', automationParamSchema), async (c) =>
      // Admins only: a config may hold webhook ids and notify targets.
      c.json(await automations.get(c.req.valid('param').id)),
    )
    .post('/automations', requireAdmin, validate('json', automationInputSchema), async (c) =>
      c.json(await automations.create(c.req.valid('json')), 201),
    )
    .put(
      '/automations/:id',
      requireAdmin,
      validate('param', automationParamSchema),
      validate('json', automationInputSchema),
      async (c) => c.json(await automations.update(c.req.valid('param').id, c.req.valid('json'))),
    )
    .delete('/automations/:id', requireAdmin, validate('param', automationParamSchema), async (c) => {
      await automations.remove(c.req.valid('param').id);
      return c.json({ ok: true });
    })
    .post('/automations/:id/enable', requireAdmin, validate('param', automationParamSchema), async (c) =>
      c.json(await automations.enable(c.req.valid('param').id)),
    )
    .post('/automations/:id/disable', requireAdmin, validate('param', automationParamSchema), async (c) =>
      c.json(await automations.disable(c.req.valid('param').id)),
    )
    .post('/automations/:id/trigger', requireAdmin, validate('param', automationParamSchema), async (c) =>
      c.json(await automations.trigger(c.req.valid('param').id)),
    )
    .get('/devices', requireUser, validate('query', haDevicesQuerySchema), (c) =>
      c.json(devices.list(c.get('user').role, c.req.valid('query'))),
    );
}
