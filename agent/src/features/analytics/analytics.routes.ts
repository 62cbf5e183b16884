import { Hono } from 'hono';
import {
  analyticsSettingsSchema,
  deleteHistoryQuerySchema,
  heatmapQuerySchema,
  suggestionParamSchema,
  timelineQuerySchema,
} from '../../contract/analytics.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import type { AnalyticsService } from './analytics.service.js';

/**
 * Mounted at /api/analytics. Reads are for every signed-in user, scoped to what a member may see
 * (the service filters by role); settings, deletion, mining and automations are the admins'.
 */
export function analyticsRoutes(analytics: AnalyticsService) {
  return new Hono<AppEnv>()
    .get('/routines', requireUser, (c) => c.json(analytics.routines(c.get('user').role)))
    .get('/sequences', requireUser, (c) => c.json(analytics.sequences(c.get('user').role)))
    .get('/predictions', requireUser, (c) => c.json(analytics.predictions(c.get('user').role)))
    .get('/anomalies', requireUser, (c) => c.json(analytics.anomalies(c.get('user').role)))
    .get('/suggestions', requireUser, (c) => c.json(analytics.suggestions(c.get('user').role)))
    .get('/heatmap', requireUser, validate('query', heatmapQuerySchema), (c) => {
      const { entity, state } = c.req.valid('query');
      return c.json(analytics.heatmap(c.get('user').role, entity, state));
    })
    .get('/timeline', requireUser, validate('query', timelineQuerySchema), (c) => {
      const { date, entity } = c.req.valid('query');
      return c.json(analytics.timeline(c.get('user').role, date, entity));
    })
    .get('/status', requireUser, (c) => c.json(analytics.status()))
    .get('/settings', requireAdmin, (c) => c.json(analytics.settings()))
    .put('/settings', requireAdmin, validate('json', analyticsSettingsSchema), (c) =>
      c.json(analytics.updateSettings(c.req.valid('json'))),
    )
    .delete('/history', requireAdmin, validate('query', deleteHistoryQuerySchema), (c) =>
      c.json(analytics.deleteHistory(c.req.valid('query').entity)),
    )
    .post('/suggestions/:id/automation', requireAdmin, validate('param', suggestionParamSchema), async (c) =>
      c.json(await analytics.createAutomation(c.req.valid('param').id), 201),
    )
    .post('/suggestions/:id/dismiss', requireAdmin, validate('param', suggestionParamSchema), (c) =>
      c.json(analytics.dismiss(c.req.valid('param').id)),
    )
    .post('/mine', requireAdmin, async (c) => {
      await analytics.mine();
      return c.json(analytics.status());
    });
}
