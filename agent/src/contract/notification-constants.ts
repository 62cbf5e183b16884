/**
 * The notifications' words and live topics, without zod: the console's frame (its notifications
 * menu) and its read of the latest notifications use them without loading zod and the schemas
 * (issue 26). notifications.ts re-exports them.
 */

export const NOTIFICATION_LEVELS = ['info', 'success', 'warning', 'error'] as const;

/**
 * What a notification is about (issue 19): each category has per-user channel preferences and a
 * console screen that fixes it.
 */
export const NOTIFICATION_CATEGORIES = [
  'containers',
  'home-assistant',
  'llm',
  'satellites',
  'flows',
  'system',
  'vpn',
  'subscription',
  'security',
  'backups',
] as const;

/** Channels beyond the console (which always shows every notification). */
export const NOTIFICATION_CHANNELS = ['email', 'homeAssistant', 'ntfy', 'webhook'] as const;

export const DELIVERY_STATES = ['pending', 'sent', 'failed'] as const;

/**
 * Live topics (GET /api/live): a new notification is pushed as a `Notification` on
 * `notifications.all` when it is for every account, and on `notifications.user.<id>` when it is
 * for one; a browser may subscribe to the first and to its own user's topic only.
 */
export const NOTIFICATIONS_TOPIC = 'notifications';
export const NOTIFICATIONS_BROADCAST_TOPIC = `${NOTIFICATIONS_TOPIC}.all`;
export const notificationsUserTopic = (userId: number) => `${NOTIFICATIONS_TOPIC}.user.${userId}`;
