import { Hono } from 'hono';
import type { HaHealth } from '../../contract/status.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireUser } from '../../http/guards.js';

/** Reports Home Assistant's health; the Home Assistant feature supplies it through AppDeps.haHealth. */
export type HaHealthProvider = () => Promise<HaHealth>;

/** What the hub reports while no Home Assistant connection exists. */
export const HA_NOT_CONFIGURED: HaHealth = {
  status: 'not_configured',
  connectionHealth: 'not_configured',
  devicesCount: 0,
  entitiesCount: 0,
  responseTime: null,
};

/** Mounted at /api/ha-patterns. */
export function haPatternsRoutes(health: HaHealthProvider | undefined) {
  return new Hono<AppEnv>().get('/health', requireUser, async (c) =>
    c.json(health ? await health() : HA_NOT_CONFIGURED),
  );
}
