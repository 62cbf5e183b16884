import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { Link, useLocation } from 'wouter';
import { RefreshError } from '@/components/load-state';
import { useFirstItemFocus, type EarlyPress } from '@/components/deferred-control';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/request';
import { cn } from '@/lib/utils';
import {
  MENU_LIMIT,
  invalidateNotifications,
  notificationsQueryOptions,
  timeAgo,
  useMarkAllRead,
  useMarkRead,
} from '@/data/notifications';
import { CATEGORY_LABELS, LEVEL_LABELS } from '../labels';
import { NotificationLevelIcon } from './notification-level-icon';

/** The notifications menu itself (notifications-menu.tsx renders the bell until it has loaded). */
export function NotificationsDropdown({
  trigger,
  press,
}: {
  /** The bell (notifications-menu.tsx), passed in so that this lazy module imports nothing back. */
  trigger: ReactElement;
  press: EarlyPress | null;
}) {
  const firstItemFocus = useFirstItemFocus(press);
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const list = useQuery(notificationsQueryOptions(MENU_LIMIT));
  const unread = list.data?.unreadCount ?? 0;
  const markRead = useMarkRead();
  const markAllRead = useMarkAllRead();

  return (
    <DropdownMenu
      modal={false}
      defaultOpen={press !== null}
      onOpenChange={(open) => {
        if (open) void invalidateNotifications(queryClient);
      }}
    >
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-80" ref={firstItemFocus}>
        <div className="flex items-center justify-between gap-2 pr-1">
          <DropdownMenuLabel>Notifications</DropdownMenuLabel>
          {unread > 0 && (
            <Button
              variant="link"
              size="sm"
              className="h-7 px-2"
              disabled={markAllRead.isPending}
              onClick={() => markAllRead.mutate()}
            >
              Mark all read
            </Button>
          )}
        </div>
        <DropdownMenuSeparator />
        <RefreshError what="the notifications" query={list} className="my-1" />
        {list.isLoading ? (
          <div role="status" className="space-y-2 p-2">
            <span className="sr-only">Loading notifications</span>
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : list.isLoadingError ? (
          <p className="px-2 py-3 text-sm text-destructive">
            Could not load notifications: {errorMessage(list.error)}
          </p>
        ) : list.data && list.data.notifications.length > 0 ? (
          list.data.notifications.map((item) => (
            <DropdownMenuItem
              key={item.id}
              className="items-start gap-3 py-2"
              onSelect={() => {
                if (!item.readAt) markRead.mutate(item.id);
                if (item.link) navigate(item.link);
              }}
            >
              <NotificationLevelIcon level={item.level} className="mt-0.5" />
              <span className="min-w-0 flex-1">
                <span className={cn('block truncate', !item.readAt && 'font-semibold')}>{item.title}</span>
                {item.body && <span className="line-clamp-2 text-xs text-muted-foreground">{item.body}</span>}
                <span className="block text-xs text-muted-foreground">
                  {CATEGORY_LABELS[item.category]}
                  {item.level === 'error' || item.level === 'warning'
                    ? ` · ${LEVEL_LABELS[item.level]}`
                    : ''}{' '}
                  · {timeAgo(item.createdAt)}
                </span>
              </span>
              {!item.readAt && (
                <span className="mt-1.5 size-2 shrink-0 rounded-full bg-primary">
                  <span className="sr-only">Unread</span>
                </span>
              )}
            </DropdownMenuItem>
          ))
        ) : (
          <p className="px-2 py-4 text-center text-sm text-muted-foreground">No notifications yet</p>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild className="justify-center font-medium">
          <Link href="/notifications">View All Notifications</Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
