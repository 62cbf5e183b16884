import { useQuery } from '@tanstack/react-query';
import { CheckCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/features/auth';
import { MENU_LIMIT, notificationsQueryOptions, useMarkAllRead } from '@/data/notifications';
import { ChannelsPanel } from './channels-panel';
import { NotificationList } from './notification-list';
import { PreferencesPanel } from './preferences-panel';
import { pageContainer } from '@/components/page-container';

/** The /notifications screen: the inbox, this person's preferences and (admins) the hub's channels. */
export function NotificationsPage() {
  const { isAdmin } = useAuth();
  // The same query as the header's bell: the unread count across every filter.
  const summary = useQuery(notificationsQueryOptions(MENU_LIMIT));
  const markAllRead = useMarkAllRead();
  const unread = summary.data?.unreadCount ?? 0;

  return (
    <div className={pageContainer('space-y-6')}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Notifications</h1>
          <p className="text-sm text-muted-foreground">
            Messages from your hub: faults, security and problems that need you.
            {summary.data && ` ${unread} unread.`}
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

      <Tabs defaultValue="inbox" className="space-y-4">
        <TabsList>
          <TabsTrigger value="inbox">Inbox</TabsTrigger>
          <TabsTrigger value="preferences">Preferences</TabsTrigger>
          {isAdmin && <TabsTrigger value="channels">Channels</TabsTrigger>}
        </TabsList>
        <TabsContent value="inbox">
          <NotificationList />
        </TabsContent>
        <TabsContent value="preferences">
          <PreferencesPanel />
        </TabsContent>
        {isAdmin && (
          <TabsContent value="channels">
            <ChannelsPanel />
          </TabsContent>
        )}
      </Tabs>
    </div>
  );
}
