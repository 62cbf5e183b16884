import { Hono } from 'hono';
import {
  haConnectionTestInputSchema,
  haEntityParamSchema,
  haHistoryQuerySchema,
  haLogbookQuerySchema,
  haMemberAccessSchema,
  haServiceCallInputSchema,
  haServiceParamSchema,
  haSettingsInputSchema,
} from '../../contract/home-assistant.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import type { AuditRecorder } from '../audit/index.js';
import type { HomeAssistantService } from './home-assistant.service.js';

/** Mounted at /api/ha: Home Assistant through the hub. */
export function homeAssistantRoutes(service: HomeAssistantService) {
  return (
    new Hono<AppEnv>()
      .get('/status', requireUser, (c) => c.json(service.status()))
      .get('/activity', requireUser, (c) => c.json(service.activity()))
      .get('/entities', requireUser, (c) => c.json(service.listEntities()))
      .get('/my-access', requireUser, (c) => c.json(service.myAccess(c.get('user').role)))
      .get('/entities/:id', requireUser, validate('param', haEntityParamSchema), (c) =>
        c.json(service.getEntity(c.req.valid('param').id)),
      )
      .post(
        '/services/:domain/:service',
        requireUser,
        validate('param', haServiceParamSchema),
        validate('json', haServiceCallInputSchema),
        async (c) => {
          const { domain, service: name } = c.req.valid('param');
          return c.json(await service.callService(c.get('user').role, domain, name, c.req.valid('json')));
        },
      )
      .get('/logbook', requireUser, validate('query', haLogbookQuerySchema), async (c) =>
        c.json(await service.logbook(c.req.valid('query'))),
      )
      .get('/history', requireUser, validate('query', haHistoryQuerySchema), async (c) =>
        c.json(await service.history(c.req.valid('query'))),
      )
      // Admins only: the steps name Home Assistant's host, addresses and port, which the browsers of
      // other users never see.
      .post('/connection-test', requireAdmin, validate('json', haConnectionTestInputSchema), async (c) =>
        c.json(await service.connectionTest(c.req.valid('json'))),
      )
  );
}

/** Mounted at /api/settings/home-assistant: the connection's URL and token, for admins. */
export function homeAssistantSettingsRoutes(service: HomeAssistantService, audit?: AuditRecorder) {
  return (
    new Hono<AppEnv>()
      .get('/', requireAdmin, (c) => c.json(service.settings()))
      .put('/', requireAdmin, validate('json', haSettingsInputSchema), async (c) => {
        const input = c.req.valid('json');
        const saved = await service.saveSettings(input);
        // The setting's name only: never the token.
        if (input.token) audit?.record({ type: 'settings_secret_changed', target: 'home_assistant.token' });
        return c.json(saved);
      })
      .delete('/', requireAdmin, async (c) => c.json(await service.clearSettings()))
      // The domains and entities members may control.
      .get('/member-access', requireAdmin, (c) => c.json(service.memberAccess()))
      .put('/member-access', requireAdmin, validate('json', haMemberAccessSchema), (c) =>
        c.json(service.setMemberAccess(c.req.valid('json'))),
      )
  );
}
