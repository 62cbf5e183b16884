import {
  NOTIFICATIONS_BROADCAST_TOPIC,
  NOTIFICATIONS_TOPIC,
  notificationsUserTopic,
} from '../../contract/notifications.js';
import type { LivePublisher } from '../../live/hub.js';
import type { NotificationService } from './notifications.service.js';

/** Pushes every new notification to the browsers it is for, so the bell updates at once. */
export function publishNotifications(notifications: NotificationService, live: LivePublisher): () => void {
  live.registerTopic(NOTIFICATIONS_TOPIC, {
    // Someone else's notifications are theirs alone.
    allow: (user, topic) =>
      topic === NOTIFICATIONS_BROADCAST_TOPIC || topic === notificationsUserTopic(user.id),
  });
  return notifications.onCreated(({ userId, notification }) => {
    live.publish(
      userId === null ? NOTIFICATIONS_BROADCAST_TOPIC : notificationsUserTopic(userId),
      notification,
    );
  });
}
