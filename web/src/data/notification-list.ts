import { queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  DELIVERY_STATES,
  NOTIFICATIONS_BROADCAST_TOPIC,
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_LEVELS,
  type Notification,
  type NotificationList,
  notificationsUserTopic,
} from '@nexus/agent/contract';
import type { LiveClient } from '@/lib/live';
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

export function invalidateNotifications(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: notificationsRootKey });
}

/**
 * Keeps the notification lists current from the live channel: the user's own topic and the
 * broadcast one. Each event, and each confirmation of a topic (first, and after a reconnect: what
 * came before was not pushed here), reads the lists again with `rereadQueries`, which cancels a
 * read under way. A plain invalidation would join that read, and its answer may predate the
 * notification the event announces (CI saw the bell miss one: the first read, still unanswered on
 * a busy machine, was handed back to the event's refresh).
 */
export function followNotifications(live: LiveClient, queryClient: QueryClient, userId: number): () => void {
  const reread = () => void rereadQueries(queryClient, notificationsRootKey);
  const stops = [NOTIFICATIONS_BROADCAST_TOPIC, notificationsUserTopic(userId)].map((topic) =>
    live.subscribe(topic, reread, { onSubscribed: reread }),
  );
  return () => {
    for (const stop of stops) stop();
  };
}
