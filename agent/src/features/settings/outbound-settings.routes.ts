import { Hono } from 'hono';
import { outboundSettingsInputSchema } from '../../contract/outbound.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import type { OutboundSettingsService } from './outbound-settings.js';

/** Mounted at /api/settings/outbound: the outbound allow-list, for admins only (it opens the home network). */
export function outboundSettingsRoutes(service: OutboundSettingsService) {
  return new Hono<AppEnv>()
    .get('/', requireAdmin, (c) => c.json(service.get()))
    .put('/', requireAdmin, validate('json', outboundSettingsInputSchema), (c) =>
      c.json(service.update(c.req.valid('json'))),
    );
}
