import { Hono } from 'hono';
import { z } from 'zod';
import { isAdminRole } from '../../contract/auth.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import { subscriptionUsageQuerySchema } from '../../contract/subscription.js';
import type { PlanLimitsService } from './plan-limits.js';
import type { LicenceService } from './licence.service.js';
import type { SubscriptionService } from './subscription.service.js';

/**
 * The key is any string here, not activateLicenceInputSchema's bounded one: the service refuses an
 * empty or oversized key itself, as `malformed` with a reason the console can show like any other.
 */
const activateBodySchema = z.strictObject({ key: z.string() });
const lidParamSchema = z.object({ lid: z.string().min(1).max(100) });

export function subscriptionRoutes(
  service: SubscriptionService,
  licences: LicenceService,
  limits: Pick<PlanLimitsService, 'usage'>,
) {
  return new Hono<AppEnv>()
    .get('/status', requireUser, (c) => c.json(service.status()))
    .get('/usage', requireUser, validate('query', subscriptionUsageQuerySchema), async (c) =>
      c.json(await limits.usage(c.req.valid('query').days)),
    )
    .post('/licence', requireAdmin, validate('json', activateBodySchema), (c) =>
      c.json(licences.activate(c.req.valid('json').key)),
    )
    .delete('/licence', requireAdmin, (c) => c.json(licences.deactivate()))
    .get('/licences', requireUser, (c) =>
      c.json(licences.history({ admin: isAdminRole(c.get('user').role) })),
    )
    .get('/licences/:lid/receipt', requireAdmin, validate('param', lidParamSchema), (c) => {
      const { fileName, text } = licences.receipt(c.req.valid('param').lid);
      return c.body(text, 200, {
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Disposition': `attachment; filename="${fileName}"`,
        'Cache-Control': 'no-store',
      });
    });
}
