import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Bell } from 'lucide-react';
import type { ComponentProps } from 'react';
import { DeferredControl } from '@/components/deferred-control';
import { lazyComponent } from '@/lib/lazy-code';
import { Button } from '@/components/ui/button';
import { getLiveClient } from '@/lib/live';
import { MENU_LIMIT, followNotifications, notificationsQueryOptions } from '@/data/notification-list';

const NotificationsDropdown = lazyComponent(
  async () => (await import('./notifications-dropdown')).NotificationsDropdown,
);

/** The bell, with the number of unread notifications. */
export function NotificationsButton({
  unread,
  ...props
}: { unread: number } & ComponentProps<typeof Button>) {
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <Button variant="ghost" size="icon" className="relative" aria-label={label} {...props}>
      <Bell aria-hidden="true" />
      {unread > 0 && (
        <span
          aria-hidden="true"
          className="absolute top-1 right-1 grid min-w-4 place-items-center rounded-full bg-destructive px-1 text-[10px] leading-4 font-semibold text-destructive-foreground"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Button>
  );
}

/**
 * Spec §2: the header's notifications menu with a View All Notifications link to /notifications.
 * Its entries are the hub's real notifications for this user (the spec's reading shows static
 * samples; a console that invents alerts would mislead its owner). The bell and its count render
 * at once; the menu (notifications-dropdown.tsx) loads after the first paint.
 */
export function NotificationsMenu({ userId }: { userId: number }) {
  const queryClient = useQueryClient();
  const list = useQuery(notificationsQueryOptions(MENU_LIMIT));
  // The agent pushes each new notification on the live channel, and the lists are read again.
  useEffect(() => followNotifications(getLiveClient(), queryClient, userId), [queryClient, userId]);
  const unread = list.data?.unreadCount ?? 0;

  return (
    <DeferredControl
      code={NotificationsDropdown}
      button={(onPress) => <NotificationsButton unread={unread} onClick={onPress} />}
      full={(press) => (
        <NotificationsDropdown.Component trigger={<NotificationsButton unread={unread} />} press={press} />
      )}
    />
  );
}
