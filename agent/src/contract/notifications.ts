import { z } from 'zod';
import {
  DELIVERY_STATES,
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_LEVELS,
} from './notification-constants.js';

export {
  DELIVERY_STATES,
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_LEVELS,
  NOTIFICATIONS_BROADCAST_TOPIC,
  NOTIFICATIONS_TOPIC,
  notificationsUserTopic,
} from './notification-constants.js';

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

/**
 * What a notification is about (issue 19): each category has per-user channel preferences and a
 * console screen that fixes it.
 */
export const notificationCategorySchema = z.enum(NOTIFICATION_CATEGORIES);
export type NotificationCategory = z.infer<typeof notificationCategorySchema>;

export const notificationChannelSchema = z.enum(NOTIFICATION_CHANNELS);
export type NotificationChannel = z.infer<typeof notificationChannelSchema>;

/** One channel's attempt to carry a notification out of the hub. */
export const notificationDeliverySchema = z.object({
  channel: notificationChannelSchema,
  status: z.enum(DELIVERY_STATES),
  attempts: z.number().int().nonnegative(),
  /** The last failure in words; null once sent. */
  lastError: z.string().nullable(),
  /** When the next retry is due while pending. */
  nextAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type NotificationDelivery = z.infer<typeof notificationDeliverySchema>;

export const notificationSchema = z.object({
  id: z.number().int(),
  /** The severity: error and warning for faults, success when one clears, info otherwise. */
  level: notificationLevelSchema,
  category: notificationCategorySchema,
  title: z.string(),
  body: z.string().nullable(),
  link: z.string().nullable(),
  /** Sent to every account (hub events) rather than to one person. */
  broadcast: z.boolean(),
  createdAt: z.string(),
  /** When the signed-in user read it; null while unread. */
  readAt: z.string().nullable(),
  /** The channels it went out on for this user (empty when only the console shows it). */
  deliveries: z.array(notificationDeliverySchema),
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
  category: notificationCategorySchema.optional(),
  /** The level, e.g. `severity=error`. */
  severity: notificationLevelSchema.optional(),
  /** `unread=true` lists unread only, `unread=false` read only. */
  unread: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
  /** Paging: notifications older than this id. */
  before: z.coerce.number().int().positive().optional(),
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
  category: notificationCategorySchema.default('system'),
  title: z.string().trim().min(1).max(200),
  body: z.string().trim().max(2000).nullish(),
  link: notificationLinkSchema.nullish(),
});
export type NewNotification = z.input<typeof newNotificationSchema>;

// ---- Preferences and channels (issue 19) ----------------------------------------------------

/** Per user: which categories go out on which channel (the console always shows everything). */
export const notificationPreferencesSchema = z.object({
  categories: z.record(
    notificationCategorySchema,
    z.object({
      email: z.boolean(),
      homeAssistant: z.boolean(),
      ntfy: z.boolean(),
      webhook: z.boolean(),
    }),
  ),
  /** The Home Assistant notify service for this person's phone, e.g. "notify.mobile_app_pixel_8"; null: the hub's default. */
  homeAssistantService: z
    .string()
    .regex(/^notify\.[a-z0-9_]+$/, 'A notify service, such as notify.mobile_app_my_phone')
    .nullable(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
/** PUT /api/notifications/preferences: any subset; missing categories keep their choice. */
export const notificationPreferencesInputSchema = z.strictObject({
  categories: z
    .partialRecord(
      notificationCategorySchema,
      z.strictObject({
        email: z.boolean().optional(),
        homeAssistant: z.boolean().optional(),
        ntfy: z.boolean().optional(),
        webhook: z.boolean().optional(),
      }),
    )
    .optional(),
  homeAssistantService: notificationPreferencesSchema.shape.homeAssistantService.optional(),
});
export type NotificationPreferencesInput = z.infer<typeof notificationPreferencesInputSchema>;

const httpUrlSchema = z
  .string()
  .max(2000)
  .url()
  .refine((u) => /^https?:\/\//.test(u), 'Use an http:// or https:// address');

/** How a channel last did, for the settings screen. */
export const channelHealthSchema = z.object({
  lastSentAt: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
  lastError: z.string().nullable(),
  /** Deliveries waiting for a retry. */
  pending: z.number().int().nonnegative(),
});

/** GET /api/notifications/channels (admin): settings without their secrets. */
export const notificationChannelsSchema = z.object({
  email: z.object({
    enabled: z.boolean(),
    /** False when SMTP_URL/SMTP_FROM are not set on the hub. */
    configured: z.boolean(),
    health: channelHealthSchema,
  }),
  homeAssistant: z.object({
    enabled: z.boolean(),
    /** The default notify service, e.g. "notify.notify". */
    service: z.string(),
    /** The notify services Home Assistant offers now (empty when not connected). */
    available: z.array(z.string()),
    health: channelHealthSchema,
  }),
  ntfy: z.object({
    enabled: z.boolean(),
    url: z.string(),
    topic: z.string(),
    hasToken: z.boolean(),
    health: channelHealthSchema,
  }),
  webhook: z.object({
    enabled: z.boolean(),
    url: z.string(),
    /** A secret is set: each POST carries an `X-Nexus-Signature: sha256=<hex HMAC of the body>` header. */
    hasSecret: z.boolean(),
    health: channelHealthSchema,
  }),
});
export type NotificationChannels = z.infer<typeof notificationChannelsSchema>;

/** PUT /api/notifications/channels (admin). A token or secret of "" removes it; omitted keeps it. */
export const notificationChannelsInputSchema = z.strictObject({
  email: z.strictObject({ enabled: z.boolean() }).optional(),
  homeAssistant: z
    .strictObject({
      enabled: z.boolean(),
      service: notificationPreferencesSchema.shape.homeAssistantService.unwrap().optional(),
    })
    .optional(),
  ntfy: z
    .strictObject({
      enabled: z.boolean(),
      url: httpUrlSchema.optional(),
      topic: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/, 'A topic is letters, digits, - and _ (up to 64)')
        .optional(),
      token: z.string().max(500).optional(),
    })
    .optional(),
  webhook: z
    .strictObject({
      enabled: z.boolean(),
      url: httpUrlSchema.optional(),
      secret: z.string().max(500).optional(),
    })
    .optional(),
});
export type NotificationChannelsInput = z.infer<typeof notificationChannelsInputSchema>;

/** GET /api/notifications/ha-services: the notify services a person may pick for their phone. */
export const notificationHaServicesSchema = z.object({ services: z.array(z.string()) });
export type NotificationHaServices = z.infer<typeof notificationHaServicesSchema>;

export const notificationChannelParamSchema = z.object({ channel: notificationChannelSchema });
/** POST /api/notifications/channels/:channel/test answers this (200 whether or not it arrived). */
export const channelTestResultSchema = z.object({ ok: z.boolean(), message: z.string() });
export type ChannelTestResult = z.infer<typeof channelTestResultSchema>;
