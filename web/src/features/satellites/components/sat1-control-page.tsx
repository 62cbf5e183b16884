import { useQuery } from '@tanstack/react-query';
import { Radio } from 'lucide-react';
import { Link } from 'wouter';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Card, CardContent } from '@/components/ui/card';
import { errorMessage } from '@/lib/request';
import { satellitesQueryOptions, useSatellitesLive } from '@/data/satellites';
import { isSatellite1 } from './satellite-format';
import { SatelliteView, ViewSkeleton } from './satellite-controls-page';
import { SourceBadge } from './source-badge';
import { pageContainer } from '@/components/page-container';

/** /sat1-control: the hub's first Satellite1 (FutureProofHomes), with the controls it has. */
export function Sat1ControlPage() {
  const list = useQuery(satellitesQueryOptions());
  useSatellitesLive();
  const satellite = list.data?.find(isSatellite1);

  return (
    <div className={pageContainer('space-y-6')}>
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Satellite1 Control</h1>
        {satellite ? (
          <>
            <span className="text-lg font-medium" data-testid="sat1-name">
              {satellite.name}
            </span>
            <SourceBadge source={satellite.source} />
          </>
        ) : null}
      </header>
      <RefreshError what="the satellites" query={list} />
      {list.isPending ? (
        <ViewSkeleton />
      ) : list.isLoadingError ? (
        <Alert variant="destructive">
          <AlertTitle>Could not load the satellites</AlertTitle>
          <AlertDescription>{errorMessage(list.error)}</AlertDescription>
        </Alert>
      ) : satellite ? (
        <SatelliteView satellite={satellite} checkedAt={list.dataUpdatedAt} />
      ) : (
        <NoSatellite1 />
      )}
    </div>
  );
}

function NoSatellite1() {
  return (
    <Card>
      <CardContent className="grid justify-items-center gap-3 p-8 text-center">
        <span className="grid size-10 place-items-center rounded-full bg-primary/10 text-primary">
          <Radio aria-hidden="true" className="size-5" />
        </span>
        <h2 className="font-semibold">No Satellite1 on this hub</h2>
        <p className="max-w-xl text-sm text-muted-foreground">
          A Satellite1 by FutureProofHomes is an ESPHome device: Home Assistant adopts it, and the hub finds
          it there.
        </p>
        <ol className="grid max-w-xl list-decimal gap-1 pl-5 text-left text-sm text-muted-foreground">
          <li>Power the Satellite1 on and join it to your Wi-Fi with FutureProofHomes&apos; setup.</li>
          <li>
            In Home Assistant, open Settings → Devices &amp; services: the ESPHome integration shows it as
            discovered. Choose Add (or Configure) and give it an area.
          </li>
          <li>
            Make sure this hub is connected to Home Assistant under{' '}
            <Link href="/ha-connection-setup" className="underline underline-offset-4">
              HA Connection Setup
            </Link>
            . The Satellite1 then shows here and in{' '}
            <Link href="/satellite-management" className="underline underline-offset-4">
              Satellite Management
            </Link>
            .
          </li>
        </ol>
      </CardContent>
    </Card>
  );
}
