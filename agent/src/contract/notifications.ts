import { z } from 'zod';

export const NOTIFICATION_LEVELS = ['info', 'success', 'warning', 'error'] as const;
export const notificationLevelSchema = z.enum(NOTIFICATION_LEVELS);
export type NotificationLevel = z.infer<typeof notificationLevelSchema>;

/**
 * Where a notification leads: a path inside the console. Absolute URLs and protocol-relative
 * paths ("//host") are refused so a notification can never send anyone off the hub.
 */
export const notificationLinkSchema = z
  .string()
  .max(500)
  .regex(/^\/(?!\/)[^\s]*$/, 'A notification link is a path inside the console, such as /nexus-docker');

export const notificationSchema = z.object({
  id: z.number().int(),
  level: notificationLevelSchema,
  title: z.string(),
  body: z.string().nullable(),
  link: z.string().nullable(),
  /** Sent to every account (hub events) rather than to one person. */
  broadcast: z.boolean(),
  createdAt: z.string(),
  /** When the signed-in user read it; null while unread. */
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const NOTIFICATION_LIST_DEFAULT_LIMIT = 20;
export const NOTIFICATION_LIST_MAX_LIMIT = 100;

export const notificationListQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(NOTIFICATION_LIST_MAX_LIMIT)
    .default(NOTIFICATION_LIST_DEFAULT_LIMIT),
});

export const notificationListSchema = z.object({
  notifications: z.array(notificationSchema),
  /** Unread notifications of the user in all, not only among the listed ones. */
  unreadCount: z.number().int().nonnegative(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const notificationIdParamSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, 'A notification id is a positive whole number')
    .transform(Number),
});

export const markAllReadResultSchema = z.object({ marked: z.number().int().nonnegative() });
export type MarkAllReadResult = z.infer<typeof markAllReadResultSchema>;

/** What a feature hands to notify(): no userId (or null) means every account. */
export const newNotificationSchema = z.object({
  userId: z.number().int().positive().nullish(),
  level: notificationLevelSchema.default('info'),
  title: z.string().trim().min(1).max(200),
  body: z.string().trim().max(2000).nullish(),
  link: notificationLinkSchema.nullish(),
});
export type NewNotification = z.input<typeof newNotificationSchema>;

/**
 * Live topics (GET /api/live): a new notification is pushed as a `Notification` on
 * `notifications.all` when it is for every account, and on `notifications.user.<id>` when it is
 * for one; a browser may subscribe to the first and to its own user's topic only.
 */
export const NOTIFICATIONS_TOPIC = 'notifications';
export const NOTIFICATIONS_BROADCAST_TOPIC = `${NOTIFICATIONS_TOPIC}.all`;
export const notificationsUserTopic = (userId: number) => `${NOTIFICATIONS_TOPIC}.user.${userId}`;
