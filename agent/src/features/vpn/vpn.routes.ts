import { Hono } from 'hono';
import { vpnFailoverInputSchema } from '../../contract/status.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import type { VpnService } from './vpn.service.js';

export function vpnRoutes(service: VpnService) {
  return new Hono<AppEnv>()
    .get('/status', requireUser, async (c) => c.json(await service.status()))
    .put('/failover', requireAdmin, validate('json', vpnFailoverInputSchema), (c) =>
      c.json(service.setFailover(c.req.valid('json'))),
    );
}
