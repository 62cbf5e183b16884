import { Hono } from 'hono';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin } from '../../http/guards.js';
import type { DiagnosticsService } from './diagnostics.service.js';

/** Mounted at /api/diagnostics. */
export function diagnosticsRoutes(service: DiagnosticsService, hostname: () => string) {
  return new Hono<AppEnv>().get('/bundle', requireAdmin, async (c) => {
    const bundle = await service.bundle();
    const stamp = bundle.generatedAt.replace(/[:.]/g, '-');
    const host = hostname().replace(/[^A-Za-z0-9-]/g, '_') || 'hub';
    c.header('Content-Disposition', `attachment; filename="nexus-diagnostics-${host}-${stamp}.json"`);
    c.header('Cache-Control', 'no-store');
    return c.json(bundle);
  });
}
