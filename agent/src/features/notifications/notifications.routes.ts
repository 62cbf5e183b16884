import { Hono } from 'hono';
import {
  notificationChannelParamSchema,
  notificationChannelsInputSchema,
  notificationIdParamSchema,
  notificationListQuerySchema,
  notificationPreferencesInputSchema,
  type ChannelTestResult,
  type MarkAllReadResult,
  type Notification,
  type NotificationChannels,
  type NotificationHaServices,
  type NotificationList,
  type NotificationPreferences,
} from '../../contract/notifications.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireAdmin, requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import type { NotificationDeliveryService } from './delivery.service.js';
import type { NotificationService } from './notifications.service.js';

/** `/api/notifications`: the signed-in user's own notifications and the hub's broadcasts. */
export function notificationRoutes(
  notifications: NotificationService,
  delivery: Pick<
    NotificationDeliveryService,
    'withDeliveries' | 'preferences' | 'channels' | 'updateChannels' | 'test' | 'haServices'
  >,
) {
  return (
    new Hono<AppEnv>()
      .use(requireUser)
      .get('/', validate('query', notificationListQuerySchema), (c) => {
        const { limit, category, severity, unread, before } = c.req.valid('query');
        const userId = c.get('user').id;
        const list = notifications.list(userId, { limit, category, level: severity, unread, before });
        return c.json(delivery.withDeliveries(userId, list) satisfies NotificationList, 200);
      })
      .post('/read-all', (c) =>
        c.json({ marked: notifications.markAllRead(c.get('user').id) } satisfies MarkAllReadResult, 200),
      )
      .get('/preferences', (c) =>
        c.json(delivery.preferences.get(c.get('user').id) satisfies NotificationPreferences, 200),
      )
      .put('/preferences', validate('json', notificationPreferencesInputSchema), (c) =>
        c.json(
          delivery.preferences.update(
            c.get('user').id,
            c.req.valid('json'),
          ) satisfies NotificationPreferences,
          200,
        ),
      )
      // For the personal picker: which notify services HA offers (names only, no settings).
      .get('/ha-services', async (c) =>
        c.json({ services: await delivery.haServices() } satisfies NotificationHaServices, 200),
      )
      .get('/channels', requireAdmin, async (c) =>
        c.json((await delivery.channels()) satisfies NotificationChannels, 200),
      )
      .put('/channels', requireAdmin, validate('json', notificationChannelsInputSchema), async (c) =>
        c.json((await delivery.updateChannels(c.req.valid('json'))) satisfies NotificationChannels, 200),
      )
      .post(
        '/channels/:channel/test',
        requireAdmin,
        validate('param', notificationChannelParamSchema),
        async (c) =>
          c.json(
            (await delivery.test(c.req.valid('param').channel, c.get('user'))) satisfies ChannelTestResult,
            200,
          ),
      )
      .post('/:id/read', validate('param', notificationIdParamSchema), (c) => {
        const notification = notifications.markRead(c.get('user').id, c.req.valid('param').id);
        return c.json({ notification } satisfies { notification: Notification }, 200);
      })
      .delete('/:id', validate('param', notificationIdParamSchema), (c) => {
        notifications.remove(c.get('user').id, c.req.valid('param').id);
        return c.body(null, 204);
      })
  );
}
