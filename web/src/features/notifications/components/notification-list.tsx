import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { BellOff, Trash2 } from 'lucide-react';
import { Link } from 'wouter';
import {
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_LEVELS,
  type Notification,
  type NotificationDelivery,
} from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { cn } from '@/lib/utils';
import {
  notificationPagesQueryOptions,
  timeAgo,
  useDeleteNotification,
  useMarkRead,
  type NotificationFilters,
} from '@/data/notifications';
import { CATEGORY_LABELS, CHANNEL_LABELS, LEVEL_LABELS } from '../labels';
import { NotificationLevelIcon } from './notification-level-icon';

const ANY = 'any';
const NO_FILTERS: NotificationFilters = { category: '', severity: '', state: '' };

/** The inbox: filters by category, severity and read state, each entry with its deliveries; pages on. */
export function NotificationList() {
  const [filters, setFilters] = useState<NotificationFilters>(NO_FILTERS);
  const pages = useInfiniteQuery(notificationPagesQueryOptions(filters));
  const markRead = useMarkRead();
  const remove = useDeleteNotification();
  const items = pages.data?.pages.flatMap((p) => p.notifications) ?? [];
  const filtered = Object.values(filters).some(Boolean);

  return (
    <div className="space-y-4">
      <div
        role="group"
        aria-label="Filter notifications"
        className="grid gap-3 sm:grid-cols-[repeat(3,minmax(0,1fr))_auto]"
      >
        <FilterSelect
          id="notification-category"
          label="Category"
          value={filters.category}
          options={NOTIFICATION_CATEGORIES.map((c) => [c, CATEGORY_LABELS[c]])}
          onChange={(category) =>
            setFilters({ ...filters, category: category as NotificationFilters['category'] })
          }
        />
        <FilterSelect
          id="notification-severity"
          label="Severity"
          value={filters.severity}
          options={NOTIFICATION_LEVELS.map((l) => [l, LEVEL_LABELS[l]])}
          onChange={(severity) =>
            setFilters({ ...filters, severity: severity as NotificationFilters['severity'] })
          }
        />
        <FilterSelect
          id="notification-state"
          label="State"
          value={filters.state}
          options={[
            ['unread', 'Unread'],
            ['read', 'Read'],
          ]}
          onChange={(state) => setFilters({ ...filters, state: state as NotificationFilters['state'] })}
        />
        <div className="flex items-end">
          <Button variant="ghost" disabled={!filtered} onClick={() => setFilters(NO_FILTERS)}>
            Clear filters
          </Button>
        </div>
      </div>

      <RefreshError what="the notifications" query={pages} />
      {pages.isLoading ? (
        <div role="status" className="space-y-3">
          <span className="sr-only">Loading notifications</span>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-20 w-full" />
          ))}
        </div>
      ) : pages.isLoadingError ? (
        <Alert variant="destructive">
          <AlertTitle>Could not load notifications</AlertTitle>
          <AlertDescription>{errorMessage(pages.error)}</AlertDescription>
        </Alert>
      ) : items.length > 0 ? (
        <>
          <ul className="space-y-3" aria-label="Notifications">
            {items.map((item) => (
              <NotificationItem
                key={item.id}
                item={item}
                markingRead={markRead.isPending}
                onMarkRead={() => markRead.mutate(item.id)}
                onDelete={() =>
                  remove.mutate(item.id, {
                    onSuccess: () => toast({ title: 'Notification deleted' }),
                    onError: (error) =>
                      toast({
                        title: 'Could not delete',
                        description: errorMessage(error),
                        variant: 'destructive',
                      }),
                  })
                }
              />
            ))}
          </ul>
          {pages.hasNextPage && (
            <div className="flex justify-center">
              <Button
                variant="outline"
                disabled={pages.isFetchingNextPage}
                onClick={() => void pages.fetchNextPage()}
              >
                {pages.isFetchingNextPage ? 'Loading…' : 'Load older notifications'}
              </Button>
            </div>
          )}
        </>
      ) : (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
            <BellOff aria-hidden="true" className="size-8 text-muted-foreground" />
            <h2 className="font-medium">{filtered ? 'No notifications match' : 'No notifications yet'}</h2>
            <p className="max-w-sm text-sm text-muted-foreground">
              {filtered
                ? 'Try other filters, or clear them to see everything.'
                : 'The hub tells you here when something needs your attention, such as a container that stopped or a sign-in from a new device. There is nothing to do now.'}
            </p>
          </CardContent>
        </Card>
      )}
    </div>
  );
}

function FilterSelect({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: [string, string][];
  onChange: (value: string) => void;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select value={value || ANY} onValueChange={(v) => onChange(v === ANY ? '' : v)}>
        <SelectTrigger id={id}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ANY}>Any</SelectItem>
          {options.map(([v, text]) => (
            <SelectItem key={v} value={v}>
              {text}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

function NotificationItem({
  item,
  markingRead,
  onMarkRead,
  onDelete,
}: {
  item: Notification;
  markingRead: boolean;
  onMarkRead: () => void;
  onDelete: () => void;
}) {
  return (
    <li>
      <Card className={cn(!item.readAt && 'border-primary/40')}>
        <CardContent className="flex items-start gap-3 p-4">
          <NotificationLevelIcon level={item.level} className="mt-1" />
          <div className="min-w-0 flex-1 space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <h2 className={cn('text-sm', item.readAt ? 'font-medium' : 'font-semibold')}>{item.title}</h2>
              {!item.readAt && <Badge>Unread</Badge>}
              <Badge variant="outline">{CATEGORY_LABELS[item.category]}</Badge>
              {item.broadcast && <Badge variant="outline">Hub</Badge>}
            </div>
            {item.body && <p className="text-sm text-muted-foreground">{item.body}</p>}
            <p className="text-xs text-muted-foreground">
              {LEVEL_LABELS[item.level]} ·{' '}
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
            {item.deliveries.length > 0 && (
              <ul aria-label="Deliveries" className="flex flex-wrap gap-x-4 gap-y-1 pt-1 text-xs">
                {item.deliveries.map((d, i) => (
                  <DeliveryLine key={`${d.channel}-${i}`} delivery={d} />
                ))}
              </ul>
            )}
          </div>
          <div className="flex shrink-0 flex-col items-end gap-1 sm:flex-row sm:items-center">
            {!item.readAt && (
              <Button
                variant="ghost"
                size="sm"
                disabled={markingRead}
                onClick={onMarkRead}
                aria-label={`Mark "${item.title}" as read`}
              >
                Mark read
              </Button>
            )}
            <ConfirmButton
              variant="ghost"
              size="sm"
              aria-label={`Delete "${item.title}"`}
              question="Delete this notification?"
              description={
                item.broadcast
                  ? 'It disappears from your list only; others still see it.'
                  : 'It is removed for good, with its delivery record.'
              }
              confirmLabel="Delete"
              destructive
              onConfirm={onDelete}
            >
              <Trash2 aria-hidden="true" />
            </ConfirmButton>
          </div>
        </CardContent>
      </Card>
    </li>
  );
}

function DeliveryLine({ delivery: d }: { delivery: NotificationDelivery }) {
  const name = CHANNEL_LABELS[d.channel];
  if (d.status === 'sent') {
    return (
      <li className="text-success">
        {name}: sent{d.sentAt && ` ${timeAgo(d.sentAt)}`}
      </li>
    );
  }
  if (d.status === 'failed') {
    return (
      <li className="text-destructive">
        {name}: failed after {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
        {d.lastError && ` — ${d.lastError}`}
      </li>
    );
  }
  return (
    <li className="text-muted-foreground">
      {name}:{' '}
      {d.attempts === 0 ? 'sending' : `retrying${d.nextAttemptAt ? ` ${timeAgo(d.nextAttemptAt)}` : ''}`}
      {d.lastError && ` (last error: ${d.lastError})`}
    </li>
  );
}
