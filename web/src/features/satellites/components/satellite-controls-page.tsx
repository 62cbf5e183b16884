import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, SearchX } from 'lucide-react';
import { Link, useParams } from 'wouter';
import type { Satellite } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/features/auth';
import { ApiRequestError, errorMessage } from '@/lib/request';
import { satelliteQueryOptions, useSatellitesLive } from '@/data/satellites';
import { SatelliteControls } from './satellite-controls';
import { SatelliteDetails } from './satellite-details';
import { SourceBadge } from './source-badge';
import { pageContainer } from '@/components/page-container';

function BackLink() {
  return (
    <Link
      href="/satellite-management"
      className="inline-flex items-center gap-1 text-sm text-muted-foreground underline-offset-4 hover:underline"
    >
      <ArrowLeft aria-hidden="true" className="size-4" /> Satellite Management
    </Link>
  );
}

/** The controls and details of one satellite, shared by /satellite-controls/:id and /sat1-control. */
export function SatelliteView({ satellite, checkedAt }: { satellite: Satellite; checkedAt: number }) {
  const { isAdmin } = useAuth();
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <SatelliteControls satellite={satellite} isAdmin={isAdmin} />
      <SatelliteDetails satellite={satellite} checkedAt={checkedAt} />
    </div>
  );
}

export function ViewSkeleton() {
  return (
    <div role="status" className="grid gap-6 lg:grid-cols-2">
      <span className="sr-only">Loading the satellite</span>
      <Skeleton className="h-72 w-full" />
      <Skeleton className="h-72 w-full" />
    </div>
  );
}

/** /satellite-controls/:id: what one satellite can be told to do, and what the hub knows of it. */
export function SatelliteControlsPage() {
  const params = useParams<{ id?: string }>();
  const raw = params.id ?? '';
  const id = /^\d+$/.test(raw) ? Number(raw) : NaN;
  const valid = Number.isSafeInteger(id) && id > 0;
  const query = useQuery(satelliteQueryOptions(valid ? id : 0));
  useSatellitesLive(valid);
  const notFound =
    !valid || (query.isError && query.error instanceof ApiRequestError && query.error.status === 404);

  return (
    <div className={pageContainer('space-y-6')}>
      <BackLink />
      {notFound ? (
        <NotFoundState raw={raw} />
      ) : query.isPending ? (
        <>
          <h1 className="text-2xl font-semibold tracking-tight">Satellite Controls</h1>
          <ViewSkeleton />
        </>
      ) : query.isLoadingError ? (
        <>
          <h1 className="text-2xl font-semibold tracking-tight">Satellite Controls</h1>
          <Alert variant="destructive">
            <AlertTitle>Could not load the satellite</AlertTitle>
            <AlertDescription>{errorMessage(query.error)}</AlertDescription>
          </Alert>
        </>
      ) : (
        <>
          <header className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold tracking-tight">{query.data.name}</h1>
            <SourceBadge source={query.data.source} />
          </header>
          <RefreshError what="the satellite" query={query} />
          <SatelliteView satellite={query.data} checkedAt={query.dataUpdatedAt} />
        </>
      )}
    </div>
  );
}

function NotFoundState({ raw }: { raw: string }) {
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Satellite Controls</h1>
      <Card>
        <CardContent className="flex flex-col items-center gap-3 p-8 text-center">
          <span className="grid size-10 place-items-center rounded-full bg-muted text-muted-foreground">
            <SearchX aria-hidden="true" className="size-5" />
          </span>
          <h2 className="font-semibold">No such satellite</h2>
          <p className="max-w-md text-sm text-muted-foreground">
            This hub has no satellite number <span data-testid="param-id">{raw}</span>. It may have been
            removed, or have left Home Assistant.{' '}
            <Link href="/satellite-management" className="underline underline-offset-4">
              See every satellite
            </Link>
            .
          </p>
        </CardContent>
      </Card>
    </>
  );
}
