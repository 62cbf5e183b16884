import { useQuery } from '@tanstack/react-query';
import { BellOff, CheckCheck } from 'lucide-react';
import { Link } from 'wouter';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/request';
import { cn } from '@/lib/utils';
import { PAGE_LIMIT, notificationsQueryOptions, timeAgo, useMarkAllRead, useMarkRead } from '../api';
import { NotificationLevelIcon } from './notification-level-icon';

/** The /notifications screen: everything the hub told this user, newest first. */
export function NotificationsPage() {
  const list = useQuery(notificationsQueryOptions(PAGE_LIMIT));
  const markRead = useMarkRead();
  const markAllRead = useMarkAllRead();
  const unread = list.data?.unreadCount ?? 0;

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Notifications</h1>
          <p className="text-sm text-muted-foreground">
            Messages from your hub: account security, updates and problems that need you.
            {list.data && ` ${unread} unread.`}
          </p>
        </div>
        <Button
          variant="outline"
          disabled={unread === 0 || markAllRead.isPending}
          onClick={() => markAllRead.mutate()}
        >
          <CheckCheck aria-hidden="true" />
          Mark all read
        </Button>
      </header>

      {list.isLoading ? (
        <div role="status" className="space-y-3">
          <span className="sr-only">Loading notifications</span>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-20 w-full" />
          ))}
        </div>
      ) : list.error ? (
        <Alert variant="destructive">
          <AlertTitle>Could not load notifications</AlertTitle>
          <AlertDescription>{errorMessage(list.error)}</AlertDescription>
        </Alert>
      ) : list.data && list.data.notifications.length > 0 ? (
        <ul className="space-y-3">
          {list.data.notifications.map((item) => (
            <li key={item.id}>
              <Card className={cn(!item.readAt && 'border-primary/40')}>
                <CardContent className="flex items-start gap-3 p-4">
                  <NotificationLevelIcon level={item.level} className="mt-1" />
                  <div className="min-w-0 flex-1 space-y-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <h2 className={cn('text-sm', item.readAt ? 'font-medium' : 'font-semibold')}>
                        {item.title}
                      </h2>
                      {!item.readAt && <Badge>Unread</Badge>}
                      {item.broadcast && <Badge variant="outline">Hub</Badge>}
                    </div>
                    {item.body && <p className="text-sm text-muted-foreground">{item.body}</p>}
                    <p className="text-xs text-muted-foreground">
                      <time dateTime={item.createdAt} title={new Date(item.createdAt).toLocaleString()}>
                        {timeAgo(item.createdAt)}
                      </time>
                      {item.link && (
                        <>
                          {' · '}
                          <Link href={item.link} className="text-primary underline-offset-4 hover:underline">
                            Open
                          </Link>
                        </>
                      )}
                    </p>
                  </div>
                  {!item.readAt && (
                    <Button
                      variant="ghost"
                      size="sm"
                      disabled={markRead.isPending}
                      onClick={() => markRead.mutate(item.id)}
                      aria-label={`Mark "${item.title}" as read`}
                    >
                      Mark read
                    </Button>
                  )}
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      ) : (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
            <BellOff aria-hidden="true" className="size-8 text-muted-foreground" />
            <h2 className="font-medium">No notifications yet</h2>
            <p className="max-w-sm text-sm text-muted-foreground">
              The hub tells you here when something needs your attention, such as a password reset on your
              account. There is nothing to do now.
            </p>
            <Button variant="outline" asChild>
              <Link href="/dashboard">Back to the dashboard</Link>
            </Button>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
