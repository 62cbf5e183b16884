import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import {
  MEMBER_SATELLITE_ACTIONS,
  createSatelliteInputSchema,
  createWyomingSatelliteInputSchema,
  satelliteControlInputSchema,
  satelliteHeartbeatInputSchema,
  updateSatelliteInputSchema,
} from '../../contract/satellites.js';
import type { AppEnv } from '../../http/app-env.js';
import { checksCredential, requireAdmin, requireUser } from '../../http/guards.js';
import { clientAddress } from '../../http/request-info.js';
import { validate } from '../../http/validate.js';
import { forbidden } from '../../lib/http-error.js';
import type { SatellitesService } from './satellites.service.js';
import type { SatelliteRow } from './satellites.table.js';

const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The address a satellite's heartbeat came from, by the one rule every feature uses (the socket's
 * peer, or the entry our own trusted proxy appended): the first X-Forwarded-For entry is whatever
 * the sender claimed.
 */
function satelliteAddress(c: Parameters<typeof clientAddress>[0], trustProxy: boolean): string | null {
  const address = clientAddress(c, trustProxy);
  return address === 'unknown' ? null : address;
}

const isAdmin = (role: string) => role === 'admin' || role === 'superadmin';

/**
 * `/api/devices/satellite`: the merged list and the everyday controls (volume, mute, announce) for
 * everyone signed in; adding, changing and the device's settings for admins; heartbeats for
 * Nexus-API satellites with their token.
 */
export function satellitesRoutes(service: SatellitesService, opts: { trustProxy: boolean }) {
  return new Hono<AppEnv>()
    .get('/', requireUser, (c) => c.json(service.list()))
    .get('/sources', requireUser, (c) => c.json(service.sources()))
    .post('/wyoming', requireAdmin, validate('json', createWyomingSatelliteInputSchema), (c) =>
      c.json(service.createWyoming(c.req.valid('json')), 201),
    )
    .get('/:id', requireUser, validate('param', idParam), (c) => c.json(service.get(c.req.valid('param').id)))
    .get('/:id/signal', requireUser, validate('param', idParam), (c) =>
      c.json(service.signalHistory(c.req.valid('param').id)),
    )
    .post(
      '/:id/control',
      requireUser,
      validate('param', idParam),
      validate('json', satelliteControlInputSchema),
      async (c) => {
        const input = c.req.valid('json');
        if (!isAdmin(c.get('user').role) && !MEMBER_SATELLITE_ACTIONS.includes(input.action)) {
          throw forbidden(`Only an administrator may use ${input.action} on a satellite`);
        }
        return c.json(await service.control(c.req.valid('param').id, input));
      },
    )
    .post('/', requireAdmin, validate('json', createSatelliteInputSchema), (c) =>
      c.json(service.create(c.req.valid('json')), 201),
    )
    .patch(
      '/:id',
      requireAdmin,
      validate('param', idParam),
      validate('json', updateSatelliteInputSchema),
      (c) => c.json(service.update(c.req.valid('param').id, c.req.valid('json'))),
    )
    .delete('/:id', requireAdmin, validate('param', idParam), (c) => {
      service.remove(c.req.valid('param').id);
      return c.body(null, 204);
    })
    .post('/:id/token', requireAdmin, validate('param', idParam), (c) =>
      c.json(service.rotateToken(c.req.valid('param').id)),
    )
    .post(
      '/:id/heartbeat',
      validate('param', idParam),
      // The token is checked before the body is looked at, so a stranger learns nothing from validation errors.
      checksCredential(
        createMiddleware<{ Variables: { satellite: SatelliteRow } }>(async (c, next) => {
          c.set(
            'satellite',
            service.authenticate(Number(c.req.param('id')), bearerToken(c.req.header('authorization'))),
          );
          await next();
        }),
        'Satellite token',
      ),
      validate('json', satelliteHeartbeatInputSchema),
      (c) =>
        c.json(
          service.heartbeat(c.get('satellite'), c.req.valid('json'), satelliteAddress(c, opts.trustProxy)),
        ),
    );
}
