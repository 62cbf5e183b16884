import { Hono } from 'hono';
import {
  fleetInitInputSchema,
  fleetJoinInputSchema,
  fleetLeaveInputSchema,
  fleetLogsQuerySchema,
  fleetNodeParamSchema,
  fleetNodeUpdateSchema,
  fleetRotateInputSchema,
  fleetScaleInputSchema,
  fleetServiceParamSchema,
  fleetServiceUpdateInputSchema,
} from '../../contract/fleet.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import type { FleetFeatureService } from './fleet.service.js';

/**
 * Mounted at /api/fleet. Members read the swarm, its nodes and services (no secrets there: no
 * environment values, no tokens); admins change it. Join tokens are for admins alone and never cached.
 */
export function fleetRoutes(fleet: FleetFeatureService) {
  return new Hono<AppEnv>()
    .get('/', requireUser, async (c) => c.json(await fleet.status()))
    .post('/init', requireAdmin, validate('json', fleetInitInputSchema), async (c) =>
      c.json(await fleet.init(c.req.valid('json'))),
    )
    .post('/join', requireAdmin, validate('json', fleetJoinInputSchema), async (c) =>
      c.json(await fleet.join(c.req.valid('json'))),
    )
    .post('/leave', requireAdmin, validate('json', fleetLeaveInputSchema), async (c) =>
      c.json(await fleet.leave(c.req.valid('json'))),
    )
    .get('/join-tokens', requireAdmin, async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await fleet.joinTokens());
    })
    .post('/join-tokens/rotate', requireAdmin, validate('json', fleetRotateInputSchema), async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await fleet.rotateToken(c.req.valid('json').role));
    })
    .get('/nodes', requireUser, async (c) => c.json({ nodes: await fleet.nodes() }))
    .patch(
      '/nodes/:id',
      requireAdmin,
      validate('param', fleetNodeParamSchema),
      validate('json', fleetNodeUpdateSchema),
      async (c) => c.json(await fleet.updateNode(c.req.valid('param').id, c.req.valid('json'))),
    )
    .get('/services', requireUser, async (c) => c.json({ services: await fleet.services() }))
    .post(
      '/services/:id/scale',
      requireAdmin,
      validate('param', fleetServiceParamSchema),
      validate('json', fleetScaleInputSchema),
      async (c) => c.json(await fleet.scale(c.req.valid('param').id, c.req.valid('json').replicas)),
    )
    .post(
      '/services/:id/update',
      requireAdmin,
      validate('param', fleetServiceParamSchema),
      validate('json', fleetServiceUpdateInputSchema),
      async (c) => c.json(await fleet.updateImage(c.req.valid('param').id, c.req.valid('json').image)),
    )
    .post('/services/:id/rollback', requireAdmin, validate('param', fleetServiceParamSchema), async (c) =>
      c.json(await fleet.rollback(c.req.valid('param').id)),
    )
    .get(
      '/services/:id/logs',
      requireUser,
      validate('param', fleetServiceParamSchema),
      validate('query', fleetLogsQuerySchema),
      async (c) => c.json(await fleet.logs(c.req.valid('param').id, c.req.valid('query'))),
    );
}
