import { Hono } from 'hono';
import type { AppEnv } from '../../http/app-env.js';
import { requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import { subscriptionUsageQuerySchema } from '../../contract/subscription.js';
import type { PlanLimitsService } from './plan-limits.js';
import type { SubscriptionService } from './subscription.service.js';

export function subscriptionRoutes(service: SubscriptionService, limits: Pick<PlanLimitsService, 'usage'>) {
  return new Hono<AppEnv>()
    .get('/status', requireUser, (c) => c.json(service.status()))
    .get('/usage', requireUser, validate('query', subscriptionUsageQuerySchema), async (c) =>
      c.json(await limits.usage(c.req.valid('query').days)),
    );
}
