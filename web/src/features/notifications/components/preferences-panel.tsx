import { useQuery } from '@tanstack/react-query';
import { SlidersHorizontal } from 'lucide-react';
import {
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_CHANNELS,
  type NotificationCategory,
  type NotificationChannel,
} from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Label } from '@/components/ui/label';
import { Panel } from '@/components/ui/panel';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { haServicesQueryOptions, preferencesQueryOptions, useSavePreferences } from '@/data/notifications';
import { CATEGORY_LABELS, CHANNEL_LABELS } from '../labels';

const HUB_DEFAULT = 'hub-default';

/**
 * Which categories reach this person on which channel (the console always shows all). Each switch
 * saves at once; ntfy and the webhook are the hub's and go out once if anyone wants the category.
 */
export function PreferencesPanel() {
  const prefs = useQuery(preferencesQueryOptions());
  const services = useQuery(haServicesQueryOptions());
  const save = useSavePreferences();
  const onError = (error: unknown) =>
    toast({
      title: 'Could not save the preference',
      description: errorMessage(error),
      variant: 'destructive',
    });

  const toggle = (category: NotificationCategory, channel: NotificationChannel, value: boolean) =>
    save.mutate({ categories: { [category]: { [channel]: value } } }, { onError });

  const current = prefs.data?.homeAssistantService ?? null;
  const options = [...new Set([...(services.data?.services ?? []), ...(current ? [current] : [])])];

  return (
    <Panel
      title="Preferences"
      icon={SlidersHorizontal}
      description="Where each kind of notification reaches you besides this console. ntfy and the webhook are the hub's channels: they carry a notification once when anyone wants it there."
    >
      <RefreshError what="your preferences" query={prefs} />
      {prefs.isLoading ? (
        <div role="status" className="space-y-2">
          <span className="sr-only">Loading preferences</span>
          <Skeleton className="h-48 w-full" />
        </div>
      ) : prefs.isLoadingError ? (
        <Alert variant="destructive">
          <AlertTitle>Could not load your preferences</AlertTitle>
          <AlertDescription>{errorMessage(prefs.error)}</AlertDescription>
        </Alert>
      ) : prefs.data ? (
        <>
          <div className="overflow-x-auto">
            <Table label="Notification preferences">
              <TableHeader>
                <TableRow>
                  <TableHead scope="col">Category</TableHead>
                  {NOTIFICATION_CHANNELS.map((channel) => (
                    <TableHead key={channel} scope="col" className="text-center">
                      {CHANNEL_LABELS[channel]}
                    </TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {NOTIFICATION_CATEGORIES.map((category) => (
                  <TableRow key={category}>
                    <TableHead scope="row" className="font-medium">
                      {CATEGORY_LABELS[category]}
                    </TableHead>
                    {NOTIFICATION_CHANNELS.map((channel) => (
                      <TableCell key={channel} className="text-center">
                        <Switch
                          aria-label={`${CATEGORY_LABELS[category]} by ${CHANNEL_LABELS[channel]}`}
                          checked={prefs.data.categories[category]?.[channel] ?? false}
                          disabled={save.isPending}
                          onCheckedChange={(value) => toggle(category, channel, value)}
                        />
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          <div className="grid max-w-md gap-1.5">
            <Label htmlFor="personal-ha-service">Your phone in Home Assistant</Label>
            <Select
              value={current ?? HUB_DEFAULT}
              onValueChange={(v) =>
                save.mutate(
                  { homeAssistantService: v === HUB_DEFAULT ? null : v },
                  { onError, onSuccess: () => toast({ title: 'Home Assistant service saved' }) },
                )
              }
            >
              <SelectTrigger id="personal-ha-service" aria-describedby="personal-ha-service-help">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={HUB_DEFAULT}>The hub&apos;s default service</SelectItem>
                {options.map((s) => (
                  <SelectItem key={s} value={s}>
                    {s}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <p id="personal-ha-service-help" className="text-xs text-muted-foreground">
              The companion app registers a notify service per phone, e.g. notify.mobile_app_pixel_8.
              {services.data &&
                services.data.services.length === 0 &&
                ' Home Assistant is not connected now.'}
            </p>
          </div>
        </>
      ) : null}
    </Panel>
  );
}
