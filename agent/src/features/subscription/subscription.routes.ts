import { Hono } from 'hono';
import type { AppEnv } from '../../http/app-env.js';
import { requireUser } from '../../http/guards.js';
import type { SubscriptionService } from './subscription.service.js';

export function subscriptionRoutes(service: SubscriptionService) {
  return new Hono<AppEnv>().get('/status', requireUser, (c) => c.json(service.status()));
}
