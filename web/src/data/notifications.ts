import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  channelTestResultSchema,
  notificationChannelsSchema,
  notificationHaServicesSchema,
  notificationPreferencesSchema,
  type MarkAllReadResult,
  type Notification,
  type NotificationCategory,
  type NotificationChannel,
  type NotificationChannelsInput,
  type NotificationLevel,
  type NotificationPreferencesInput,
} from '@nexus/agent/contract';
import { parseShape } from '@/lib/answer-shape';
import { apiJson } from '@/lib/request';
import {
  NOTIFICATIONS_PATH,
  PAGE_LIMIT,
  notificationListShape,
  notificationsRootKey,
} from './notification-list';

export {
  MENU_LIMIT,
  NOTIFICATIONS_PATH,
  PAGE_LIMIT,
  invalidateNotifications,
  notificationsQueryOptions,
} from './notification-list';

/** The /notifications screen's filters; '' is "any". */
export interface NotificationFilters {
  category: NotificationCategory | '';
  severity: NotificationLevel | '';
  state: '' | 'unread' | 'read';
}

export const notificationPagesQueryOptions = (filters: NotificationFilters) =>
  infiniteQueryOptions({
    queryKey: [...notificationsRootKey, 'pages', filters],
    initialPageParam: null as number | null,
    queryFn: async ({ pageParam }) => {
      const search = new URLSearchParams({ limit: String(PAGE_LIMIT) });
      if (filters.category) search.set('category', filters.category);
      if (filters.severity) search.set('severity', filters.severity);
      if (filters.state) search.set('unread', String(filters.state === 'unread'));
      if (pageParam) search.set('before', String(pageParam));
      return parseShape(notificationListShape, await apiJson('GET', `${NOTIFICATIONS_PATH}?${search}`));
    },
    // A full page may have more behind it: page on from its oldest id.
    getNextPageParam: (last) =>
      last.notifications.length === PAGE_LIMIT ? (last.notifications.at(-1)?.id ?? null) : null,
  });

export function useDeleteNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson<void>('DELETE', `${NOTIFICATIONS_PATH}/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsRootKey }),
  });
}

const PREFERENCES_PATH = `${NOTIFICATIONS_PATH}/preferences`;
const CHANNELS_PATH = `${NOTIFICATIONS_PATH}/channels`;

export const preferencesQueryOptions = () =>
  queryOptions({
    queryKey: [PREFERENCES_PATH],
    queryFn: async () => notificationPreferencesSchema.parse(await apiJson('GET', PREFERENCES_PATH)),
  });

export const haServicesQueryOptions = () =>
  queryOptions({
    queryKey: [`${NOTIFICATIONS_PATH}/ha-services`],
    queryFn: async () =>
      notificationHaServicesSchema.parse(await apiJson('GET', `${NOTIFICATIONS_PATH}/ha-services`)),
  });

export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: NotificationPreferencesInput) =>
      notificationPreferencesSchema.parse(await apiJson('PUT', PREFERENCES_PATH, input)),
    onSuccess: (saved) => queryClient.setQueryData([PREFERENCES_PATH], saved),
  });
}

export const channelsQueryOptions = () =>
  queryOptions({
    queryKey: [CHANNELS_PATH],
    queryFn: async () => notificationChannelsSchema.parse(await apiJson('GET', CHANNELS_PATH)),
  });

export function useSaveChannels() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: NotificationChannelsInput) =>
      notificationChannelsSchema.parse(await apiJson('PUT', CHANNELS_PATH, input)),
    onSuccess: (saved) => queryClient.setQueryData([CHANNELS_PATH], saved),
  });
}

export function useTestChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (channel: NotificationChannel) =>
      channelTestResultSchema.parse(await apiJson('POST', `${CHANNELS_PATH}/${channel}/test`)),
    // The test counts in the channel's health.
    onSettled: () => queryClient.invalidateQueries({ queryKey: [CHANNELS_PATH] }),
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiJson<{ notification: Notification }>('POST', `${NOTIFICATIONS_PATH}/${id}/read`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsRootKey }),
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<MarkAllReadResult>('POST', `${NOTIFICATIONS_PATH}/read-all`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsRootKey }),
  });
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
