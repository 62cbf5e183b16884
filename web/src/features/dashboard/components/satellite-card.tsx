import type { UseQueryResult } from '@tanstack/react-query';
import { Radio } from 'lucide-react';
import { SATELLITE_SOURCE_LABELS, type Satellite } from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { formatAgo, meanAbsoluteSignal, satelliteCardStatus, signalBadgeVariant } from '../dashboard-logic';
import { CardEmpty, Fact, Facts, QueryCard } from './dashboard-card';
import { StatusBadge, StatusText } from '@/components/status-badge';

/** Satellites listed on the card; the rest are one click away in Satellite Management. */
const LISTED_SATELLITES = 3;

export function SatelliteCard({ query }: { query: UseQueryResult<Satellite[], Error> }) {
  return (
    <QueryCard
      title="Satellite1"
      icon={Radio}
      source="the satellite list"
      query={query}
      badge={(devices) => <StatusBadge word={satelliteCardStatus(devices)} />}
    >
      {(devices) =>
        devices.length === 0 ? (
          <CardEmpty
            title="No satellites yet"
            action={{ label: 'Add a satellite', href: '/satellite-management' }}
          >
            Adopt a Satellite1 or Voice PE in Home Assistant, or add a Wyoming satellite or a custom device in
            Satellite Management.
          </CardEmpty>
        ) : (
          <SatelliteSummary devices={devices} checkedAt={query.dataUpdatedAt} />
        )
      }
    </QueryCard>
  );
}

function SatelliteSummary({ devices, checkedAt }: { devices: Satellite[]; checkedAt: number }) {
  const online = devices.filter((d) => d.status === 'online').length;
  const meanSignal = meanAbsoluteSignal(devices);
  return (
    <>
      <Facts>
        <Fact label="Devices">
          {online} of {devices.length} online
        </Fact>
        <Fact label="Signal">
          {meanSignal === null ? (
            <span className="text-muted-foreground">No reading</span>
          ) : (
            <Badge
              variant={signalBadgeVariant(meanSignal)}
              data-signal-variant={signalBadgeVariant(meanSignal)}
              // The dark theme's white-on-red destructive badge is 3.9:1; dark text on the same red reads.
              className={
                signalBadgeVariant(meanSignal) === 'destructive' ? 'dark:text-background' : undefined
              }
            >
              −{Math.round(meanSignal)} dBm avg
            </Badge>
          )}
        </Fact>
      </Facts>
      <ul className="grid gap-2 text-sm">
        {devices.slice(0, LISTED_SATELLITES).map((device) => (
          <li key={device.id} className="rounded-lg border bg-muted/30 px-3 py-2">
            <div className="flex items-center justify-between gap-2">
              <span className="truncate font-medium">{device.name}</span>
              <StatusText word={device.status} className="text-xs" />
            </div>
            <div className="text-xs text-muted-foreground" data-source={device.source}>
              {SATELLITE_SOURCE_LABELS[device.source]}
              {device.room ? ` · ${device.room}` : ''}
            </div>
            <div className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
              <span>
                {device.signalStrength === null ? 'No signal reading' : `${device.signalStrength} dBm`}
              </span>
              <span>
                Wake word:{' '}
                {!device.activeWakeWord || device.activeWakeWord === 'no_wake_word'
                  ? 'none'
                  : device.activeWakeWord}
              </span>
              <span>Seen {formatAgo(device.lastSeen, checkedAt)}</span>
            </div>
          </li>
        ))}
      </ul>
      {devices.length > LISTED_SATELLITES ? (
        <p className="text-xs text-muted-foreground">
          +{devices.length - LISTED_SATELLITES} more in Satellite Management
        </p>
      ) : null}
    </>
  );
}
