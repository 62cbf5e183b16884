import { Hono } from 'hono';
import type { JetsonReport } from '../../contract/jetson.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin } from '../../http/guards.js';
import type { JetsonService } from './jetson.service.js';

/** Mounted at /api/diagnostics/jetson: the field technician's check of the hub's hardware. */
export function jetsonRoutes(service: JetsonService) {
  return new Hono<AppEnv>().get('/', requireAdmin, (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(service.report() satisfies JetsonReport);
  });
}
