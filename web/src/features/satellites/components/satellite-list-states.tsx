import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Satellite } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/request';

/**
 * The states every satellite list goes through: a skeleton while loading, an error when there is no
 * list, the screen's own empty state, and the list, with a warning when a refresh failed and the
 * last good list is still shown.
 */
export function SatelliteListStates({
  list,
  empty,
  children,
}: {
  list: UseQueryResult<Satellite[], Error>;
  empty: ReactNode;
  children: (satellites: Satellite[], checkedAt: number) => ReactNode;
}) {
  if (list.isPending) {
    return (
      <div role="status" className="space-y-2">
        <span className="sr-only">Loading satellites</span>
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    );
  }
  if (list.isLoadingError) {
    return (
      <Alert variant="destructive">
        <AlertTitle>Could not load the satellites</AlertTitle>
        <AlertDescription>{errorMessage(list.error)}</AlertDescription>
      </Alert>
    );
  }
  if (list.data.length === 0) return empty;
  return (
    <>
      {/* The last good list stays on screen, but it is no longer current. */}
      <RefreshError what="the satellites" query={list} />
      {children(list.data, list.dataUpdatedAt)}
    </>
  );
}

/** "2 of 3 reporting · checked at 10:42:05": how many of a list answer, as of its last fetch. */
export function ReportingSummary({ satellites, checkedAt }: { satellites: Satellite[]; checkedAt: number }) {
  const online = satellites.filter((s) => s.status !== 'offline').length;
  return (
    <p className="text-sm text-muted-foreground">
      {online} of {satellites.length} reporting · checked at{' '}
      <time dateTime={new Date(checkedAt).toISOString()}>{new Date(checkedAt).toLocaleTimeString()}</time>
    </p>
  );
}
