import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  notificationListSchema,
  type MarkAllReadResult,
  type Notification,
  type NotificationList,
} from '@nexus/agent/contract';
import { apiJson } from '@/lib/request';

export const NOTIFICATIONS_PATH = '/api/notifications';
/** The menu shows the latest few; the /notifications screen shows up to the agent's maximum. */
export const MENU_LIMIT = 5;
export const PAGE_LIMIT = 100;

const rootKey = [NOTIFICATIONS_PATH] as const;

export const notificationsQueryOptions = (limit: number) =>
  queryOptions({
    queryKey: [...rootKey, { limit }],
    queryFn: async (): Promise<NotificationList> =>
      notificationListSchema.parse(await apiJson('GET', `${NOTIFICATIONS_PATH}?limit=${limit}`)),
  });

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiJson<{ notification: Notification }>('POST', `${NOTIFICATIONS_PATH}/${id}/read`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rootKey }),
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<MarkAllReadResult>('POST', `${NOTIFICATIONS_PATH}/read-all`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rootKey }),
  });
}

export function invalidateNotifications(queryClient: ReturnType<typeof useQueryClient>) {
  return queryClient.invalidateQueries({ queryKey: rootKey });
}

/** "3 minutes ago", in the browser's language. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ['year', 365 * 24 * 3600],
    ['month', 30 * 24 * 3600],
    ['week', 7 * 24 * 3600],
    ['day', 24 * 3600],
    ['hour', 3600],
    ['minute', 60],
  ];
  for (const [unit, size] of steps) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(seconds, 'second');
}
