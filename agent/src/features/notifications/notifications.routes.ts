import { Hono } from 'hono';
import {
  notificationIdParamSchema,
  notificationListQuerySchema,
  type MarkAllReadResult,
  type Notification,
  type NotificationList,
} from '../../contract/notifications.js';
import type { AppEnv } from '../../http/app-env.js';
import { requireUser } from '../../http/guards.js';
import { validate } from '../../http/validate.js';
import type { NotificationService } from './notifications.service.js';

/** `/api/notifications`: the signed-in user's own notifications and the hub's broadcasts. */
export function notificationRoutes(notifications: NotificationService) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get('/', validate('query', notificationListQuerySchema), (c) => {
      const { limit } = c.req.valid('query');
      return c.json(notifications.list(c.get('user').id, limit) satisfies NotificationList, 200);
    })
    .post('/read-all', (c) =>
      c.json({ marked: notifications.markAllRead(c.get('user').id) } satisfies MarkAllReadResult, 200),
    )
    .post('/:id/read', validate('param', notificationIdParamSchema), (c) => {
      const notification = notifications.markRead(c.get('user').id, c.req.valid('param').id);
      return c.json({ notification } satisfies { notification: Notification }, 200);
    });
}
