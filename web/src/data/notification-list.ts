import { queryOptions, type useQueryClient } from '@tanstack/react-query';
import {
  DELIVERY_STATES,
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_LEVELS,
  type Notification,
  type NotificationList,
} from '@nexus/agent/contract';
import { rereadQueries } from '@/lib/query-client';
import {
  array,
  boolean,
  count,
  integer,
  nullable,
  object,
  oneOf,
  parseShape,
  string,
  type Shape,
} from '@/lib/answer-shape';
import { apiJson } from '@/lib/request';

/**
 * The latest notifications, as the console's frame (its notifications menu) reads them: the part
 * of the notifications data (data/notifications.ts, which re-exports this) checked with small
 * shapes of the contract's schemas (lib/answer-shape), so the frame does not load zod before the
 * first screen's figures (issue 26).
 */
export const NOTIFICATIONS_PATH = '/api/notifications';
/** The menu shows the latest few; the /notifications screen shows up to the agent's maximum. */
export const MENU_LIMIT = 5;
export const PAGE_LIMIT = 25;

export const notificationsRootKey = [NOTIFICATIONS_PATH] as const;

/** contract/notifications.ts notificationSchema. */
export const notificationShape: Shape<Notification> = object<Notification>({
  id: integer,
  level: oneOf(NOTIFICATION_LEVELS),
  category: oneOf(NOTIFICATION_CATEGORIES),
  title: string,
  body: nullable(string),
  link: nullable(string),
  broadcast: boolean,
  createdAt: string,
  readAt: nullable(string),
  deliveries: array(
    object<Notification['deliveries'][number]>({
      channel: oneOf(NOTIFICATION_CHANNELS),
      status: oneOf(DELIVERY_STATES),
      attempts: count,
      lastError: nullable(string),
      nextAttemptAt: nullable(string),
      sentAt: nullable(string),
    }),
  ),
});

/** contract/notifications.ts notificationListSchema. */
export const notificationListShape: Shape<NotificationList> = object<NotificationList>({
  notifications: array(notificationShape),
  unreadCount: count,
});

export const notificationsQueryOptions = (limit: number) =>
  queryOptions({
    queryKey: [...notificationsRootKey, { limit }],
    queryFn: async (): Promise<NotificationList> =>
      parseShape(notificationListShape, await apiJson('GET', `${NOTIFICATIONS_PATH}?limit=${limit}`)),
  });

export function invalidateNotifications(queryClient: ReturnType<typeof useQueryClient>) {
  return queryClient.invalidateQueries({ queryKey: notificationsRootKey });
}

/** Reads the lists afresh once the live topic is confirmed (lib/query-client rereadQueries). */
export function rereadNotifications(queryClient: ReturnType<typeof useQueryClient>) {
  return rereadQueries(queryClient, notificationsRootKey);
}
